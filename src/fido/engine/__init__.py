"""The rules engine: tiles, rulesets, the table, the game and what is derived from it.

Users import from :mod:`fido` (``from fido import Game, Tile, ruleset``); the
modules here are the engine's parts, bottom to top:

* :mod:`fido.engine.tiles` (tiles and sets), :mod:`fido.engine.moves` (moves and
  their text), :mod:`fido.engine.rules` (rulesets: the registry of the classics);
* :mod:`fido.engine.table` (the layout of the played tiles and its open ends);
* :mod:`fido.engine.game` (the state, push and pop, the chance step), with
  :mod:`fido.engine.dealing`, :mod:`fido.engine.movegen` (what is legal),
  :mod:`fido.engine.validation` (why not), :mod:`fido.engine.rollout` (playouts),
  :mod:`fido.engine.results` (the score of a hand) and :mod:`fido.engine.views`
  (what a seat sees);
* :mod:`fido.engine.knowledge` (what a seat knows of the hidden tiles),
  :mod:`fido.engine.sorting` (a hand's order), :mod:`fido.engine.match` (hands
  to a target score).

The engine's modules import each other freely (``game`` and ``movegen`` need
each other); nothing here imports the rest of fido except :mod:`fido.errors`
and the tools below it. mypyc compiles table, game, results, movegen, rollout
and dealing (setup.py).
"""
