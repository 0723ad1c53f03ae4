"""The table protocol's version 2 (docs/protocol.md): updates carry what changed.

The client's patch rebuilds from each delta exactly the view version 1 sends whole (the
same engine view, so the same hidden information); an outside bot that imports only the
documented client (fido.delta, which imports nothing of fido) plays a whole game; the
frames are a fraction of version 1's.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from fido.delta import diff, patch
from fido.engine.game import Game
from fido.engine.rules import Ruleset
from fido.record import GameRecord
from fido.server.tables.kinds import PAYLOADS, Kind
from fido.server.wire import public_json, seat_json, sum_note, view_json
from support.server_client import LEGACY, Person, first_legal, tiles_in
from support.server_live import browser, cookie_header, live_server

# ---------------------------------------------------------------- the delta itself

keys = st.text(string.ascii_lowercase, min_size=1, max_size=4)
leaves = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)
objects = st.dictionaries(keys, values, max_size=6)


@given(old=objects, new=objects)
def test_a_patch_of_the_diff_is_the_new_object_and_leaves_the_old_one(
        old: dict[str, Any], new: dict[str, Any]) -> None:
    before = json.dumps(old, sort_keys=True)
    assert patch(old, diff(old, new)) == new
    assert json.dumps(old, sort_keys=True) == before
    assert diff(new, new) == {}


@given(old=st.lists(st.integers(0, 40), unique=True, max_size=30),
       new=st.lists(st.integers(0, 40), unique=True, max_size=30),
       as_objects=st.booleans())
def test_lists_of_distinct_items_patch_back_exactly(
        old: list[int], new: list[int], as_objects: bool) -> None:
    """The open slots and their markers: no item twice, so the delta is made in one pass
    (not difflib); a closed slot and a new one cost a splice each, not the list."""
    def wrap(xs: list[int]) -> list[Any]:
        return [{"slot": x, "v": x % 7} for x in xs] if as_objects else list(xs)

    before, after = {"open": wrap(old)}, {"open": wrap(new)}
    assert patch(before, diff(before, after)) == after
    if len(old) >= 6 and not as_objects:  # the first closed, one added at the end
        moved = {"open": [*old[1:], 99]}
        assert diff({"open": old}, moved) == {"open<>": [[0, 1, []], [len(old), 0, [99]]]}


@given(old=st.lists(st.integers(0, 9), min_size=4, max_size=12), extra=st.integers(0, 9))
def test_a_list_that_grows_sends_what_was_added(old: list[int], extra: int) -> None:
    delta = diff({"table": old}, {"table": [*old, extra]})
    assert delta == {"table<>": [[len(old), 0, [extra]]]}


# ---------------------------------------------------------------- the view's two parts


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([6, 9, 12, 18]),
       players=st.integers(3, 6))
def test_every_seats_view_shares_the_spectators_public_part(
        seed: int, size: int, players: int) -> None:
    """A broadcast builds the shared part once, from the spectator's view: at every move
    of a game it is what each seat's own view holds, and the seat's part is the rest."""
    rng = random.Random(seed)
    game = Game.new(Ruleset.from_text(f"fido set={size}"), players, rng=rng)
    while True:
        public = public_json(game.spectator_view())
        assert {"hand", "legal", "hand_rows", "seat"}.isdisjoint(public)
        # the server builds its updates from views without the history: the same parts
        assert public_json(game.spectator_view(history=False)) == public
        for seat in range(players):
            view = game.view(seat)
            assert public_json(view) == public
            whole = view_json(view, position=False)
            assert whole == public | seat_json(view)
            assert seat_json(game.view(seat, history=False)) == seat_json(view)
            assert set(seat_json(view)).isdisjoint(public_json(view, layout={}))
        if game.outcome is not None:
            break
        game.push(rng.choice(game.legal_moves()))


# ---------------------------------------------------------------- on a real table


def _open(base: str, table_id: str, cookie: str | None, version: int | str = 2,
          seq: int | None = None) -> ClientConnection:
    url = base.replace("http://", "ws://", 1) + f"/ws/tables/{table_id}?v={version}"
    if seq is not None:
        url += f"&seq={seq}"
    ws: ClientConnection = connect(
        url, additional_headers={"Cookie": cookie} if cookie else None, open_timeout=10,
        max_size=2**22, **LEGACY)
    return ws


def test_the_deltas_rebuild_version_1s_views_exactly(store_url: str) -> None:
    """A person and a spectator each hold a version 1 and a version 2 socket: at every
    sequence number, the view patched from version 2's deltas is version 1's view (less
    the position line, which version 2 sends in a welcome), and version 2's frames name
    no tile version 1's do not."""
    with live_server(store_url) as base:
        anna = Person.guest(base)
        tid = anna.open_table("fido set=9", 4, seats=[
            {"kind": "me"}, {"kind": "bot", "level": "expert"},
            {"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}])["id"]
        one = anna.connect(tid)
        two = _open(base, tid, anna.cookie())
        watch_two = _open(base, tid, None)
        welcome = json.loads(two.recv(timeout=10))
        assert welcome["protocol"] == 2 and "position" not in welcome["view"]
        states: dict[str, Any] = {}
        for name, sock in (("anna", two), ("watcher", watch_two)):
            first = welcome if sock is two else json.loads(sock.recv(timeout=10))
            states[name] = {"view": first["view"], "seq": first["seq"], "frames": []}
        sizes = {1: 0, 2: 0}
        while one.end_seq is None:
            one.drain(0.05)
            if one.my_turn():
                assert one.view is not None
                one.move(first_legal(one.view))
        one.until_seq(one.end_seq)
        v1_views = {f["seq"]: f["view"] for f in one.frames
                    if f["type"] in ("welcome", "update") and f.get("view") is not None}
        # the position line of version 2's welcome is version 1's at the same event (the
        # bots may have moved between the two welcomes)
        assert welcome["position"] == v1_views[welcome["seq"]]["position"]
        sizes[1] = sum(len(json.dumps(f, separators=(",", ":"))) for f in one.frames
                       if f["type"] == "update")
        for name, sock in (("anna", two), ("watcher", watch_two)):
            state = states[name]
            while state["seq"] < one.end_seq:
                text = sock.recv(timeout=10)
                frame = json.loads(text)
                if frame["type"] != "update":
                    continue
                if name == "anna":
                    sizes[2] += len(text)
                state["seq"] = frame["seq"]
                state["view"] = (patch(state["view"], frame["delta"]) if "delta" in frame
                                 else frame["view"])
                state["frames"].append(frame)
                if name == "anna" and frame["seq"] in v1_views:
                    whole = dict(v1_views[frame["seq"]])
                    whole.pop("position")
                    assert state["view"] == whole, frame["seq"]
                    # nothing named that version 1's frame does not name
                    assert tiles_in(frame, 9) <= tiles_in(v1_views[frame["seq"]], 9) | \
                        tiles_in(frame["events"], 9)
                if name == "watcher" and state["view"] is not None:
                    # a spectator's frame names only tiles on the table: no hand, no draw
                    assert tiles_in(frame, 9) <= tiles_in(state["view"]["table"], 9), \
                        frame["seq"]
            assert state["view"]["outcome"] is not None
        # the watcher's view is the spectator's: no hand, every count
        assert states["watcher"]["view"]["hand"] == [] and \
            states["watcher"]["view"]["seat"] is None
        assert sizes[2] * 3 < sizes[1], sizes  # a fraction of the whole views
        two.close()
        watch_two.close()


def test_an_outside_bot_plays_a_whole_game_from_the_documented_protocol(
        store_url: str) -> None:
    """A bot as docs/protocol.md describes it: HTTP to sit down, the socket (v=2), its
    view kept with fido.delta.patch, the first legal move when it is its turn."""
    with live_server(store_url) as base:
        http = browser(base)
        assert http.post("/api/guest").status_code == 200
        table = http.post("/api/tables", json={
            "ruleset": "fido set=6", "players": 3,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": "greedy"},
                      {"kind": "bot", "level": "expert"}]}).json()
        cookie = cookie_header(http)
        ws = _open(base, table["id"], cookie)
        welcome = json.loads(ws.recv(timeout=10))
        view, seq, moves = welcome["view"], welcome["seq"], 0
        while view["outcome"] is None:
            if view["turn"] == view["seat"] and view["legal"]:
                ws.send(json.dumps({"type": "move", "id": f"b{moves}", "seq": seq,
                                    "move": view["legal"][0]["move"]}))
                moves += 1
            while True:  # until the next update (an ack comes before it)
                frame = json.loads(ws.recv(timeout=20))
                if frame["type"] == "refused":
                    raise AssertionError(frame)
                if frame["type"] == "update":
                    break
            seq = frame["seq"]
            view = patch(view, frame["delta"]) if "delta" in frame else frame["view"]
        ws.close()
        record = GameRecord.from_json(http.get(f"/api/tables/{table['id']}/record").text)
        outcome = record.replay().outcome
        assert outcome is not None and view["outcome"] == outcome.to_dict()
        assert moves == sum(1 for _n, turn, _g in record.steps() if turn.seat == 0)


def test_an_unknown_protocol_version_is_refused(store_url: str) -> None:
    with live_server(store_url) as base:
        anna = Person.guest(base)
        tid = anna.open_table("fido set=6", 3)["id"]
        for version in (3, "abc", "2.5", "99999999999999999999"):
            ws = _open(base, tid, None, version=version)
            try:
                ws.recv(timeout=10)
                raise AssertionError(f"v={version}: the socket stayed open")
            except Exception as e:  # the close, as websockets raises it
                rcvd = getattr(e, "rcvd", None)
                assert rcvd is not None and rcvd.code == 4400, version
        assert httpx.get(f"{base}/api/health").status_code == 200


@given(total=st.integers(0, 200),
       ruleset=st.sampled_from(["fido set=6", "fido set=9", "fido set=12", "fido set=18",
                                "fives_and_threes", "muggins", "block"]))
def test_the_sum_note_says_why_the_sum_scores(total: int, ruleset: str) -> None:
    """The note beside the sum (the pages no longer work it out): present exactly when
    the sum scores, each of its products the sum, their quotients the points."""
    rules = Ruleset.from_text(ruleset)
    note = sum_note(rules, total)
    assert (note is None) == (rules.points(total) == 0)
    if note is not None:
        left, *right = note.split(" = ")  # fives and threes: "15 = 3 TIMES 5 = 5 TIMES 3"
        assert int(left) == total  # and no word: every seat, whatever her language, gets it
        assert all(c in "0123456789 =\u00d7" for c in note)
        products = [p.split(" \u00d7 ") for p in right]
        assert all(int(q) * int(d) == total for q, d in products)
        assert sum(int(q) for q, _d in products) == rules.points(total)


def test_the_event_kinds_are_one_list_for_the_log_the_pages_and_the_protocol() -> None:
    """One name per kind: the log's enum, the page scripts' module (no script compares a
    kind with a bare string) and docs/protocol.md's table of events."""
    root = Path(__file__).resolve().parents[2]
    js = root / "src/fido/web/static/js"
    module = (js / "event_kinds.js").read_text()
    named = dict(re.findall(r'^\s+([A-Z]+): "([a-z]+)",$', module, re.MULTILINE))
    assert named == {k.name: k.value for k in Kind}
    assert set(PAYLOADS) == set(Kind)
    for script in js.glob("*.js"):
        bare = re.findall(r'e\.kind [!=]==? "[a-z]+"', script.read_text())
        assert not bare, (script.name, bare)
    doc = (root / "docs/protocol.md").read_text()
    events = doc.split("### Events", 1)[1].split("###", 1)[0]
    documented = set(re.findall(r"^\| `([a-z]+)`(?:, `([a-z]+)`)? \|", events, re.MULTILINE))
    assert {k for pair in documented for k in pair if k} - {"kind"} == {k.value for k in Kind}
