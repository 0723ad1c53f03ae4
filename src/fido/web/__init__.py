"""The web app: server-rendered pages (Jinja2) and the table's client (ES modules, SVG).

It lives on the server's app (:func:`install_web`, called by
:func:`fido.web.app.create_app`) and uses nothing but the server's
documented API and WebSocket protocol.
"""

from fido.web.pages import install_web

__all__ = ["install_web"]
