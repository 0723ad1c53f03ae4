"""What the tests share, imported by name (``from support.server_live import live_server``):
servers, clients, the browser, reference examples."""
