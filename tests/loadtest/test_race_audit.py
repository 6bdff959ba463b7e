"""make load's races audit (loadtest/verify_races.py) finds nothing in a clean record of a race
and finds each kind of fault slipped into it: another racer's board (in a progress message or
a race object) before the receiver finished, a card in a field outside the contract, another
racer's game answered, a card beyond the racer's own drawn ones, the deal named before the race
finished, a move lost, doubled or stored without an acknowledgement, places unlike the ranking
or told unlike the stored ones, a race over but not finished.

The record is built here, without a server or a database: three racers play one deal with the
engine (seeded, so every run plays the same games), and the journal holds what the contract
says each of them is told, when (``judge`` takes the journals and the database's copy as plain
data).
"""

from __future__ import annotations

import copy
import random
import uuid
from datetime import UTC, datetime

import pytest

from foursquare import Game, deal, move_previews, player_view
from loadtest import verify_races

T0 = 1_800_000_000.0  # the race's start, seconds since 1970
MINUTES = 3
DELIVERY = 0.010  # each progress message reaches the others 10 ms after the mover's answer


def _id(number: int) -> str:
    return str(uuid.UUID(int=number))


def _when(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


RACE = _id(1)
PLAYERS = [_id(10 + index) for index in range(3)]
GAMES = [_id(20 + index) for index in range(3)]


def _ref(player: str) -> dict:
    return {"id": player, "name": f"Guest {player[-2:]}", "bot": False}


def _progress(engine: Game, status: str, seconds: float | None) -> dict:
    return {"placed": engine.moves_played, "stock": engine.stock, "face_down": engine.face_down,
            "status": status, "score": engine.score, "seconds": seconds}


def _game(engine: Game, index: int, *, deal_id: str | None = None) -> dict:
    return {"id": GAMES[index], "mode": "race", "date": None, "number": None, "deal": deal_id,
            "race": RACE, **player_view(engine), "previews": move_previews(engine),
            "created_at": _when(T0 - 5), "finished_at": None, "ranked": False}


class Record:
    """A race of three on one deal, played to its end: the journal and the database's copy."""

    def __init__(self) -> None:
        deck = [str(card) for card in deal(b"the races audit")]
        rng = random.Random(24)
        engines = [Game(deal(b"the races audit")) for _ in PLAYERS]
        self.acks, self.answers, self.messages, self.moves = [], [], [], []
        over_at: dict[int, float] = {}
        # A waiting race object, then each racer reads its game at the start.
        for index, player in enumerate(PLAYERS):
            waiting = self.race_object(player, "waiting", engines, {})
            self.answers.append(("create" if index == 0 else "join", RACE, player, T0 - 8,
                                 waiting))
            self.messages.append((RACE, player, 1, T0 - 8, {"type": "ready", "race": waiting}))
            self.answers.append(("game", RACE, player, T0 + 0.05, _game(engines[index], index)))
        # Turns: each racer moves in turn every 0.3 s until every game is over.
        clock = T0 + 0.1
        while len(over_at) < len(PLAYERS):
            for index, engine in enumerate(engines):
                if index in over_at:
                    continue
                clock += 0.1
                number = engine.moves_played
                row, col = rng.choice(engine.legal_moves())
                self.moves.append((GAMES[index], number, row, col, str(engine.current)))
                engine.play((row, col))
                if engine.status != "playing":
                    over_at[index] = clock - 0.002  # stored before the answer leaves
                answer = _game(engine, index)
                self.answers.append(("move", RACE, PLAYERS[index], clock, answer))
                self.acks.append((RACE, PLAYERS[index], GAMES[index], number, row, col, clock,
                                  engine.moves_played, engine.status))
                seconds = round(over_at[index] - T0, 3) if index in over_at else None
                progress = _progress(engine, engine.status, seconds)
                board = player_view(engine)["grid"]
                for other, player in enumerate(PLAYERS):
                    if other == index:
                        continue
                    message = {"type": "progress", "player": PLAYERS[index],
                               "progress": progress}
                    if other in over_at and over_at[other] <= clock + DELIVERY:
                        message["board"] = board  # they may watch now
                    self.messages.append((RACE, player, 1, clock + DELIVERY, message))
        self.finished_at = max(over_at.values())
        self.games = {
            GAMES[index]: {
                "race": RACE, "player": PLAYERS[index], "status": engine.status,
                "score": engine.score, "moves_played": engine.moves_played,
                "move_list": [[row, col] for game, _, row, col, _ in self.moves
                              if game == GAMES[index]],
                "deck": deck, "opens_at": T0, "closes_at": T0 + MINUTES * 60,
                "finished_at": over_at[index]}
            for index, engine in enumerate(engines)}
        racers = [{"player": player, "game": GAMES[index], "place": None}
                  for index, player in enumerate(PLAYERS)]
        race = {"status": "finished", "minutes": MINUTES, "starts_at": T0,
                "ends_at": T0 + MINUTES * 60, "finished_at": self.finished_at, "racers": racers}
        self.truth = {"races": {RACE: race}, "games": self.games, "moves": self.moves}
        places = {player: place for place, (player, _) in
                  enumerate(verify_races.standings(race, self.games), start=1)}
        for racer in racers:
            racer["place"] = places[racer["player"]]
        # The finish: everyone gets the race, with its places and the boards.
        for player in PLAYERS:
            finished = self.race_object(player, "finished", engines, places, boards=True)
            self.messages.append((RACE, player, 1, self.finished_at + 0.02,
                                  {"type": "race", "race": finished}))
        self.engines = engines

    def race_object(self, viewer: str, status: str, engines: list[Game], places: dict,
                    boards: bool = False) -> dict:
        racers = []
        for index, player in enumerate(PLAYERS):
            engine = engines[index]
            entry = {"player": _ref(player), "place": places.get(player),
                     "progress": _progress(engine, engine.status, None)}
            if boards:
                entry["board"] = player_view(engine)["grid"]
            racers.append(entry)
        started = status != "waiting"
        return {
            "id": RACE, "code": "7K2M9QXZ", "link": "/races/join/7K2M9QXZ",
            "host": _ref(PLAYERS[0]), "players": len(PLAYERS), "minutes": MINUTES,
            "status": status, "created_at": _when(T0 - 10),
            "started_at": _when(T0 - 5) if started else None,
            "starts_at": _when(T0) if started else None,
            "ends_at": _when(T0 + MINUTES * 60) if started else None,
            "finished_at": _when(self.finished_at) if status == "finished" else None,
            "racers": racers, "invited": [],
            "game": GAMES[PLAYERS.index(viewer)] if started else None,
            "next_race": None, "bot": None,
        }

    def journal(self) -> dict:
        times = [ack[6] for ack in self.acks]
        return {"acks": self.acks, "answers": self.answers, "messages": self.messages,
                "times": {verify_races.MOVE: [(t - 0.005, 5.0) for t in times]},
                "first": T0 - 10, "last": self.finished_at + 1, "failures": {},
                "failure_log": [], "samples": {}, "gave_up": 0, "socket_errors": {},
                "socket_error_log": [], "connections": 3, "reconnects": 0, "polls": 0,
                "teams": 1, "races": {RACE: {"seats": 3, "start": "full"}}}

    def judge(self, journal: dict | None = None, truth: dict | None = None) -> dict:
        merged = verify_races.merge([copy.deepcopy(journal or self.journal())])
        return verify_races.judge(merged, copy.deepcopy(truth or self.truth))


@pytest.fixture(scope="module")
def record() -> Record:
    return Record()


def _playing_message(record: Record, kind: str = "progress") -> int:
    """The index of a message a racer got about another while its own game was playing."""
    for index, (_race, receiver, _c, when, message) in enumerate(record.messages):
        own = record.games[GAMES[PLAYERS.index(receiver)]]
        if message["type"] == kind and when < own["finished_at"]:
            return index
    raise AssertionError(f"no {kind} message while playing")


def test_a_clean_race_passes_every_check(record):
    report = record.judge()

    assert report["ok"], {k: v for k, v in report["violations"].items() if v}
    assert report["moves"]["moves_acknowledged"] == report["moves"]["moves_stored"] > 10
    assert report["places"]["finished"] == 1 and report["places_told"] == 3
    checked = report["leaks"]["checked"]
    assert checked["answers"] == len(record.answers)
    assert checked["messages"] == len(record.messages)
    # Each move reached both others 10 ms after its answer, by its own progress message.
    delivery = report["delivery"]
    assert delivery["count"] == delivery["by_progress"] == 2 * len(record.acks)
    assert delivery["undelivered"] == 0
    assert delivery["p50"] == pytest.approx(10.0) and delivery["p95"] == pytest.approx(10.0)
    # The clean record does hand boards out: to those whose own game was over.
    assert any("board" in m for *_, m in record.messages if m["type"] == "progress")


def test_another_racers_board_before_finishing_is_found(record):
    index = _playing_message(record)
    race_id, receiver, connection, when, message = record.messages[index]
    mover = PLAYERS.index(message["player"])
    journal = record.journal()
    journal["messages"] = list(record.messages)
    journal["messages"][index] = (race_id, receiver, connection, when, {
        **message, "board": player_view(record.engines[mover])["grid"]})

    report = record.judge(journal)

    assert report["violations"]["another racer's board before finishing"] == 1
    assert not report["ok"]


def test_a_board_in_a_race_object_before_finishing_is_found(record):
    journal = record.journal()
    journal["messages"] = list(record.messages)
    race_id, receiver, connection, when, ready = journal["messages"][0]
    peeking = copy.deepcopy(ready)
    other = next(entry for entry in peeking["race"]["racers"]
                 if entry["player"]["id"] != receiver)
    other["board"] = [{"row": 0, "col": 0, "height": 1, "face_up": True, "card": "7H"}]
    journal["messages"][0] = (race_id, receiver, connection, when, peeking)

    report = record.judge(journal)

    assert report["violations"]["another racer's board before finishing"] == 1


def test_a_board_after_finishing_is_no_leak(record):
    """The same board a moment after the receiver's own game was over: watching is allowed."""
    index = _playing_message(record)
    race_id, receiver, connection, _when, message = record.messages[index]
    own = record.games[GAMES[PLAYERS.index(receiver)]]
    journal = record.journal()
    journal["messages"] = list(record.messages)
    journal["messages"][index] = (race_id, receiver, connection, own["finished_at"] + 0.001,
                                  {**message, "board": []})

    assert record.judge(journal)["violations"]["another racer's board before finishing"] == 0


@pytest.mark.parametrize("tamper", ["extra field", "card as status", "unknown message"])
def test_a_card_outside_the_contract_is_found(record, tamper):
    index = _playing_message(record)
    race_id, receiver, connection, when, message = record.messages[index]
    changed = copy.deepcopy(message)
    if tamper == "extra field":
        changed["progress"]["next"] = "7H"
    elif tamper == "card as status":
        changed["progress"]["status"] = "7H"
    else:
        changed = {"type": "peek", "card": "7H"}
    journal = record.journal()
    journal["messages"] = list(record.messages)
    journal["messages"][index] = (race_id, receiver, connection, when, changed)

    violations = record.judge(journal)["violations"]

    name = ("messages outside the contract" if tamper == "unknown message"
            else "fields outside the contract")
    assert violations[name] == 1, violations


def test_another_racers_game_or_cards_or_deal_are_found(record):
    moves = [i for i, answer in enumerate(record.answers) if answer[0] == "move"]
    first = moves[0]
    what, race_id, player, when, game = record.answers[first]
    others = copy.deepcopy(game)
    others["id"] = next(g for g in GAMES if g != game["id"])
    ahead = copy.deepcopy(game)
    ahead["current_card"] = record.games[game["id"]]["deck"][-1]  # the last card to be drawn
    dealt = {**game, "deal": "abcdefgh"}
    for changed in (others, ahead, dealt):
        journal = record.journal()
        journal["answers"] = list(record.answers)
        journal["answers"][first] = (what, race_id, player, when, changed)

        assert record.judge(journal)["violations"]["another racer's game, cards or deal"] == 1


def test_lost_doubled_or_unacknowledged_moves_are_found(record):
    journal = record.journal()
    lost = (*record.acks[0][:3], 999, *record.acks[0][4:])
    journal["acks"] = [*record.acks[1:], lost, record.acks[2]]
    truth = copy.deepcopy(record.truth)
    truth["moves"].append(truth["moves"][5])

    violations = record.judge(journal, truth)["violations"]

    assert violations["lost moves"] == 1
    assert violations["stored moves nobody was told of"] == 1  # acks[0], never acknowledged
    assert violations["moves acknowledged twice"] == 1
    assert violations["move numbers stored twice"] == 1


def test_places_unlike_the_ranking_or_told_unlike_stored_are_found(record):
    truth = copy.deepcopy(record.truth)
    racers = truth["races"][RACE]["racers"]
    racers[0]["place"], racers[1]["place"] = racers[1]["place"], racers[0]["place"]

    violations = record.judge(truth=truth)["violations"]

    assert violations["places unlike the ranking"] == 1
    assert violations["places told unlike stored"] == 3  # every racer was told the true ones


def test_a_run_that_played_nothing_is_no_clean_run(record):
    journal = record.journal()
    journal.update(acks=[], answers=[], messages=[])

    assert not record.judge(journal, {"races": {}, "games": {}, "moves": []})["ok"]


def test_a_race_over_but_not_finished_is_found(record):
    truth = copy.deepcopy(record.truth)
    truth["races"][RACE]["status"] = "playing"

    assert record.judge(truth=truth)["violations"]["races over but not finished"] == 1


def test_a_missing_progress_message_is_undelivered_or_late(record):
    index = _playing_message(record)
    journal = record.journal()
    journal["messages"] = [m for i, m in enumerate(record.messages) if i != index]

    delivery = record.judge(journal)["delivery"]

    # Delivered later (by the racer's next move's message or the finish), or never.
    assert delivery["by_progress"] == 2 * len(record.acks) - 1
    assert delivery["max"] > DELIVERY * 1000


def test_the_ranking_is_the_documented_one():
    """Winners by score high to low, then seconds; then the others by cards placed, then
    seconds (out of time: the whole limit); a tie left to who joined first."""
    games = {}

    def game(key, status, score, placed, seconds):
        games[key] = {"status": status, "score": score, "moves_played": placed,
                      "opens_at": T0, "finished_at": None if seconds is None else T0 + seconds}
        return {"player": key, "game": key, "place": None}

    race = {"minutes": MINUTES, "racers": [
        game("won 2 slow", "won", 2, 38, 100.0),
        game("lost 30", "lost", None, 30, 50.0),
        game("won 5", "won", 5, 35, 120.0),
        game("out of time 30", "unfinished", None, 30, None),  # seconds: the whole 180
        game("won 2 fast", "won", 2, 38, 90.0),
        game("lost 30 too", "lost", None, 30, 50.0),  # the same as "lost 30": joined later
        game("lost 33", "lost", None, 33, 170.0),
    ]}

    order = [player for player, _ in verify_races.standings(race, games)]

    assert order == ["won 5", "won 2 fast", "won 2 slow", "lost 33", "lost 30", "lost 30 too",
                     "out of time 30"]


# --- The same checks on a race played through the API -----------------------------------------


def test_a_race_played_through_the_api_passes_and_tampered_rows_fail(make_player, monkeypatch):
    """``load_truth`` reads what the server stored: a race of three played to its end through
    the API is clean; a place or a move changed in the database is found."""
    import time

    from server.foursquare.models import Move, Racer
    from tests.server.foursquare.races.support import create, fixed_deal, join, open_now, url

    fixed_deal(monkeypatch)
    racers = [make_player(f"Racer {index}") for index in range(3)]
    ids = [str(player.pk) for player, _ in racers]
    answers, acks = [], []

    def told(what: str, race_id: str, index: int, body: dict) -> dict:
        answers.append((what, race_id, ids[index], time.time(), body))
        return body

    race = told("create", "", 0, create(racers[0][1], players=3))
    race_id = race["id"]
    answers[0] = ("create", race_id, *answers[0][2:])
    for index in (1, 2):
        told("join", race_id, index, join(racers[index][1], race))
    open_now(race_id)
    games = []
    for index, (_, api) in enumerate(racers):
        own = told("read", race_id, index, api.get(url(race_id)).json())["game"]
        games.append(told("game", race_id, index, api.get(f"games/{own}").json()))
    rng = random.Random(24)
    while any(game["status"] == "playing" for game in games):
        for index, (_, api) in enumerate(racers):
            game = games[index]
            if game["status"] != "playing":
                continue
            row, col = rng.choice(game["legal_moves"])
            response = api.post(f"games/{game['id']}/moves",
                                {"row": row, "col": col, "move": game["moves_played"]})
            assert response.status_code == 200, response.content
            games[index] = told("move", race_id, index, response.json())
            acks.append((race_id, ids[index], game["id"], game["moves_played"], row, col,
                         time.time(), games[index]["moves_played"], games[index]["status"]))
    for index, (_, api) in enumerate(racers):
        told("read", race_id, index, api.get(url(race_id)).json())
    journal = {"acks": acks, "answers": answers, "messages": [], "times": {}, "first": T0,
               "last": T0 + 1, "failures": {}, "failure_log": [], "samples": {}, "gave_up": 0,
               "socket_errors": {}, "socket_error_log": [], "connections": 0, "reconnects": 0,
               "polls": 0, "teams": 1, "races": {race_id: {"seats": 3, "start": "full"}}}

    def judged() -> dict:
        merged = verify_races.merge([copy.deepcopy(journal)])
        return verify_races.judge(merged, verify_races.load_truth())

    clean = judged()
    assert clean["ok"], {k: v for k, v in clean["violations"].items() if v}
    assert clean["places"]["finished"] == 1 and clean["places_told"] == 3
    assert clean["moves"]["moves_stored"] == len(acks)

    first, second = Racer.objects.filter(race_id=race_id).order_by("place")[:2]
    Racer.objects.filter(pk=first.pk).update(place=None)
    Racer.objects.filter(pk=second.pk).update(place=first.place)
    Racer.objects.filter(pk=first.pk).update(place=second.place)
    Move.objects.filter(game_id=games[0]["id"], number=0).update(row=99)

    violations = judged()["violations"]
    assert violations["places unlike the ranking"] == 1
    assert violations["places told unlike stored"] == 3
    assert violations["lost moves"] == 1 and violations["stored moves nobody was told of"] == 1
    assert violations["games that do not replay"] == 1
