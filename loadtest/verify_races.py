"""The Foursquare races' audit after a load run: what each racer was told, over REST and over
its race's socket, against what the database holds.

- every acknowledged move is stored exactly once, nothing is stored that nobody was told of,
  and every race game replays with the engine from its deal to its stored state;
- **nothing of another racer's game before finishing**: all racers of a race share one card
  order, so the check is structural, not a search for card codes (which any racer's own game
  shows too). Every socket message and every REST answer a racer got before its own game was
  over (the stored ``finished_at`` of its game: a board sent on the server's say-so leaves after
  that instant) is checked against the contract: only the fields the contract names, of the
  types it names (docs/API.md "Foursquare races"); no ``board`` of another
  racer, in a race object or a ``progress`` message; no game answer but the racer's own game,
  and in it no card beyond its own drawn cards and no ``deal`` before the race finished;
- each finished race's places follow the documented ranking (winners by score high to low, then
  seconds low to high; then the others by cards placed high to low, then seconds, an
  out-of-time racer's seconds being the whole limit; then who joined first), computed here
  again from the stored games, and every finished race object a racer was given told those
  places; every race whose games are all over is finished, and no finished race has a game
  still playing.

It also measures the progress delivery latency: from the mover receiving its move's answer to
each other racer's socket receiving that move's progress (the first message that shows the
mover at that many cards placed or more: a ``progress`` message, or a race object), both on
the load generator's one clock.

The checks take plain data (the journals, and ``load_truth``'s copy of the database), so
``tests/loadtest/test_race_audit.py`` feeds them clean and tampered records directly.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from datetime import datetime

from loadtest.verify import (
    _setup_django,
    cost,
    merge_socket_journals,
    percentile,
    print_failures,
    print_latency,
    print_machine,
    print_verdict,
    print_violations,
    socket_recovery,
    timing,
)

GOAL_DELIVERY_P95_MS = 100
MOVE = "POST /api/v1/games/{id}/moves"
CARD = re.compile(r"^[A2-9T][CDHS]$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
INSTANT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{8}$")  # Crockford base32
RACE_OBJECTS = ("create", "join", "start", "read", "poll")  # answers that are a race object
GAME_OBJECTS = ("game", "move")  # answers that are the racer's own game


# --- the contract, as shapes -------------------------------------------------------------------


class Null:
    """``spec`` or null."""

    def __init__(self, spec) -> None:
        self.spec = spec


class OneOf:
    def __init__(self, *values: str) -> None:
        self.values = frozenset(values)


class Text:
    """A string matching ``pattern`` (None: any string)."""

    def __init__(self, pattern: re.Pattern | None = None) -> None:
        self.pattern = pattern


class Many:
    """A list, each item ``spec``."""

    def __init__(self, spec) -> None:
        self.spec = spec


class Fields:
    """An object with exactly ``required`` and any of ``optional``."""

    def __init__(self, required: dict, optional: dict | None = None) -> None:
        self.required, self.optional = required, optional or {}


INT, NUMBER, BOOL, ANY_TEXT = int, (int, float), bool, Text()
ID, WHEN, CARD_CODE = Text(UUID), Text(INSTANT), Text(CARD)
PLAYER = Fields({"id": ID, "name": ANY_TEXT, "bot": BOOL})
CELL = Fields({"row": INT, "col": INT, "height": INT, "face_up": BOOL, "card": Null(CARD_CODE)})
PROGRESS = Fields({"placed": INT, "stock": INT, "face_down": INT,
                   "status": OneOf("playing", "won", "lost", "out_of_time"),
                   "score": Null(INT), "seconds": Null(NUMBER)})
RACER = Fields({"player": PLAYER, "place": Null(INT), "progress": PROGRESS},
               {"board": Many(CELL)})
SHA256 = Text(re.compile(r"^[0-9a-f]{64}$"))
# A race's fairness (docs/FAIRNESS.md): its commitment from the start, its seeds only once it has
# finished (``race_leaks`` holds them to that). Optional: a race made before it has none.
FAIRNESS = Fields({"commitment": SHA256, "committed_at": WHEN, "seq": INT, "subject": ANY_TEXT},
                  {"server_seed": ANY_TEXT, "client_seeds": Many(Null(ANY_TEXT)), "game": INT})
RACE = Fields({
    "id": ID, "code": Text(CODE), "link": Text(re.compile(r"^/races/join/[0-9A-Z]{8}$")),
    "host": PLAYER, "players": INT, "minutes": INT,
    "status": OneOf("waiting", "countdown", "playing", "finished", "cancelled"),
    "created_at": WHEN, "started_at": Null(WHEN), "starts_at": Null(WHEN),
    "ends_at": Null(WHEN), "finished_at": Null(WHEN), "racers": Many(RACER),
    "invited": Many(PLAYER), "game": Null(ID), "next_race": Null(ID),
    "bot": Null(Fields({"status": OneOf("won", "lost"), "score": Null(INT)})),
}, {"fairness": Null(FAIRNESS)})
PAIR = Many(INT)
GAME = Fields({
    "id": ID, "mode": OneOf("race"), "date": Null(ANY_TEXT), "number": Null(INT),
    "deal": Null(ANY_TEXT), "race": ID, "status": OneOf("playing", "won", "lost", "unfinished"),
    "score": Null(INT), "moves_played": INT, "current_card": Null(CARD_CODE), "stock": INT,
    "face_down": INT, "grid": Many(CELL), "legal_moves": Many(PAIR),
    "previews": Many(Fields({"at": PAIR, "flipped": Many(PAIR), "face_down": INT,
                             "status": OneOf("playing", "won", "lost")})),
    "last_move": Null(Fields({"card": CARD_CODE, "at": PAIR, "flipped": Many(PAIR)})),
    "created_at": WHEN, "finished_at": Null(WHEN), "ranked": BOOL,
})
MESSAGES = {
    "ready": Fields({"type": ANY_TEXT, "race": RACE}),
    "race": Fields({"type": ANY_TEXT, "race": RACE}),
    "progress": Fields({"type": ANY_TEXT, "player": ID, "progress": PROGRESS},
                       {"board": Many(CELL)}),
    "pong": Fields({"type": ANY_TEXT}),
}


def unlike(value, spec, path: str = "") -> list[str]:
    """Where ``value`` is not of the shape ``spec``: extra or missing fields, wrong types."""
    if isinstance(spec, Null):
        return [] if value is None else unlike(value, spec.spec, path)
    if isinstance(spec, OneOf):
        ok = isinstance(value, str) and value in spec.values
        return [] if ok else [f"{path or '.'}: {value!r} is none of {sorted(spec.values)}"]
    if isinstance(spec, Text):
        ok = isinstance(value, str) and (spec.pattern is None or spec.pattern.match(value))
        return [] if ok else [f"{path or '.'}: {value!r} is not such text"]
    if isinstance(spec, Many):
        if not isinstance(value, list):
            return [f"{path or '.'}: not a list"]
        return [problem for index, item in enumerate(value)
                for problem in unlike(item, spec.spec, f"{path}[{index}]")]
    if isinstance(spec, Fields):
        if not isinstance(value, dict):
            return [f"{path or '.'}: not an object"]
        problems = [f"{path}.{key}: a field outside the contract" for key in value
                    if key not in spec.required and key not in spec.optional]
        problems += [f"{path}.{key}: missing" for key in spec.required if key not in value]
        for key, item in value.items():
            inner = spec.required.get(key, spec.optional.get(key))
            if inner is not None:
                problems += unlike(item, inner, f"{path}.{key}")
        return problems
    ok = isinstance(value, spec) and not (isinstance(value, bool) and spec is not BOOL)
    return [] if ok else [f"{path or '.'}: {value!r} is not {spec}"]


# --- the journals, and the database as plain data ----------------------------------------------


def merge(journals: list[dict]) -> dict:
    return merge_socket_journals(journals, ("teams",), "races")


def _epoch(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


def load_truth() -> dict:
    """The races, their racers, their games and moves, as plain data (times in seconds since
    1970): what the checks compare the journals with."""
    from server.foursquare.models import Game, Move, Race, Racer

    races = {
        str(race["id"]): {"status": race["status"], "minutes": race["minutes"],
                          "starts_at": _epoch(race["starts_at"]),
                          "ends_at": _epoch(race["ends_at"]),
                          "finished_at": _epoch(race["finished_at"]), "racers": []}
        for race in Race.objects.values("id", "status", "minutes", "starts_at", "ends_at",
                                        "finished_at")
    }
    for race_id, player_id, game_id, place in Racer.objects.order_by(
            "race_id", "joined_at", "id").values_list("race_id", "player_id", "game_id", "place"):
        races[str(race_id)]["racers"].append({
            "player": str(player_id), "game": str(game_id) if game_id else None, "place": place})
    games = {}
    for game in Game.objects.filter(mode=Game.Mode.RACE).values(
            "id", "race_id", "player_id", "status", "score", "moves_played", "move_list",
            "deal__cards", "opens_at", "closes_at", "finished_at"):
        games[str(game["id"])] = {
            "race": str(game["race_id"]), "player": str(game["player_id"]),
            "status": game["status"], "score": game["score"],
            "moves_played": game["moves_played"],
            "move_list": [list(move) for move in game["move_list"]],
            "deck": game["deal__cards"].split(), "opens_at": _epoch(game["opens_at"]),
            "closes_at": _epoch(game["closes_at"]), "finished_at": _epoch(game["finished_at"]),
        }
    moves = [(str(game_id), number, row, col, card) for game_id, number, row, col, card in
             Move.objects.filter(game__mode=Game.Mode.RACE).order_by("game_id", "number")
             .values_list("game_id", "number", "row", "col", "card")]
    return {"races": races, "games": games, "moves": moves}


# --- the checks ---------------------------------------------------------------------------------


def check_moves(acks: list, truth: dict) -> dict:
    """Acknowledged moves against the stored ones, and every race game replayed."""
    from foursquare import Game as EngineGame
    from foursquare import parse_deck

    acked = Counter((game, number, row, col) for _r, _p, game, number, row, col, *_ in acks)
    stored = Counter((game, number, row, col) for game, number, row, col, _ in truth["moves"])
    numbers = Counter((game, number) for game, number, *_ in truth["moves"])
    by_game = defaultdict(list)
    for game, number, row, col, card in truth["moves"]:
        by_game[game].append((number, row, col, card))
    mismatches, after = [], {}  # after: (game, number) -> the status the replay has after it
    for game_id, game in truth["games"].items():
        engine = EngineGame(parse_deck(game["deck"]))
        problem = None
        for expected, (number, row, col, card) in enumerate(by_game[game_id]):
            if number != expected or str(engine.current) != card:
                problem = f"move {number}: stored card {card}, the engine draws {engine.current}"
                break
            try:
                engine.play((row, col))
            except ValueError as error:
                problem = f"move {number} at {row},{col}: {error}"
                break
            after[(game_id, number)] = engine.status
        replayed = [[row, col] for _, row, col, _ in by_game[game_id]]
        # A race game still playing at its race's end is stored ``unfinished``.
        status = "playing" if game["status"] == "unfinished" else game["status"]
        if problem is None and (engine.status, engine.score, engine.moves_played, replayed) != (
                status, game["score"], game["moves_played"], game["move_list"]):
            problem = (f"the replay gives {engine.status}/{engine.score}/{engine.moves_played}, "
                       f"stored {game['status']}/{game['score']}/{game['moves_played']}")
        if problem:
            mismatches.append((game_id, problem))
    told_wrong = [ack for ack in acks
                  if (ack[2], ack[3]) in after and (after[(ack[2], ack[3])], ack[3] + 1)
                  != (ack[8], ack[7])]
    return {
        "moves_acknowledged": sum(acked.values()), "moves_stored": sum(stored.values()),
        "lost": sorted(set(acked) - set(stored)),
        "acked_twice": sum(count - 1 for count in acked.values() if count > 1),
        "stored_twice": sum(count - 1 for count in numbers.values() if count > 1),
        "unacknowledged": sorted(set(stored) - set(acked)),
        "replay_mismatches": mismatches, "told_wrong": told_wrong,
        "games_stored": len(truth["games"]),
    }


def standings(race: dict, games: dict) -> list[tuple]:
    """The racers of a finished ``race`` as the documented ranking orders them, each as
    (player, key): winners by score high to low then seconds low to high; then the others by
    cards placed high to low then seconds (an out-of-time racer's: the whole limit); then who
    joined first."""
    ranked = []
    for joined, racer in enumerate(race["racers"]):
        game = games.get(racer["game"]) if racer["game"] else None
        if game is None:
            continue
        if game["status"] == "unfinished":
            seconds = race["minutes"] * 60.0
        else:
            seconds = round(game["finished_at"] - game["opens_at"], 3)
        if game["status"] == "won":
            key = (0, -game["score"], seconds, joined)
        else:
            key = (1, -game["moves_played"], seconds, joined)
        ranked.append((racer["player"], key))
    return sorted(ranked, key=lambda item: item[1])


def check_places(truth: dict) -> dict:
    """Each finished race's stored places against the ranking computed again here; every race
    whose games are all over finished; no finished race with a game playing."""
    wrong, over_open, finished_playing = [], [], []
    finished = running = 0
    games = truth["games"]
    for race_id, race in truth["races"].items():
        dealt = [games[r["game"]] for r in race["racers"] if r["game"] in games]
        if race["status"] == "finished":
            finished += 1
            if any(game["status"] == "playing" for game in dealt):
                finished_playing.append(race_id)
            expected = {player: place for place, (player, _) in
                        enumerate(standings(race, games), start=1)}
            stored = {r["player"]: r["place"] for r in race["racers"]}
            if stored != expected:
                wrong.append((race_id, f"stored {stored}, the ranking gives {expected}"))
        elif race["status"] in ("countdown", "playing"):
            running += 1
            if dealt and all(game["status"] != "playing" for game in dealt):
                over_open.append(race_id)
    return {"finished": finished, "running": running, "wrong": wrong, "over_open": over_open,
            "finished_playing": finished_playing}


def places_told(answers: list, messages: list, truth: dict) -> tuple[int, list]:
    """Every finished race object a racer got, against the stored places."""
    checked, wrong = 0, []
    objects = [body for what, _, _, _, body in answers if what in RACE_OBJECTS]
    objects += [m["race"] for *_, m in messages if m.get("type") in ("ready", "race")
                and isinstance(m.get("race"), dict)]
    for race in objects:
        if race.get("status") != "finished" or race.get("id") not in truth["races"]:
            continue
        checked += 1
        stored = {r["player"]: r["place"] for r in truth["races"][race["id"]]["racers"]}
        told = {r["player"]["id"]: r["place"] for r in race.get("racers", [])}
        if told != stored:
            wrong.append((race["id"], f"told {told}, stored {stored}"))
    return checked, wrong


class Viewer:
    """What the database says of one racer in one race: its own game and when it ended."""

    def __init__(self, truth: dict, race_id: str, player: str) -> None:
        race = truth["races"].get(race_id) or {"racers": [], "finished_at": None}
        own = next((r for r in race["racers"] if r["player"] == player), None)
        self.game_id = own["game"] if own else None
        game = truth["games"].get(self.game_id) if self.game_id else None
        self.game = game
        self.over_at = game["finished_at"] if game and game["status"] != "playing" else None
        self.race_finished_at = race["finished_at"]

    def playing(self, when: float) -> bool:
        """Whether the racer's own game was not over yet at ``when`` (or not dealt yet)."""
        return self.over_at is None or when < self.over_at

    def race_over(self, when: float) -> bool:
        return self.race_finished_at is not None and when >= self.race_finished_at


def race_leaks(race: dict, player: str, playing: bool) -> list[str]:
    """What a race object shows a racer still playing that names another racer's game, and its
    seeds (from which the deal follows) before it has finished."""
    fairness = race.get("fairness")
    seeds = (["its seeds before it finished"] if isinstance(fairness, dict)
             and "server_seed" in fairness and race.get("status") != "finished" else [])
    if not playing or not isinstance(race.get("racers"), list):
        return seeds
    return seeds + [f"the board of racer {entry.get('player', {}).get('id')}"
            for entry in race["racers"]
            if isinstance(entry, dict) and "board" in entry
            and entry.get("player", {}).get("id") != player]


def game_leaks(game: dict, viewer: Viewer, race_id: str, when: float) -> list[str]:
    """What a game answer shows that is not the racer's own, or beyond its own drawn cards."""
    if game.get("id") != viewer.game_id:
        return [f"game {game.get('id')} answered, the racer's own is {viewer.game_id}"]
    problems = []
    if game.get("race") != race_id:
        problems.append(f"its race is {game.get('race')}, not {race_id}")
    if game.get("deal") is not None and not viewer.race_over(when):
        problems.append(f"the deal {game['deal']} named before the race finished")
    if viewer.playing(when) and viewer.game is not None:
        drawn = set(viewer.game["deck"][: game.get("moves_played", 0) + 1])
        named = [game.get("current_card")]
        named += [cell.get("card") for cell in game.get("grid", []) if cell.get("face_up")]
        named.append((game.get("last_move") or {}).get("card"))
        beyond = [card for card in named if card is not None and card not in drawn]
        if beyond:
            problems.append(f"cards beyond its own drawn ones: {beyond}")
        face_down = [cell for cell in game.get("grid", [])
                     if not cell.get("face_up") and cell.get("card") is not None]
        if face_down:
            problems.append(f"{len(face_down)} face-down card(s) named")
    return problems


def check_leaks(answers: list, messages: list, truth: dict) -> dict:
    """Every REST answer and socket message each racer got, against the contract and, before
    its own game was over, against what it may see."""
    viewers: dict[tuple[str, str], Viewer] = {}

    def viewer_of(race_id: str, player: str) -> Viewer:
        if (race_id, player) not in viewers:
            viewers[(race_id, player)] = Viewer(truth, race_id, player)
        return viewers[(race_id, player)]

    boards, games, contract, strange = [], [], [], []
    checked = {"answers": 0, "messages": 0, "while playing": 0}
    for what, race_id, player, when, body in answers:
        viewer = viewer_of(race_id, player)
        checked["answers"] += 1
        checked["while playing"] += viewer.playing(when)
        if what in RACE_OBJECTS:
            contract += [(race_id, player, what, p) for p in unlike(body, RACE)]
            if body.get("game") not in (None, viewer.game_id):
                games.append((race_id, player, what, f"names game {body['game']} as its own"))
            boards += [(race_id, player, what, p)
                       for p in race_leaks(body, player, viewer.playing(when))]
        elif what in GAME_OBJECTS:
            contract += [(race_id, player, what, p) for p in unlike(body, GAME)]
            games += [(race_id, player, what, p) for p in game_leaks(body, viewer, race_id, when)]
    for race_id, player, _connection, when, message in messages:
        viewer = viewer_of(race_id, player)
        checked["messages"] += 1
        playing = viewer.playing(when)
        checked["while playing"] += playing
        kind = message.get("type")
        if kind not in MESSAGES:
            strange.append((race_id, player, f"a {kind!r} message"))
            continue
        contract += [(race_id, player, kind, p) for p in unlike(message, MESSAGES[kind])]
        if kind in ("ready", "race") and isinstance(message.get("race"), dict):
            if message["race"].get("game") not in (None, viewer.game_id):
                games.append((race_id, player, kind, f"names game {message['race']['game']}"))
            boards += [(race_id, player, kind, p)
                       for p in race_leaks(message["race"], player, playing)]
        elif kind == "progress" and playing and "board" in message \
                and message.get("player") != player:
            boards.append((race_id, player, kind, f"the board of racer {message['player']}"))
    return {"checked": checked, "boards": boards, "games": games, "contract": contract,
            "strange": strange}


def delivery(acks: list, messages: list, truth: dict) -> tuple[list, int, int]:
    """(answered, ms) of each move for each other racer of its race; how many never reached a
    racer before the run stopped; how many arrived as that move's own ``progress`` message."""
    seen: dict[tuple[str, str, str], list[tuple[float, int, bool]]] = defaultdict(list)
    for race_id, receiver, _connection, when, message in messages:
        kind = message.get("type")
        if kind == "progress" and isinstance(message.get("progress"), dict):
            seen[(race_id, receiver, message.get("player"))].append(
                (when, message["progress"].get("placed", 0), True))
        elif kind in ("ready", "race") and isinstance(message.get("race"), dict):
            for entry in message["race"].get("racers", []):
                seen[(race_id, receiver, entry["player"]["id"])].append(
                    (when, entry["progress"]["placed"], False))
    # For each (race, receiver, mover): receipt times, and the most placed shown by then.
    index = {}
    for key, items in seen.items():
        items.sort()
        times, most, own = [], [], []
        best = -1
        for when, placed, is_progress in items:
            best = max(best, placed)
            times.append(when)
            most.append(best)
            own.append((placed, is_progress))
        index[key] = (times, most, own)
    timed, undelivered, by_progress = [], 0, 0
    for race_id, mover, _game, _number, _row, _col, answered, placed, _status in acks:
        racers = truth["races"].get(race_id, {}).get("racers", [])
        for receiver in (r["player"] for r in racers if r["player"] != mover):
            times, most, own = index.get((race_id, receiver, mover), ([], [], []))
            at = bisect_left(most, placed)
            if at == len(most):
                undelivered += 1
                continue
            timed.append((answered, (times[at] - answered) * 1000))
            by_progress += own[at] == (placed, True)
    return timed, undelivered, by_progress


def judge(merged: dict, truth: dict, *, failures_allowed: bool = False) -> dict:
    """Every check over the merged journals and the database's copy: the report."""
    moves = check_moves(merged["acks"], truth)
    places = check_places(truth)
    told_checked, told_wrong = places_told(merged["answers"], merged["messages"], truth)
    leaks = check_leaks(merged["answers"], merged["messages"], truth)
    timed, undelivered, by_progress = delivery(merged["acks"], merged["messages"], truth)
    ordered = sorted(ms for _, ms in timed)
    duration, latency = timing(merged)
    violations = {
        "lost moves": len(moves["lost"]),
        "moves acknowledged twice": moves["acked_twice"],
        "move numbers stored twice": moves["stored_twice"],
        "stored moves nobody was told of": len(moves["unacknowledged"]),
        "games that do not replay": len(moves["replay_mismatches"]),
        "answers unlike the stored game": len(moves["told_wrong"]),
        "another racer's board before finishing": len(leaks["boards"]),
        "another racer's game, cards or deal": len(leaks["games"]),
        "fields outside the contract": len(leaks["contract"]),
        "messages outside the contract": len(leaks["strange"]),
        "places unlike the ranking": len(places["wrong"]),
        "places told unlike stored": len(told_wrong),
        "races over but not finished": len(places["over_open"]),
        "finished races with a game playing": len(places["finished_playing"]),
        "moves never answered": merged["gave_up"],
        # A load that played nothing (locust did not start, say) proves nothing.
        "runs without a single acknowledged move": int(not merged["acks"]),
    }
    if not failures_allowed:
        violations["failed requests"] = sum(merged["failures"].values())
        violations["socket errors"] = sum(merged["socket_errors"].values())
    starts = Counter(race["start"] for race in merged["races"].values())
    return {
        "ok": not any(violations.values()), "violations": violations, "moves": moves,
        "places": places, "places_told": told_checked, "told_wrong": told_wrong[:20],
        "leaks": {key: value[:20] if isinstance(value, list) else value
                  for key, value in leaks.items()},
        "latency": latency, "duration": duration,
        "delivery": {"count": len(ordered), "undelivered": undelivered,
                     "by_progress": by_progress,
                     "p50": percentile(ordered, 0.50), "p95": percentile(ordered, 0.95),
                     "p99": percentile(ordered, 0.99),
                     "min": ordered[0] if ordered else float("nan"),
                     "max": ordered[-1] if ordered else float("nan")},
        "socket_recovery": socket_recovery(merged["socket_error_log"], merged["messages"]),
        "failures": dict(merged["failures"]), "failure_log": merged["failure_log"],
        "samples": merged["samples"], "socket_errors": dict(merged["socket_errors"]),
        "socket_error_log": merged["socket_error_log"][:50],
        "connections": merged["connections"], "reconnects": merged["reconnects"],
        "polls": merged["polls"], "teams": merged["teams"], "races_created": len(merged["races"]),
        "starts": dict(starts),
    }


def audit(journals: list[dict], database_url: str, *, failures_allowed: bool = False) -> dict:
    merged = merge(journals)
    _setup_django(database_url)
    return judge(merged, load_truth(), failures_allowed=failures_allowed)


def print_report(report: dict, machine: dict, load) -> dict:
    """Print the run's report; returns its cost per acknowledged move (``verify.cost``)."""
    races, size, pace = (os.environ.get(name, default) for name, default in (
        ("LOAD_RACES", "25"), ("LOAD_RACE_SIZE", "4"), ("LOAD_RACE_PACE", "2")))
    pace = "flat out" if float(pace) == 0 else f"{pace} moves/s each"
    print(f"\n== Foursquare races: {races} teams of {size} racers, {pace}, "
          f"{report['duration']:.1f} s of play, {load.describe_server()}")
    print_latency(report["latency"], 40)
    moves, places = report["moves"], report["places"]
    duration = report["duration"] or float("nan")
    rate = moves["moves_acknowledged"] / duration
    print(f"moves/s {rate:.1f} acknowledged")
    d = report["delivery"]
    print(f"progress delivery (mover's answer -> each other racer's socket), ms: p50 "
          f"{d['p50']:.1f}, p95 {d['p95']:.1f}, p99 {d['p99']:.1f}, min {d['min']:.1f}, max "
          f"{d['max']:.1f} over {d['count']} deliveries ({d['by_progress']} by the move's own "
          f"progress message, the rest by a later message); {d['undelivered']} never received "
          "before the run stopped")
    recovery = report["socket_recovery"]
    print(f"sockets: {report['connections']} connections, {report['reconnects']} reconnects, "
          f"errors {sum(report['socket_errors'].values())} {report['socket_errors'] or ''}"
          f"{'; recovered p50 ' + str(recovery['p50']) + ' s' if recovery['count'] else ''}; "
          f"{report['polls']} reads of a race after a silent socket")
    print_failures(report["failures"])
    checked = report["leaks"]["checked"]
    print(f"races: {report['races_created']} created by {report['teams']} teams (started "
          f"{report['starts']}), {places['finished']} finished with their places checked, "
          f"{places['running']} still running at the end; {moves['games_stored']} games, "
          f"{moves['moves_stored']} moves stored, {moves['moves_acknowledged']} acknowledged; "
          f"{checked['answers']} answers and {checked['messages']} socket messages checked "
          f"({checked['while playing']} while the racer's own game was playing), "
          f"{report['places_told']} finished race objects against the stored places")
    print_violations(report["violations"], (
        ("replay", moves["replay_mismatches"]), ("told", report["told_wrong"]),
        ("places", places["wrong"]), ("board", report["leaks"]["boards"]),
        ("game", report["leaks"]["games"]), ("contract", report["leaks"]["contract"]),
        ("message", report["leaks"]["strange"])))
    print_machine(machine, moves["moves_acknowledged"],
                  "acknowledged move, its race's requests and socket pushes included")
    goal = d["p95"] <= GOAL_DELIVERY_P95_MS and report["ok"]
    print(f"goal (progress delivery p95 <= {GOAL_DELIVERY_P95_MS} ms, audit clean): "
          f"{'met' if goal else 'missed'}")
    print_verdict(report["ok"])
    return cost(machine, moves["moves_acknowledged"], rate if report["duration"] else 0.0)
