"""Fitting the bot's evaluation weights: the coordinates, the weights given as JSON, and one
game as the benchmark plays it."""

import json
import random
from dataclasses import replace

import pytest

from spitemalice import bot, bot_bench, bot_fit
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


def test_a_subset_of_the_weights_is_fitted_by_name():
    names = bot_fit.parse_fitted("threat, prospect,threat_race,prospect_race")
    assert names == ("threat", "prospect", "threat_race", "prospect_race")
    assert bot_fit.parse_fitted("default") == bot_fit.FITTED
    assert bot_fit.parse_fitted("all") == (*bot_fit.FITTED, "threat_race", "prospect_race")
    for bad in ("threat,menace", "", "threat,threat", "equal"):
        with pytest.raises(ValueError, match="--fit names distinct weights"):
            bot_fit.parse_fitted(bad)
    # The other weights stay those of the weights started from (here EXPERT_WEIGHTS).
    x = bot_fit.coordinates(EXPERT_WEIGHTS, names, EXPERT_WEIGHTS)
    assert x == [bot_fit.coordinates(EXPERT_WEIGHTS)[0], bot_fit.coordinates(EXPERT_WEIGHTS)[1],
                 0.0, 0.0]
    assert bot_fit.weights_at(x, names, EXPERT_WEIGHTS) == EXPERT_WEIGHTS
    raced = bot_fit.weights_at([0.0, 0.0, 0.25, -0.1], names, EXPERT_WEIGHTS)
    assert raced.threat == DEFAULT_WEIGHTS.threat and raced.king_in_hand == 7.315
    assert (raced.threat_race, raced.prospect_race) == (0.5, -0.2)
    assert bot_fit.coordinates(raced, names, EXPERT_WEIGHTS) == [0.0, 0.0, 0.25, -0.1]
    with pytest.raises(ValueError, match="does not move differ: refill"):
        bot_fit.coordinates(replace(raced, refill=1.0), names, EXPERT_WEIGHTS)


def test_the_race_factors_have_an_explicit_scale_and_bounds_and_the_rest_keep_theirs():
    # The 14 weights fitted before: a unit is the hand-set size, kept within 0 … 3 times it.
    for name in bot_fit.FITTED:
        assert bot_fit.SCALE[name] == max(1.0, abs(getattr(DEFAULT_WEIGHTS, name)))
        assert bot_fit.BOUNDS[name] == (-1.0, 2.0)
    # The race factors: hand-set 0, a unit of RACE_SCALE, kept within -0.9 … 2.
    names = ("threat", "threat_race", "prospect_race")
    assert [bot_fit.SCALE[name] for name in names[1:]] == [bot_fit.RACE_SCALE] * 2
    low = bot_fit.weights_at(bot_fit._clip([-9.0, -9.0, -9.0], names), names)
    high = bot_fit.weights_at(bot_fit._clip([9.0, 9.0, 9.0], names), names)
    assert (low.threat, low.threat_race, low.prospect_race) == (0.0, -0.9, -0.9)
    assert (high.threat, high.threat_race, high.prospect_race) == (180.0, 2.0, 2.0)


def test_a_fit_of_a_subset_moves_only_those_weights(tmp_path, capsys):
    # normal (easy watches the opponent with its own small weight and no race).
    assert bot_fit.main(["fit", "--iterations", "1", "--deals", "1", "--level", "normal",
                         "--start", "expert", "--fit", "threat,threat_race"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["fitted"] == ["threat", "threat_race"] and len(record["x"]) == 2
    weights = bot_fit.parse_weights(json.dumps(record))
    assert weights.threat != EXPERT_WEIGHTS.threat and weights.threat_race != 0.0
    assert replace(weights, threat=EXPERT_WEIGHTS.threat, threat_race=0.0) == EXPERT_WEIGHTS


def test_a_wrong_fit_option_is_refused_with_the_weights_it_may_name(capsys):
    with pytest.raises(SystemExit) as exit_:
        bot_fit.main(["fit", "--fit", "threat,menace", "--iterations", "1"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "--fit names distinct weights among" in error and "(not menace)" in error


@pytest.mark.parametrize(("argv", "said"), [
    (["measure", "--weights", '{"threat": 5'], "Expecting"),
    (["measure", "--weights", '{"menace": 1}'], "unknown weights: menace"),
    (["measure", "--weights", '{"threat": null}'], "float()"),
    (["measure", "--weights", "no-such-weights.json"], "No such file"),
    (["fit", "--start", "[1, 2]", "--iterations", "1"], "a JSON object of names and numbers"),
    (["fit", "--start", '{"threat": "high"}', "--iterations", "1"], "could not convert"),
])
def test_weights_that_cannot_be_read_are_refused_with_a_usage_error(capsys, argv, said):
    with pytest.raises(SystemExit) as exit_:
        bot_fit.main(argv)
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("usage:") and said in error, error


def test_a_fit_plays_against_the_opponent_named(tmp_path, capsys):
    # One iteration of one deal against lookahead: the two perturbations' results are those
    # of the same games played against lookahead, not against hard.
    log = tmp_path / "fit.jsonl"
    assert bot_fit.main(["fit", "--iterations", "1", "--deals", "1", "--level", "easy",
                         "--opponent", "lookahead", "--seed", "t", "--log", str(log)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["opponent"] == "lookahead"
    step = json.loads(log.read_text())
    rng = random.Random("t")  # the fit's signs, drawn as it draws them
    signs = [rng.choice((-1.0, 1.0)) for _ in bot_fit.FITTED]
    plus = bot_fit.weights_at([bot_fit.C * si for si in signs])
    deals = range(2000, 2001)
    expected = round(bot_fit.result("easy", plus, deals, "lookahead"), 4)
    assert step["plus"] == expected
    assert expected != round(bot_fit.result("easy", plus, deals, "hard"), 4)


def test_expert_is_fitted_and_measured_with_the_sampled_deals_asked_for(monkeypatch, capsys):
    monkeypatch.setattr(bot, "EXPERT_WORLDS", bot.EXPERT_WORLDS)  # restored after the test
    assert bot_fit.main(["fit", "--iterations", "0", "--level", "expert",
                         "--expert-worlds", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["expert_worlds"] == 2 == bot.EXPERT_WORLDS
    # measure's games read the constant at each call, as bot_bench's do.
    assert bot_fit.main(["measure", "--level", "expert", "--opponent", "greedy", "--games",
                         "2", "--expert-worlds", "1"]) == 0
    assert capsys.readouterr().out.startswith("expert* vs greedy") and bot.EXPERT_WORLDS == 1


@pytest.mark.parametrize(("main", "arguments"), [
    (bot_fit.main, ["fit"]),  # the option belongs to each of bot_fit's commands
    (bot_bench.main, []),  # bot_bench has no commands
], ids=["bot_fit", "bot_bench"])
@pytest.mark.parametrize(("value", "message"), [
    ("0", "--expert-worlds is at least 1"),
    ("many", "--expert-worlds is a whole number, not 'many'"),
])
def test_both_tools_refuse_a_count_of_sampled_deals_they_cannot_use(main, arguments, value,
                                                                    message, monkeypatch,
                                                                    capsys):
    monkeypatch.setattr(bot, "EXPERT_WORLDS", bot.EXPERT_WORLDS)
    before = bot.EXPERT_WORLDS
    with pytest.raises(SystemExit) as exit_:
        main([*arguments, "--expert-worlds", value])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert before == bot.EXPERT_WORLDS
