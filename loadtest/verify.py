"""The audit after a load run: what the players were told against what the database holds.

- every acknowledged move is stored exactly once, and nothing is stored that nobody was told of;
- every game replays with the engine, from its deal and stored moves, to its stored state;
- no response named a card beyond the player's drawn prefix of the deck, or a face-down card.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable

GOAL_MOVES_PER_SECOND = 500
GOAL_P95_MS = 50
# The first seconds are the sign-up burst: every player creates an account and a daily game
# at once. The steady figures leave them out; both are printed.
WARMUP_SECONDS = float(os.environ.get("LOAD_WARMUP_SECONDS", "10"))
MOVE = "POST /api/v1/games/{id}/moves"
# The parties that serve a request, app and database: one gunicorn and this database's backends,
# or the cluster's nodes, primary and replica.
APP_AND_DATABASE = ("gunicorn", "app", "postgres (this database)", "app1", "app2", "primary",
                    "replica")
HEALTH = "GET /healthz"


def merged_journal(**fields) -> dict:
    """An empty merge of journals: what every journal holds, and a game's own ``fields``."""
    return {"times": defaultdict(list), "failures": Counter(), "failure_log": [], "samples": {},
            "gave_up": 0, "first": None, "last": 0.0, **fields}


def merge_requests(merged: dict, journal: dict) -> None:
    """Add what every journal holds of its requests (times, failures, samples, first and last)
    to ``merged``; ``gave_up`` and the game's own counts are the caller's."""
    for name, times in journal["times"].items():
        merged["times"][name] += times
    merged["failures"].update(journal["failures"])
    merged["failure_log"] += journal["failure_log"]
    for status, body in journal["samples"].items():
        merged["samples"].setdefault(status, body)
    if journal["first"] is not None:
        first = merged["first"]
        merged["first"] = journal["first"] if first is None else min(first, journal["first"])
    merged["last"] = max(merged["last"], journal["last"])


def merge_socket_journals(journals: list[dict], counts: tuple[str, ...], table: str) -> dict:
    """Merge the journals of players that hold sockets (``loadtest.held_socket``): their
    requests, messages and socket errors, the ``counts`` named, and the ``table`` (id -> what)."""
    merged = merged_journal(acks=[], answers=[], messages=[], socket_errors=Counter(),
                            socket_error_log=[], connections=0, reconnects=0, polls=0, lags=[],
                            **dict.fromkeys(counts, 0), **{table: {}})
    for journal in journals:
        for key in ("acks", "answers", "messages", "socket_error_log"):
            merged[key] += journal[key]
        merged["lags"] += journal.get("lags", [])
        merge_requests(merged, journal)
        merged["socket_errors"].update(journal["socket_errors"])
        for key in ("gave_up", "connections", "reconnects", "polls", *counts):
            merged[key] += journal.get(key, 0)
        merged[table].update(journal[table])
    merged["failure_log"].sort()
    return merged


def merge(journals: list[dict]) -> dict:
    merged = merged_journal(acks=[], views=[], face_down_leaks=0, games=0)
    for journal in journals:
        merged["acks"] += [tuple(ack) for ack in journal["acks"]]
        merged["views"] += journal["views"]
        merge_requests(merged, journal)
        for key in ("gave_up", "face_down_leaks", "games"):
            merged[key] += journal[key]
    merged["failure_log"].sort()
    return merged


def timing(merged: dict) -> tuple[float, dict]:
    """The merged journals' seconds of play, and each request's latency over them."""
    duration = (merged["last"] - merged["first"]) if merged["first"] is not None else 0.0
    latency = {name: _latency([ms for _, ms in times], duration)
               for name, times in sorted(merged["times"].items())}
    return duration, latency


def settled_at(merged: dict, duration: float) -> float | None:
    """When the run's start burst is over (``WARMUP_SECONDS`` after its first request), on the
    journals' clock; None for a run no longer than that."""
    if merged["first"] is None or duration <= WARMUP_SECONDS:
        return None
    return merged["first"] + WARMUP_SECONDS


def steady_latency(merged: dict, duration: float) -> dict:
    """Each request's latency over the requests begun after the start burst (``settled_at``):
    the sign-ups, game starts and sockets of every player at once, which a paced mix's figures
    are not about. Empty for a run too short to have such a part."""
    settled = settled_at(merged, duration)
    if settled is None:
        return {}
    return {name: _latency([ms for started, ms in times if started >= settled],
                           duration - WARMUP_SECONDS)
            for name, times in sorted(merged["times"].items())}


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def _setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
    import django
    from django.db import connections

    django.setup()
    # Settings are read once per process; a second audit (the drills) points at its database,
    # which may be another server's: `make drill` audits the one server's drills on the
    # machine's PostgreSQL, then the cluster's on its own primary (another port).
    connection = connections["default"]
    connection.close()
    point_at(connection.settings_dict, database_url)


def point_at(settings_dict: dict, database_url: str) -> None:
    """Make a connection's settings name ``database_url``'s database, on its server."""
    import dj_database_url

    parsed = dj_database_url.parse(database_url)
    for key in ("NAME", "HOST", "PORT", "USER", "PASSWORD"):
        settings_dict[key] = parsed.get(key, "")


def check_database(acks: list[tuple], views: list) -> dict:
    from foursquare import Game as EngineGame
    from foursquare import parse_deck
    from server.foursquare.models import Game, Move

    acked = Counter((str(game), number, row, col) for game, number, row, col in acks)
    stored = Counter(
        (str(game), number, row, col)
        for game, number, row, col in Move.objects.values_list("game_id", "number", "row", "col")
    )
    acked_twice = sum(count - 1 for count in acked.values() if count > 1)
    numbers = Counter((game, number) for game, number, _, _ in stored.elements())
    stored_twice = sum(count - 1 for count in numbers.values() if count > 1)
    lost = sorted(set(acked) - set(stored))
    unacknowledged = sorted(set(stored) - set(acked))

    decks: dict[str, list[str]] = {}
    replay_mismatches = []
    moves_by_game = defaultdict(list)
    for game_id, number, row, col, card in Move.objects.order_by("game_id", "number").values_list(
            "game_id", "number", "row", "col", "card"):
        moves_by_game[str(game_id)].append((number, row, col, card))
    games = Game.objects.select_related("deal").only(
        "id", "status", "score", "moves_played", "move_list", "deal__cards")
    for game in games.iterator(chunk_size=2000):
        game_id = str(game.pk)
        deck = game.deal.cards.split()
        decks[game_id] = deck
        engine = EngineGame(parse_deck(deck))
        problem = None
        for expected_number, (number, row, col, card) in enumerate(moves_by_game[game_id]):
            if number != expected_number or str(engine.current) != card:
                problem = f"move {number}: stored card {card}, engine draws {engine.current}"
                break
            engine.play((row, col))
        stored_moves = [list(move) for move in game.move_list]
        replayed_moves = [[row, col] for _, row, col, _ in moves_by_game[game_id]]
        if problem is None and (engine.status, engine.score, engine.moves_played, replayed_moves) \
                != (game.status, game.score, game.moves_played, stored_moves):
            problem = (f"replay gives {engine.status}/{engine.score}/{engine.moves_played}, "
                       f"stored {game.status}/{game.score}/{game.moves_played}")
        if problem:
            replay_mismatches.append((game_id, problem))

    hidden_leaks = []
    for game_id, moves_played, _status, cards in views:
        drawn = set(decks.get(game_id, [])[: moves_played + 1])
        beyond = [card for card in cards if card not in drawn]
        if beyond:
            hidden_leaks.append((game_id, moves_played, beyond))

    return {
        "games_stored": len(decks), "moves_stored": sum(stored.values()),
        "moves_acknowledged": sum(acked.values()), "lost": lost, "acked_twice": acked_twice,
        "stored_twice": stored_twice, "unacknowledged": unacknowledged,
        "replay_mismatches": replay_mismatches, "hidden_leaks": hidden_leaks,
        "views_checked": len(views),
    }


def _latency(times: list[float], seconds: float) -> dict:
    ordered = sorted(times)
    return {
        "count": len(ordered), "per_second": len(ordered) / seconds if seconds else 0.0,
        "p50": percentile(ordered, 0.50), "p95": percentile(ordered, 0.95),
        "p99": percentile(ordered, 0.99), "max": ordered[-1] if ordered else float("nan"),
    }


def audit(journals: list[dict], database_url: str, *, failures_allowed: bool = False) -> dict:
    """Merge the journals, check the database, and say whether the run is clean."""
    merged = merge(journals)
    _setup_django(database_url)
    db = check_database(merged["acks"], merged["views"])
    duration, latency = timing(merged)
    steady = steady_latency(merged, duration)
    failed_attempts = sum(merged["failures"].values())
    violations = {
        "lost moves": len(db["lost"]),
        "moves acknowledged twice": db["acked_twice"],
        "move numbers stored twice": db["stored_twice"],
        "stored moves nobody was told of": len(db["unacknowledged"]),
        "games that do not replay": len(db["replay_mismatches"]),
        "responses naming an undrawn card": len(db["hidden_leaks"]),
        "face-down cards shown": merged["face_down_leaks"],
        "moves never answered": merged["gave_up"],
    }
    if not failures_allowed:
        violations["failed requests"] = failed_attempts
    return {
        "ok": not any(violations.values()), "violations": violations, "db": db,
        "latency": latency, "steady": steady, "duration": duration,
        "failures": dict(merged["failures"]),
        "failure_log": merged["failure_log"], "games_started": merged["games"],
        "samples": merged["samples"],
    }


def socket_recovery(errors: list, messages: list) -> dict:
    """Seconds from each socket failure to the next message that socket received: a socket is
    known by its key in the journal (a match and seat, a race and racer)."""
    received: dict[tuple, list[float]] = defaultdict(list)
    for *key, _connection, when, _message in messages:
        received[tuple(key)].append(when)
    gaps, never = [], 0
    for when, _kind, _detail, *key in errors:
        later = [t for t in received.get(tuple(key), []) if t > when]
        if later:
            gaps.append(min(later) - when)
        else:
            never += 1
    gaps.sort()
    return {"count": len(gaps), "p50": round(percentile(gaps, 0.5), 3) if gaps else None,
            "max": round(gaps[-1], 3) if gaps else None, "never": never}


def print_machine(machine: dict, units: int, unit: str) -> None:
    """The CPU each party used (its share of one core, and per ``unit`` when there were
    ``units``), and the load average before and after: the socket games' report lines."""
    cpu, wall = machine["cpu_seconds"], machine["wall_seconds"]
    print("CPU (share of one core over the run): " + ", ".join(
        f"{name} {seconds / wall:.2f}" for name, seconds in cpu.items()))
    if units:
        print(f"CPU per {unit} (ms): "
              + ", ".join(f"{name} {seconds * 1000 / units:.1f}" for name, seconds in cpu.items()))
    print(f"load average before {machine['loadavg_before'][0]:.2f}, "
          f"after {machine['loadavg_after'][0]:.2f}")


def print_row(name: str, row: dict, width: int = 34) -> None:
    print(f"{name:{width}} {row['count']:7d} {row['per_second']:8.1f} {row['p50']:8.1f} "
          f"{row['p95']:8.1f} {row['p99']:8.1f} {row['max']:8.1f}")


def print_latency(latency: dict, width: int = 34) -> None:
    """Each endpoint's requests and latencies, a table ``width`` characters wide at its name."""
    print(f"{'endpoint':{width}} {'count':>7} {'per s':>8} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'max ms':>8}")
    for name, row in latency.items():
        print_row(name, row, width)


def print_failures(failures: dict) -> None:
    print(f"failed attempts: {sum(failures.values())} {failures or ''}")


def print_violations(violations: dict, samples: Iterable[tuple[str, list]]) -> None:
    """The audit's counts, then up to five examples of each kind of finding."""
    for name, count in violations.items():
        print(f"  {name:44} {count}")
    for label, items in samples:
        for item in items[:5]:
            print(f"  {label}: {item}")


def print_verdict(ok: bool) -> None:
    print("audit: " + ("clean" if ok else "VIOLATIONS (see above)"))


def cost(machine: dict, units: int, rate: float) -> dict:
    """What one unit of work (a move, an action) cost, app and this database's PostgreSQL
    together, and how many were done each second: what ``make load`` compares across games."""
    cpu = machine["cpu_seconds"]
    spent = sum(cpu.get(name, 0.0) for name in APP_AND_DATABASE)
    return {"cpu_ms": spent * 1000 / units if units else float("nan"), "rate": rate,
            "units": units}


def print_ratios(foursquare: dict, spite_malice: dict) -> None:
    """The two games against each other, in this sitting: the goals of docs/OPERATIONS.md
    ("Spite & Malice under load") are CPU per action <= 1.3 x a move's, actions/s >= 0.8 x
    moves/s (flat out)."""
    print(f"\n== Spite & Malice against Foursquare, this sitting: CPU (app + PostgreSQL) per "
          f"action {spite_malice['cpu_ms']:.1f} ms / per move {foursquare['cpu_ms']:.1f} ms = "
          f"{spite_malice['cpu_ms'] / foursquare['cpu_ms']:.2f}x; actions/s "
          f"{spite_malice['rate']:.1f} / moves/s {foursquare['rate']:.1f} = "
          f"{spite_malice['rate'] / foursquare['rate']:.2f}x")


# The goals the rounds' table counts (issue 41): a move at most 3.5 ms of CPU all in, an action
# at most 1.3 times a move's.
MOVE_GOAL_MS = 3.5
RATIO_GOAL = 1.3


def print_rounds(rounds: list[tuple[dict, dict]]) -> None:
    """``LOAD_ROUNDS``' table: each round's move and action (``cost`` of each game, played one
    after the other), their ratio, and over the rounds the medians and how many rounds met
    each goal, and in a row at most. On a machine whose speed drifts from one minute to the
    next, one round's ratio says little; the rounds together say how often it holds."""
    moves = [foursquare["cpu_ms"] for foursquare, _ in rounds]
    actions = [spite_malice["cpu_ms"] for _, spite_malice in rounds]
    ratios = [action / move for move, action in zip(moves, actions, strict=True)]
    print(f"\n== {len(rounds)} rounds, each Foursquare's run then Spite & Malice's")
    print("round   CPU per move   CPU per action   action / move")
    for number, (move, action, ratio) in enumerate(zip(moves, actions, ratios, strict=True), 1):
        print(f"{number:5d} {move:11.2f} ms {action:13.2f} ms {ratio:14.2f}x")
    print(f"median {statistics.median(moves):10.2f} ms {statistics.median(actions):13.2f} ms "
          f"{statistics.median(ratios):14.2f}x")
    for label, met in ((f"a move <= {MOVE_GOAL_MS} ms", [m <= MOVE_GOAL_MS for m in moves]),
                       (f"an action <= {RATIO_GOAL}x a move's",
                        [r <= RATIO_GOAL for r in ratios])):
        print(f"{label}: {sum(met)} of {len(met)} rounds, at most {_in_a_row(met)} in a row")


def _in_a_row(met: list[bool]) -> int:
    longest = current = 0
    for held in met:
        current = current + 1 if held else 0
        longest = max(longest, current)
    return longest


def print_report(report: dict, machine: dict, load) -> dict:
    """Print the run's report; returns its ``cost``."""
    latency = report["latency"]
    pace = os.environ.get("LOAD_PACE", "10")
    print(f"\n== {load.users} players at {pace} moves/s each, {report['duration']:.1f} s of "
          "play, gunicorn "
          f"{load.workers} x {load.gunicorn_app[1]} ({load.threads} thread(s)), "
          f"{load.locust_processes} locust process(es)")
    print_latency(latency)
    steady = report["steady"]
    if steady:
        print(f"after the first {WARMUP_SECONDS:.0f} s (the sign-up burst):")
        for name in (MOVE, HEALTH):
            if name in steady:
                print_row(name, steady[name])
    moves, health = latency.get(MOVE), latency.get(HEALTH)
    if moves and health:
        print(f"moves/s {moves['per_second']:.1f}; move/healthz latency ratio: "
              f"p50 {moves['p50'] / health['p50']:.2f}, p95 {moves['p95'] / health['p95']:.2f}")
    print_failures(report["failures"])
    db = report["db"]
    print(f"database: {db['games_stored']} games, {db['moves_stored']} moves stored, "
          f"{db['moves_acknowledged']} acknowledged; {db['views_checked']} responses checked "
          "for hidden cards")
    for name, count in report["violations"].items():
        print(f"  {name:36} {count}")
    cpu = machine["cpu_seconds"]
    wall = machine["wall_seconds"]
    print("CPU (share of one core over the run): " + ", ".join(
        f"{name} {seconds / wall:.2f}" for name, seconds in cpu.items())
        + f"; machine has {os.cpu_count()} cores")
    requests = sum(row["count"] for row in latency.values())
    if requests:
        print("CPU per answered request (ms): " + ", ".join(
            f"{name} {seconds * 1000 / requests:.2f}" for name, seconds in cpu.items()))
    print(f"load average before {machine['loadavg_before'][0]:.2f}, "
          f"after {machine['loadavg_after'][0]:.2f}")
    for label, rows in (("whole run", latency), ("after the burst", steady)):
        row = rows.get(MOVE)
        if row:
            goal = (row["per_second"] >= GOAL_MOVES_PER_SECOND and row["p95"] <= GOAL_P95_MS
                    and report["ok"])
            print(f"goal (>= {GOAL_MOVES_PER_SECOND} moves/s, p95 <= {GOAL_P95_MS} ms, 0 errors, "
                  f"0 lost or doubled), {label}: {'met' if goal else 'missed'}")
    print_verdict(report["ok"])
    moves = latency.get(MOVE) or {"count": 0, "per_second": 0.0}
    return cost(machine, moves["count"], moves["per_second"])
