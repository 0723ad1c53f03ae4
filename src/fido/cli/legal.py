"""``fido legal``: the operator's Impressum and her part of the privacy statement, the
texts only she can write (:mod:`fido.accounts.legal`; the pages /impressum and /privacy,
docs/privacy.md). A public server without them fails ``fido doctor``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from fido.accounts.legal import MAX_CHARS, PAGES, clear_text, set_text, written
from fido.cli.ranking import Db, refusing
from fido.errors import Refused
from fido.store import open_store

__all__ = ["legal_app"]

legal_app = typer.Typer(
    no_args_is_help=True, help="The Impressum and privacy statement the site shows."
)
console = Console()

Page = Annotated[str, typer.Argument(help="impressum or privacy")]
Lang = Annotated[str, typer.Option("--lang", help="the text's language: en or de")]


@legal_app.command("set")
def legal_set(
    page: Page,
    file: Annotated[Path, typer.Argument(help="the text, Markdown (no HTML), UTF-8; - reads "
                                         "standard input")],
    lang: Lang = "en",
    db: Db = None,
) -> None:
    """Write a page's text in one language (the other language falls back to it)."""
    with refusing():
        most = MAX_CHARS * 4  # bytes: UTF-8 takes at most four a character
        if str(file) == "-":
            raw = typer.get_binary_stream("stdin").read(most + 1)
        else:
            with file.open("rb") as f:
                raw = f.read(most + 1)
        if len(raw) > most:  # read no further than a page can be
            raise Refused("legal_long", f"{file} is longer than a page may be "
                          f"({MAX_CHARS} characters)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("legal_encoding", f"{file} is not UTF-8 text") from None
        with open_store(db).session() as s:
            set_text(s, page, lang, text)
        console.print(f"/{page} ({lang}) written: {len(text.strip())} characters")


@legal_app.command("clear")
def legal_clear(page: Page, lang: Lang = "en", db: Db = None) -> None:
    """Take a page's text in one language down."""
    with refusing(), open_store(db).session() as s:
        gone = clear_text(s, page, lang)
    console.print(f"/{page} ({lang}) " + ("taken down" if gone else "was not written"))


@legal_app.command("show")
def legal_show(db: Db = None) -> None:
    """Which pages are written, in which languages."""
    with refusing(), open_store(db).session(write=False) as s:
        found = written(s)
    for page in PAGES:
        langs = found.get(page)
        console.print(f"/{page}: " + (", ".join(langs) if langs else "not written"))
