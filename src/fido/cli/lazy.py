"""Sub-commands imported on first use, so a fast command never pays for a slow one.

Click's documented pattern ("Lazily Loading Subcommands") for a Typer app:
:class:`LazyGroup` lists the sub-apps of its registry with the rest and
imports one only when it is run (or its own ``--help`` is asked for). The
top-level ``--help`` lists them from the registry's help texts without
importing anything. ``fido players`` needs SQLAlchemy, Alembic and numpy;
``fido rules`` must not wait for them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup

__all__ = ["LazyApp", "LazyGroup", "lazy_group"]


@dataclass(frozen=True)
class LazyApp:
    """A sub-app to import on first use: ``module.attr``, a :class:`typer.Typer`."""

    module: str
    attr: str
    help: str  # its help text, listed by the parent's --help without importing it

    def load(self) -> typer.Typer:
        app = getattr(importlib.import_module(self.module), self.attr)
        assert isinstance(app, typer.Typer), f"{self.module}.{self.attr} is not a Typer app"
        return app


class LazyGroup(TyperGroup):
    """A Typer group whose sub-apps in :attr:`lazy` are imported when first run."""

    lazy: ClassVar[dict[str, LazyApp]] = {}
    _listing: bool = False

    def list_commands(self, ctx: Any) -> list[str]:
        eager = super().list_commands(ctx)
        return [*eager, *(name for name in self.lazy if name not in eager)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None or cmd_name not in self.lazy:
            return cmd
        if self._listing:  # a row of the top-level help: name and help text only
            return TyperCommand(cmd_name, help=self.lazy[cmd_name].help)
        cmd = typer.main.get_command(self.lazy[cmd_name].load())
        cmd.name = cmd_name
        self.add_command(cmd, cmd_name)
        return cmd

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        # Typer's "Did you mean" looks at the loaded commands only
        name = args[0] if args else ""
        known = self.list_commands(ctx)
        if name and not name.startswith("-") and name not in known:
            close = get_close_matches(name, known)
            hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint}")
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def lazy_group(apps: dict[str, LazyApp]) -> type[LazyGroup]:
    """A :class:`LazyGroup` class with these sub-apps, for ``typer.Typer(cls=...)``."""
    return type("LazyCommands", (LazyGroup,), {"lazy": dict(apps)})
