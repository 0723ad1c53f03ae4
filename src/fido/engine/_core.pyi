"""fido.engine._core: the rollouts' playouts in C (_core.c; fido.engine.rollout uses it)."""

from collections.abc import Callable

def finish(
    game: object,
    rand: Callable[[], float],
    policy: int,
    param: float,
    partner: list[int],
    spare: float,
    /,
) -> tuple[list[int], list[int], bool, int] | None:
    """Play the hand to its end on a copy of its state (policy 0: ``playout`` with
    ``greedy=param``; 1: ``smart_playout`` with ``explore=param``); ``None`` for a game
    left to Python."""
