"""Sessions and accounts over HTTP: who this browser is, sign-up, sign-in and out, guests,
the link to a ranking player and the federation's answers to those requests.

Handlers are plain ``def`` (the store is synchronous SQLAlchemy and argon2 is CPU-bound):
Starlette runs them in its thread pool. Every refusal is the JSON body
``{"error": {"code", "message"}}`` with a 4xx status (:mod:`fido.server.deps`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from sqlalchemy.orm import Session

import fido
from fido import i18n
from fido.accounts import claims, roles
from fido.server import account_service
from fido.server import sessions_service as sessions
from fido.server.account_views import account_out, claim_out
from fido.server.deps import (
    CsrfChecked,
    errors,
    grants_freely,
    me,
    server,
)
from fido.server.errors import ApiError
from fido.server.schemas import (
    AccountDeletion,
    AccountOut,
    AddressOut,
    ClaimDecision,
    ClaimFor,
    EmailIn,
    Health,
    LanguageChoice,
    LinkToken,
    NoticesIn,
    PlayerLink,
    ResetAsk,
    ResetAsked,
    ResetIn,
    SessionInfo,
    SignIn,
    SignUp,
    VacationIn,
    VacationOut,
)
from fido.store import INT_MAX, Account, PlayerClaim

__all__ = ["router"]

_, ngettext = i18n.gettext, i18n.ngettext


router = APIRouter(prefix="/api")


@router.get("/health", response_model=Health, tags=["server"])
def health() -> Health:
    """The server is up; its fido version."""
    return Health(status="ok", version=fido.__version__)

@router.get("/session", response_model=SessionInfo, tags=["sessions"])
def who_am_i(request: Request) -> SessionInfo:
    """Who this browser is (anonymous, a guest or an account) and its CSRF token."""
    srv = server(request)
    with srv.store.session(write=False) as s:
        account = me(request, s)
        return sessions.session_info(request, s, account)

@router.post(
    "/accounts", response_model=SessionInfo, status_code=201, tags=["accounts"],
    dependencies=CsrfChecked, responses=errors(403, 409),
)
async def sign_up(body: SignUp, request: Request, response: Response) -> SessionInfo:
    """Sign up and sign in. A guest signing up becomes the account (same id, her games);
    the guest's session ends, and with it her open table sockets (4401)."""
    return await sessions.sign_up(request, response, body)


@router.post(
    "/session", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
    responses=errors(401, 403, 429),
)
async def sign_in(body: SignIn, request: Request, response: Response) -> SessionInfo:
    """Sign in with name and password; failures are rate-limited (429, Retry-After).
    The browser's session before (a guest's, another account's) ends, and its open
    table sockets are closed (4401)."""
    return await sessions.sign_in(request, response, body)


@router.delete(
    "/session", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
    responses=errors(403),
)
async def sign_out(request: Request, response: Response) -> SessionInfo:
    """Sign out: the session is deleted server-side, so its cookie opens nothing again,
    and its open table sockets are closed (4401)."""
    return await sessions.sign_out(request, response)


@router.post(
    "/guest", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
    responses=errors(403),
)
def start_guest(request: Request, response: Response) -> SessionInfo:
    """Play as a guest, without an account; a browser already signed in stays as it is."""
    return sessions.start_guest(request, response)


@router.post(
    "/password-reset", response_model=ResetAsked, status_code=202, tags=["sessions"],
    dependencies=CsrfChecked, responses=errors(403, 409, 429),
)
def ask_reset(body: ResetAsk, request: Request) -> ResetAsked:
    """Mail the account of this name a link (an hour, once) to choose a new password,
    if she gave an address; the same answer for any name. 409 ``no_mail`` on a server that
    sends no mail (the administrator gives the link: ``fido accounts reset``)."""
    return sessions.ask_reset(request, body)


@router.post(
    "/password-reset/new", status_code=204, tags=["sessions"], dependencies=CsrfChecked,
    responses=errors(403, 409),
)
async def reset_password(body: ResetIn, request: Request) -> None:
    """The reset link's token and a new password: set; every session of the account
    ends (409 ``reset_expired``, ``reset_invalid`` or ``reset_used`` for a link that no
    longer works)."""
    await sessions.reset_password(request, body)


@router.get("/account/email", response_model=AddressOut, tags=["accounts"],
            responses=errors(401, 403))
def my_address(request: Request) -> AddressOut:
    """Your email address, whether it is confirmed and whether your inbox's news go to it."""
    return account_service.address(request)


@router.put("/account/email", response_model=AddressOut, tags=["accounts"],
            dependencies=CsrfChecked, responses=errors(401, 403, 422, 429))
def change_email(body: EmailIn, request: Request) -> AddressOut:
    """A new address (null: none): unconfirmed, and a link that confirms it goes to it."""
    return account_service.change_email(request, body.email)


@router.post("/account/email/link", response_model=AddressOut, tags=["accounts"],
             dependencies=CsrfChecked, responses=errors(401, 403, 409, 429))
def resend_confirmation(request: Request) -> AddressOut:
    """The confirmation link again."""
    return account_service.resend_confirmation(request)


@router.post("/account/email/confirmation", status_code=204, tags=["accounts"],
             dependencies=CsrfChecked, responses=errors(409))
def confirm_address(body: LinkToken, request: Request) -> None:
    """Confirm an address with the mailed link's token (from any browser)."""
    account_service.confirm_address(request, body.token)


@router.put("/account/notices", response_model=AddressOut, tags=["accounts"],
            dependencies=CsrfChecked, responses=errors(401, 403, 409))
def set_notices(body: NoticesIn, request: Request) -> AddressOut:
    """Your inbox's news by mail, on (a confirmed address first) or off."""
    return account_service.set_notices(request, body.on)


@router.put("/account/vacation", response_model=VacationOut, tags=["accounts"],
            dependencies=CsrfChecked, responses=errors(401, 403, 409, 422))
def set_vacation(body: VacationIn, request: Request) -> VacationOut:
    """Your vacation: for ``days`` from now your clocks at turn-based tables wait (one
    that runs out starts again when it ends); 0 ends it. At most 14 days, and a new one
    7 days after the last ended (409 ``vacation``)."""
    return account_service.set_vacation(request, body.days)


@router.post("/unsubscribe", status_code=204, tags=["accounts"], responses=errors(409))
def unsubscribe(body: LinkToken, request: Request) -> None:
    """No more news mail: the token of the link in every news mail (no session, no CSRF
    token: the link is the key, and once more changes nothing)."""
    account_service.unsubscribe(request, body.token)


@router.get("/account/data", tags=["accounts"], responses=errors(401, 429))
def my_data(request: Request) -> Response:
    """Download my data: everything the server stores about your account, as a JSON
    file (docs/privacy.md lists its sections)."""
    return account_service.my_data_file(request)


@router.post("/account/deletion", status_code=204, tags=["accounts"],
             dependencies=CsrfChecked, responses=errors(401, 403, 409, 429))
async def delete_account(body: AccountDeletion, request: Request, response: Response) -> None:
    """Delete my account, with its password (a guest's has none): at once and for good
    (docs/privacy.md says what the federation keeps for its ranking). 409 ``seated``
    while she sits at a table not finished; 403 ``wrong_password``."""
    await account_service.delete_account(request, response, body.password)


@router.put(
    "/language", response_model=LanguageChoice, tags=["sessions"],
    dependencies=CsrfChecked, responses=errors(403, 422),
)
def choose_language(body: LanguageChoice, request: Request,
                    response: Response) -> LanguageChoice:
    """The interface's language for this browser (a cookie) and, signed in or a guest,
    her account (it follows her to other browsers when she signs in there)."""
    return sessions.choose_language(request, response, body)


@router.put(
    "/account/player", response_model=AccountOut, tags=["accounts"],
    dependencies=CsrfChecked, responses=errors(401, 403, 404, 409),
    status_code=202,
)
def link_player(body: PlayerLink, request: Request, response: Response) -> AccountOut:
    """Ask to be a player number of the world ranking: 202, the request waits for the
    federation (``claim``); linked at once (200) for a federation account, or on a
    server with no federation account (nobody to ask)."""
    srv = server(request)
    with srv.store.session() as s:
        account = me(request, s)
        if account is None:
            raise ApiError(401, "signed_out", _("sign in first"))
        if account.guest:
            raise ApiError(403, "guest",
                           _("a guest cannot be linked to a player: sign up first"))
        if claims.ask_or_link(s, account, body.number, grants_freely(request)):
            response.status_code = 200
        return account_out(s, account)

@router.post(
    "/account/player", response_model=AccountOut, tags=["accounts"], status_code=201,
    dependencies=CsrfChecked, responses=errors(401, 403, 409),
)
def new_player(request: Request) -> AccountOut:
    """Become a new ranking player in your account's name (the next free number), on a
    server with no federation account (403 where the federation registers players)."""
    srv = server(request)
    with srv.store.session() as s:
        account = me(request, s)
        if account is None:
            raise ApiError(401, "signed_out", _("sign in first"))
        claims.register_self(s, account, grants_freely(request))
        return account_out(s, account)

@router.get("/claims", response_model=list[ClaimFor], tags=["accounts"],
         responses=errors(401, 403))
def pending_claims(request: Request) -> list[ClaimFor]:
    """The requests to be a ranking player waiting for the federation, oldest first."""
    srv = server(request)
    with srv.store.session(write=False) as s:
        _federation_account(s, request)
        return [_claim_for(c) for c in claims.pending(s)]

@router.post("/claims/{claim_id}", response_model=ClaimFor, tags=["accounts"],
          dependencies=CsrfChecked, responses=errors(401, 403, 404, 409))
def decide_claim(claim_id: Annotated[int, Path(ge=1, le=INT_MAX)], body: ClaimDecision,
                 request: Request) -> ClaimFor:
    """The federation approves (the account is linked) or refuses a request."""
    srv = server(request)
    with srv.store.session() as s:
        me = _federation_account(s, request)
        return _claim_for(claims.decide(s, claim_id, me, body.approve))


def _federation_account(s: Session, request: Request) -> Account:
    """The signed-in account, which must hold the federation's role (401, 403)."""
    account = me(request, s)
    if account is None or account.guest:
        raise ApiError(401, "signed_out", _("sign in first"))
    if not roles.is_federation(s, account.id):
        raise ApiError(403, "federation_only", _("only the federation answers these requests"))
    return account


def _claim_for(claim: PlayerClaim) -> ClaimFor:
    out = claim_out(claim)
    assert out is not None
    return ClaimFor(account=claim.account_id, account_name=claim.account.name or "?",
                    **out.model_dump())


