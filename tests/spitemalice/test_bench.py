"""The benchmark runs (it prints timings; the tests never time anything)."""

from spitemalice.bench import random_playouts, undo_cost


def test_random_playouts_finish_whole_games():
    actions, games, wins, completions, wall, cpu = random_playouts(0.01, centre_bias=0.9)
    assert games >= 10 and actions > games and wall > 0 and cpu >= 0
    assert 0 <= wins <= games and completions >= 0


def test_undo_cost_is_measured():
    assert undo_cost(pairs=2_000) > 0
