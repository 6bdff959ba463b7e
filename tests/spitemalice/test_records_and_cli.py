"""Records (load, dump, replay) and the command line."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from spitemalice import Game, ParseError, Record, dumps_record, loads_record, replay
from spitemalice.cli import main, render, replay_command, show_command

from .support import VECTORS, load_vector

REPO = Path(__file__).resolve().parents[2]


def _vector(kind: str) -> Path:
    return next(path for path in VECTORS if kind in load_vector(path))


def test_record_round_trips_through_json():
    game = Game(b"round trip")
    for _ in range(12):
        game.play(game.legal_actions()[-1])
    record = Record.from_game(game)
    assert loads_record(dumps_record(record)) == record
    assert json.loads(dumps_record(record))["seed"] == b"round trip".hex()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"actions": []}', 'needs a \\"seed\\"'),
        ('{"seed": "xyz", "actions": []}', "hex digits"),
        ('{"seed": 12, "actions": []}', "hex digits"),
        ('{"seed": "00", "actions": {}}', "actions"),
    ],
)
def test_malformed_records_are_rejected_clearly(text, message):
    with pytest.raises(ParseError, match=message):
        loads_record(text)


def test_a_malformed_action_is_rejected_at_its_index_like_an_illegal_one():
    game = Game(b"x")
    first = game.legal_actions()[0]
    record = loads_record(json.dumps({"seed": "78", "actions": [list(first), ["p", "C0"]]}))
    outcome = replay(record)
    assert outcome.error_index == 1 and len(outcome.results) == 1
    assert outcome.to_json() == {"error": outcome.error, "action_index": 1}
    assert '["p", "C0"]' in outcome.error
    assert json.loads(dumps_record(record))["actions"][1] == ["p", "C0"]


def test_replay_command_prints_one_line_per_file_and_exits_2_on_an_illegal_action():
    legal, illegal = _vector("final"), _vector("error_at")
    out, err = io.StringIO(), io.StringIO()
    assert replay_command([str(legal), str(illegal)], out, err) == 2
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"results": load_vector(legal)["expect"], **load_vector(legal)["final"]}
    assert second["action_index"] == load_vector(illegal)["error_at"]
    assert f"action {second['action_index']}" in second["error"]
    assert err.getvalue() == ""


def test_replay_command_exits_0_when_every_record_is_legal():
    out, err = io.StringIO(), io.StringIO()
    assert replay_command([str(_vector("final"))], out, err) == 0


def test_replay_command_names_an_unreadable_file_and_exits_1(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    out, err = io.StringIO(), io.StringIO()
    assert replay_command([str(broken), str(tmp_path / "missing.json")], out, err) == 1
    assert "broken.json" in err.getvalue() and "missing.json" in err.getvalue()
    assert out.getvalue() == ""


def test_module_entry_point_runs_replay():
    completed = subprocess.run(
        [sys.executable, "-m", "spitemalice", "replay", str(_vector("final"))],
        capture_output=True, text=True, cwd=REPO, check=False,
    )
    assert completed.returncode == 0
    assert json.loads(completed.stdout)["status"] in ("won", "tied")


def test_show_draws_the_table_at_an_action():
    path = _vector("final")
    vector = load_vector(path)
    out, err = io.StringIO(), io.StringIO()
    assert show_command(str(path), 10, out, err) == 0
    text = out.getvalue()
    state = vector["expect"][9]["state"]
    mover = state["turn"]
    assert f"player {mover} to move; 10 actions played" in text
    assert " ".join(state["hands"][mover]) in text
    for top, size in zip(state["payoff_top"], state["payoff"], strict=True):
        assert f"pay-off {top} ({size} left)" in text


def test_show_marks_what_a_king_counts_as():
    vector = next(load_vector(path) for path in VECTORS if any(
        entry["card"][0] == "K" and entry["as"] for entry in load_vector(path).get("expect", [])))
    index = next(i for i, entry in enumerate(vector["expect"])
                 if entry["card"][0] == "K" and entry["as"] and not entry["completed"])
    entry = vector["expect"][index]
    game = replay(Record.from_json(vector), upto=index + 1).game
    ranks = "A23456789TJQ"
    assert f"{entry['card']}={ranks[entry['as'] - 1]}" in render(game)


def test_show_stops_at_an_illegal_action_and_exits_2():
    path = _vector("error_at")
    out, err = io.StringIO(), io.StringIO()
    assert show_command(str(path), None, out, err) == 2
    assert f"Stopped: action {load_vector(path)['error_at']}" in out.getvalue()


def test_show_rejects_an_action_number_out_of_range(tmp_path):
    path = _vector("final")
    out, err = io.StringIO(), io.StringIO()
    assert show_command(str(path), 10_000, out, err) == 1
    assert "--action" in err.getvalue()
    assert show_command(str(tmp_path / "missing.json"), None, out, err) == 1
    assert "missing.json" in err.getvalue()


def test_main_dispatches_show(capsys):
    assert main(["show", str(_vector("final")), "--action", "0"]) == 0
    assert "Turn 1" in capsys.readouterr().out


def test_show_reveals_both_hands_once_the_game_is_over():
    path = _vector("final")
    final_state = load_vector(path)["expect"][-1]["state"]
    out, err = io.StringIO(), io.StringIO()
    assert show_command(str(path), None, out, err) == 0
    for player in (0, 1):
        assert f"player {player}'s hand: {' '.join(final_state['hands'][player]) or '-'}" in (
            out.getvalue())
