"""Records (load, dump, replay) and the command line."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from foursquare import Game, ParseError, Record, deal, dumps_record, loads_record, replay
from foursquare.cli import play_command, render, replay_command

from .helpers import VECTORS, load_vector

REPO = Path(__file__).resolve().parents[2]
DECK_CODES = [str(card) for card in deal(b"x")]


def test_record_round_trips_through_json():
    game = Game(deal(b"round trip"))
    for _ in range(5):
        game.play(game.legal_moves()[-1])
    record = Record.from_game(game)
    assert loads_record(dumps_record(record)) == record


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"moves": []}', "needs a \\\"deck\\\""),
        ('{"deck": ["AS"], "moves": []}', "40 cards"),
        (json.dumps({"deck": DECK_CODES, "moves": [[0]]}), "move 0"),
        (json.dumps({"deck": DECK_CODES, "moves": {}}), "moves"),
    ],
)
def test_malformed_records_are_rejected_clearly(text, message):
    with pytest.raises(ParseError, match=message):
        loads_record(text)


def test_replay_stops_at_the_first_illegal_move():
    record = Record(deal(b"x"), ((0, 0), (3, 3), (0, 1)))
    outcome = replay(record)
    assert outcome.error_index == 1 and len(outcome.results) == 1
    assert outcome.to_json() == {"error": outcome.error, "move_index": 1}


def test_replay_command_prints_one_line_per_file_and_exits_2_on_an_illegal_move():
    illegal = next(path for path in VECTORS if "error_at" in load_vector(path))
    legal = next(path for path in VECTORS if "final" in load_vector(path))
    out, err = io.StringIO(), io.StringIO()
    assert replay_command([str(legal), str(illegal)], out, err) == 2
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["results"] == load_vector(legal)["expect"]
    assert first["status"] == load_vector(legal)["final"]["status"]
    assert second["move_index"] == load_vector(illegal)["error_at"]
    assert err.getvalue() == ""


def test_replay_command_names_an_unreadable_file_and_exits_1(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    out, err = io.StringIO(), io.StringIO()
    assert replay_command([str(broken), str(tmp_path / "missing.json")], out, err) == 1
    assert "broken.json" in err.getvalue() and "missing.json" in err.getvalue()
    assert out.getvalue() == ""


def test_module_entry_point_runs_replay():
    completed = subprocess.run(
        [sys.executable, "-m", "foursquare", "replay", str(VECTORS[1])],
        capture_output=True, text=True, cwd=REPO, check=False,
    )
    assert completed.returncode in (0, 2)
    assert json.loads(completed.stdout)


def test_play_command_explains_bad_input_and_finishes_a_game():
    answers = iter(["nonsense", "9 9", "0 0", "q"])
    out = io.StringIO()
    assert play_command("terminal", lambda prompt: next(answers), out) == 0
    text = out.getvalue()
    assert "type a row and a column" in text
    assert "cannot place" in text
    assert "Placed" in text
    assert "Goodbye" in text


def test_play_command_plays_to_the_end():
    seed = "to the end"
    out = io.StringIO()

    def read(prompt):
        legal_line = [line for line in out.getvalue().splitlines() if line.startswith("Legal:")]
        first = legal_line[-1].split()[1]
        return first.replace(",", " ")

    assert play_command(seed, read, out) == 0
    assert "Game over" in out.getvalue() or "You won" in out.getvalue()


def test_render_marks_face_down_cards():
    game = Game(deal(b"render"))
    game.play((0, 0))
    while game.face_down == 0 and game.status == "playing":
        game.play(game.legal_moves()[0])
    assert "##" in render(game)
