"""``engine.rebuild`` starts from the position this process kept for a game only when it follows
exactly the stored actions; otherwise it replays them from the seed."""

from __future__ import annotations

from unittest import mock

from server.spitemalice import engine
from server.spitemalice.models import MatchGame
from spitemalice import Game

SEED = bytes(range(16))


def played(count: int) -> Game:
    """The game after ``count`` actions, each the first legal one (a fixed line of play)."""
    game = Game(SEED)
    for _ in range(count):
        game.play(game.legal_actions()[0])
    return game


def stored(game: Game) -> MatchGame:
    return MatchGame(seed=SEED.hex(), actions=[list(action) for action in game.actions])


def test_a_kept_position_is_copied_not_replayed_and_not_shared():
    game = played(12)
    engine.position_keep(game)
    with mock.patch.object(engine, "Game", wraps=Game) as dealt:
        again = engine.rebuild(stored(game))
    assert dealt.call_count == 0  # no new deal: the kept position was used
    assert again.position() == game.position() and again.actions == game.actions
    again.play(again.legal_actions()[0])  # playing the copy leaves the kept one as it was
    assert engine.rebuild(stored(game)).position() == game.position()


def test_a_position_for_other_actions_is_never_used():
    line = played(12)
    engine.position_keep(line)
    other = Game(SEED)  # the same game, but another action at the end (a write that lost a race)
    for action in line.actions[:-1]:
        other.play(action)
    choices = [action for action in other.legal_actions() if action != line.actions[-1]]
    other.play(choices[0])
    rebuilt = engine.rebuild(stored(other))
    assert rebuilt.actions == other.actions and rebuilt.position() == other.position()
    assert rebuilt.position() != line.position()


def test_only_the_latest_positions_are_kept(monkeypatch):
    monkeypatch.setattr(engine, "_positions", type(engine._positions)())
    monkeypatch.setattr(engine, "POSITIONS_KEPT", 1)
    engine.position_keep(played(3))
    engine.position_keep(Game(bytes(16)))
    with mock.patch.object(engine, "Game", wraps=Game) as dealt:
        engine.rebuild(stored(played(3)))
    assert dealt.call_count == 1 and len(engine._positions) == 1
