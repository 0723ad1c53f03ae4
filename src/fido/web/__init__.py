"""The web app: server-rendered pages (Jinja2) and the table's client (ES modules, SVG).

It lives on the server's app (:func:`install_web`, called by
:func:`fido.web.app.create_app`). The page modules share one kit
(:mod:`fido.web.kit`: the render, who asks, the checked form), which imports
no page module, and reach the data through the services the JSON API's routes call
(``fido.server.*_service``), never through the app's own HTTP.
"""

from fido.web.app import install_web

__all__ = ["install_web"]
