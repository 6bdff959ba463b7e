"""Every shared test vector reproduces exactly: each action's result and state, the end, and
the rejection of illegal or malformed actions."""

import pytest

from spitemalice import Game, Record, replay

from .support import VECTORS, load_vector, snapshot


def test_the_vectors_are_all_here():
    assert len(VECTORS) == 98


@pytest.mark.parametrize("path", VECTORS, ids=lambda path: path.stem)
def test_vector_reproduces(path):
    vector = load_vector(path)
    outcome = replay(Record.from_json(vector))
    if "error_at" in vector:
        assert outcome.error_index == vector["error_at"]
        assert f"action {vector['error_at']}" in outcome.error
        assert len(outcome.results) == vector["error_at"]
    else:
        assert outcome.error is None
        assert outcome.results == vector["expect"]
        final = {"status": outcome.game.status, "winner": outcome.game.winner,
                 "points": outcome.game.points}
        assert final == vector["final"]


@pytest.mark.parametrize("path", VECTORS[::4], ids=lambda path: path.stem)
def test_undo_walks_a_vector_back_to_the_start(path):
    vector = load_vector(path)
    seed = bytes.fromhex(vector["seed"])
    game = Game(seed)
    snapshots = []
    for action in vector["actions"]:
        before = snapshot(game)
        try:
            game.play(action)
        except ValueError:
            assert snapshot(game) == before  # a rejected action leaves the game unchanged
            break
        snapshots.append(before)
    while snapshots:
        game.undo()
        assert snapshot(game) == snapshots.pop()
    assert snapshot(game) == snapshot(Game(seed))
