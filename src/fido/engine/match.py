"""Matches: hands played until a side reaches the ruleset's target.

>>> import random
>>> m = Match("fives_and_threes", players=2, rng=random.Random(3))
>>> m.target
31
>>> while not m.is_over:
...     game = m.new_hand()
...     while not game.is_over:
...         game.push(m.rng.choice(game.legal_moves()))
...     m.add(game)
>>> max(m.totals) >= 31 and m.winner is not None
True
"""

from __future__ import annotations

import random

from fido.engine.game import Game
from fido.engine.results import Outcome
from fido.engine.rules import Ruleset
from fido.errors import ConfigurationError


class Match:
    """Adds each hand's ``match_points`` per side (a team, or a player)."""

    def __init__(
        self,
        rules: Ruleset | str,
        players: int,
        *,
        target: int | None = None,
        rng: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        self.rules = Ruleset.from_text(rules) if isinstance(rules, str) else rules
        self.rules.check_players(players)
        self.players = players
        self.target = target if target is not None else self.rules.match_target
        if self.target is None or self.target < 1:
            raise ConfigurationError(
                f"{self.rules.name} has no match target; give one, e.g. target=100"
            )
        self.rng = rng if rng is not None else random.Random(seed)
        teams = self.rules.teams(players)
        self.sides: tuple[tuple[int, ...], ...] = teams or tuple((s,) for s in range(players))
        self.totals = [0] * len(self.sides)
        self.hands: list[Outcome] = []

    def new_hand(self) -> Game:
        if self.is_over:
            raise ConfigurationError("the match is over")
        return Game.new(self.rules, self.players, rng=self.rng)

    def add(self, game: Game) -> None:
        """Count a finished hand."""
        if game.outcome is None:
            raise ConfigurationError("only a finished hand counts in the match")
        self.hands.append(game.outcome)
        for i, pts in enumerate(game.outcome.match_points):
            self.totals[i] += pts

    @property
    def is_over(self) -> bool:
        """A side reached the target alone (a tie at the top plays another hand)."""
        assert self.target is not None
        best = max(self.totals)
        return best >= self.target and self.totals.count(best) == 1

    @property
    def winner(self) -> tuple[int, ...] | None:
        """The seats of the side with the most points once the target is reached."""
        if not self.is_over:
            return None
        return self.sides[self.totals.index(max(self.totals))]
