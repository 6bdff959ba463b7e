"""Fitting the bot's evaluation weights: the coordinates, the weights given as JSON, and one
game as the benchmark plays it."""

import json

import pytest

from spitemalice import bot_fit
from spitemalice.bot import DEFAULT_WEIGHTS, EXPERT_WEIGHTS, Weights
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


def test_coordinates_give_back_the_weights_and_refuse_weights_the_fit_cannot_move():
    assert bot_fit.coordinates(DEFAULT_WEIGHTS) == [0.0] * len(bot_fit.FITTED)
    assert bot_fit.weights_at(bot_fit.coordinates(EXPERT_WEIGHTS)) == EXPERT_WEIGHTS
    assert bot_fit.coordinates(Weights(threat=90.0))[0] == 0.5
    with pytest.raises(ValueError, match="does not move differ: equal"):
        bot_fit.coordinates(Weights(equal=2.0))


def test_a_fit_starts_from_the_weights_given_and_continues_the_gains(tmp_path, capsys):
    assert bot_fit.parse_start("expert") == EXPERT_WEIGHTS
    assert bot_fit.parse_start("hand-set") == DEFAULT_WEIGHTS
    assert bot_fit.parse_start('{"refill": 3}') == Weights(refill=3.0)
    # No iteration: the result is where it started.
    assert bot_fit.main(["fit", "--iterations", "0", "--start", "expert"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["start"] == [round(xi, 4) for xi in bot_fit.coordinates(EXPERT_WEIGHTS)]
    assert bot_fit.parse_weights(json.dumps(record)) == EXPERT_WEIGHTS
    # One iteration from there, with the gains of iteration 0 and of iteration 1000: the same
    # deals and signs, every weight moved by the same multiple of its sign in each, and the
    # later gains (a_k 14 times smaller) step less far.
    steps = []
    for gains_from in (0, 1000):
        log = tmp_path / f"fit{gains_from}.jsonl"
        run = bot_fit.fit(1, 1, 2000, "t", "easy", log, EXPERT_WEIGHTS, gains_from)
        assert run["gains_from"] == gains_from and run["start"] == record["start"]
        x = json.loads(log.read_text())["x"]
        steps.append([xi - si for xi, si in zip(x, record["start"], strict=True)])
    assert any(steps[0])
    assert sum(map(abs, steps[1])) < sum(map(abs, steps[0]))
