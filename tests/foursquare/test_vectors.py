"""Every shared test vector reproduces exactly: each move's result, the end, illegal moves."""

import pytest

from foursquare import Game, Record, replay

from .helpers import VECTORS, load_vector


def test_the_vectors_are_all_here():
    assert len(VECTORS) == 120


@pytest.mark.parametrize("path", VECTORS, ids=lambda path: path.stem)
def test_vector_reproduces(path):
    vector = load_vector(path)
    outcome = replay(Record.from_json(vector))
    if "error_at" in vector:
        assert outcome.error_index == vector["error_at"]
        assert f"move {vector['error_at']}" in outcome.error
        assert len(outcome.results) == vector["error_at"]
    else:
        assert outcome.error is None
        assert [result.to_json() for result in outcome.results] == vector["expect"]
        assert outcome.game.status == vector["final"]["status"]
        assert outcome.game.score == vector["final"]["score"]


@pytest.mark.parametrize("path", VECTORS[:30], ids=lambda path: path.stem)
def test_undo_walks_a_vector_back_to_the_start(path):
    vector = load_vector(path)
    game = Game(vector["deck"])
    played = []
    for move in vector["moves"]:
        try:
            played.append(game.play(tuple(move)))
        except ValueError:
            break
    snapshots = []
    replayed = Game(vector["deck"])
    for result in played:
        snapshots.append((replayed.grid(), replayed.legal_moves(), replayed.face_down))
        replayed.play(result.at)
    for result in reversed(played):
        assert game.undo() == result
        assert (game.grid(), game.legal_moves(), game.face_down) == snapshots.pop()
    assert game.moves_played == 0 and game.legal_moves() == [(0, 0)]
