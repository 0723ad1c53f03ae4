"""The multiplayer server: FastAPI on uvicorn, on the results store.

This slice serves health, the OpenAPI schema, accounts (registered and
guest), server-side sessions with CSRF protection and sign-in rate limits;
see docs/server.md. :func:`fido.web.app.create_app` builds the app.
Nothing is imported here, so ``import fido.accounts.signup`` does not pull
in FastAPI.
"""
