"""Fitting the bot's evaluation weights: the coordinates, the weights given as JSON, and one
game as the benchmark plays it."""

import json

import pytest

from spitemalice import bot_fit
from spitemalice.bot import DEFAULT_WEIGHTS, Weights
from spitemalice.bot_bench import play_game


def test_the_origin_is_the_hand_set_weights_and_a_unit_step_is_a_weights_size():
    assert bot_fit.weights_at([0.0] * len(bot_fit.FITTED)) == DEFAULT_WEIGHTS
    moved = bot_fit.weights_at([1.0] + [0.0] * (len(bot_fit.FITTED) - 1))
    assert moved.threat == 2 * DEFAULT_WEIGHTS.threat and moved.prospect == 35.0


def test_weights_are_read_from_json_or_a_fit_record_or_a_file(tmp_path):
    assert bot_fit.parse_weights('{"threat": 50}') == Weights(threat=50.0)
    record = tmp_path / "fit.json"
    record.write_text(json.dumps({"method": "SPSA", "weights": {"refill": 3}}))
    assert bot_fit.parse_weights(str(record)) == Weights(refill=3.0)
    with pytest.raises(ValueError, match="unknown weights: menace"):
        bot_fit.parse_weights('{"menace": 1}')


def test_a_game_with_the_hand_set_weights_is_the_benchmarks_game():
    score, side, points, _, times = bot_fit.play("normal", DEFAULT_WEIGHTS, "greedy", 1, 7)
    assert (score, side, points) == play_game("normal", "greedy", 1, 7)[:3] and times
