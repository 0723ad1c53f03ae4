"""The table's timer rule (fido.server.tables.timers): who moves when nobody does."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fido.server.settings import PlaySettings
from fido.server.tables import timers
from fido.server.tables.timers import Timer, next_timer, stand_in_at, turn_based
from fido.server.tables.types import SeatInfo

SETTINGS = PlaySettings(bot_delay=1.0, stand_in="expert")
PERSON = SeatInfo("person", 7, "Anna")


def test_a_bot_moves_after_its_delay_at_its_level() -> None:
    assert next_timer(2, SeatInfo("bot", bot="greedy"), SETTINGS, now=100.0, deadline=None,
                      away_since=None, grace=60) == Timer(101.0, 2, "greedy", "bot")


def test_a_person_here_without_a_clock_has_no_timer() -> None:
    assert next_timer(0, PERSON, SETTINGS, now=100.0, deadline=None, away_since=None,
                      grace=60) is None


def test_her_clock_then_the_stand_in() -> None:
    assert next_timer(0, PERSON, SETTINGS, now=100.0, deadline=130.0, away_since=None,
                      grace=60) == Timer(130.0, 0, "expert", "clock")


def test_away_past_her_grace_the_stand_in_plays_for_her() -> None:
    # away since 50 with 60 s of grace: at 110, before her clock at 200
    assert next_timer(0, PERSON, SETTINGS, now=100.0, deadline=200.0, away_since=50.0,
                      grace=60) == Timer(110.0, 0, "expert", "away")
    # long gone: not before the bot's delay from now (people can follow)
    assert next_timer(0, PERSON, SETTINGS, now=100.0, deadline=None, away_since=0.0,
                      grace=60) == Timer(101.0, 0, "expert", "away")


@given(now=st.floats(0, 1e9), deadline=st.none() | st.floats(0, 2e9),
       away=st.none() | st.floats(0, 1e9), grace=st.integers(0, 3600))
def test_the_timer_is_the_earliest_reason_and_never_before_now_for_the_away(
        now: float, deadline: float | None, away: float | None, grace: int) -> None:
    timer = next_timer(0, PERSON, SETTINGS, now=now, deadline=deadline, away_since=away,
                       grace=grace)
    reasons = [t for t in (deadline, None if away is None else away + grace) if t is not None]
    if not reasons:
        assert timer is None
        return
    assert timer is not None and timer.spec == "expert"
    if timer.by == "away":
        assert away is not None and timer.at == max(away + grace, now + 1.0)
        assert deadline is None or away + grace < deadline
    else:
        assert timer.by == "clock" and timer.at == deadline
        assert away is None or away + grace >= deadline


def test_at_a_turn_based_table_away_is_no_reason_only_her_clock() -> None:
    # away for a day, her clock ends in two: the stand-in waits for the clock
    assert next_timer(0, PERSON, SETTINGS, now=100_000.0, deadline=200_000.0,
                      away_since=10.0, grace=60, turn_based=True) == Timer(
        200_000.0, 0, "expert", "clock")
    assert stand_in_at(PERSON, deadline=200_000.0, away_since=10.0, grace=60,
                       turn_based=True) == 200_000.0
    assert stand_in_at(PERSON, deadline=200_000.0, away_since=10.0, grace=60) == 70.0
    assert turn_based(3600) and turn_based(259200)
    assert not turn_based(300) and not turn_based(None)


def test_a_replaced_seat_and_a_forced_move_are_played_at_once() -> None:
    assert next_timer(1, PERSON, SETTINGS, now=5.0, deadline=90_000.0, away_since=None,
                      grace=60, turn_based=True, replaced=True) == Timer(
        6.0, 1, "expert", "replaced")
    assert next_timer(1, PERSON, SETTINGS, now=5.0, deadline=90_000.0, away_since=None,
                      grace=60, turn_based=True, forced=True) == Timer(
        6.0, 1, "expert", "forced")
    # a bot's seat is a bot's, whatever the table says
    assert next_timer(1, SeatInfo("bot", bot="greedy"), SETTINGS, now=5.0, deadline=None,
                      away_since=None, grace=60, forced=True) == Timer(6.0, 1, "greedy", "bot")


def test_a_timer_follows_the_wall_clock_not_the_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline days away is Unix seconds: when the wall clock moves on faster than the
    monotonic clock sleeps (set by NTP, a machine suspended), the timer fires within
    LOOK_EVERY of it, not days later."""
    wall = [1_000.0]
    monkeypatch.setattr(timers, "LOOK_EVERY", 0.05)
    monkeypatch.setattr(time, "time", lambda: wall[0])  # the module's clock: time.time
    played: list[Timer] = []

    class Bots:
        async def decide(self, spec: str, view: object, owner: str) -> str:
            return "pass"

    async def play(timer: Timer, move: Any) -> None:
        played.append(timer)

    async def scenario() -> None:
        clock = timers.Clock("t", Bots())  # type: ignore[arg-type]
        view: Any = object()
        clock.arm(Timer(1_000.0 + 86_400, 0, "expert", "clock"), lambda: view, play)
        await asyncio.sleep(0.2)
        assert not played  # a day to go
        wall[0] += 86_400  # the wall clock jumps a day; the monotonic one did not
        await asyncio.sleep(0.2)
        assert [t.by for t in played] == ["clock"]

    asyncio.run(scenario())
