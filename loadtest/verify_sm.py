"""The Spite & Malice audit after a load run: what the players were told, over REST and over
their sockets, against what the database holds and against the games replayed from their seeds.

- every acknowledged action is stored exactly once, and every stored action of a person was
  acknowledged to them (the bot's are nobody's to acknowledge);
- every game replays (``server.spitemalice.engine.rebuild``) to its stored state, its stored
  action rows are its action list, and every match's events are numbered 1, 2, ... once each;
- every answer of a game in play shows its seat exactly what the replayed game shows that seat
  (hand, pay-off tops, side and centre stacks, sizes) and no card code anywhere else;
- every stored event, as each seat sees it, names only cards that seat could see at that point
  of the replayed game (another seat's draw names no cards), and every event a socket delivered
  is the feed's event for that seat, byte for byte; each seat's sockets delivered the feed's
  numbers in order, none twice and none skipped, across reconnections.

It also measures the event delivery latency: from the actor receiving its action's answer to the
opponent's socket receiving that answer's last event (both in the load generator's process).
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter, defaultdict

from loadtest.verify import (
    WARMUP_SECONDS,
    _setup_django,
    cost,
    merge_socket_journals,
    percentile,
    print_failures,
    print_latency,
    print_machine,
    print_verdict,
    print_violations,
    settled_at,
    socket_recovery,
    steady_latency,
    timing,
)

GOAL_ACTIONS_PER_SECOND = 300
GOAL_P95_MS = 50
GOAL_DELIVERY_P95_MS = 200
API = "/api/v1/spite-malice"
ACTION = f"POST {API}/matches/{{id}}/actions"
CARD = re.compile(r"^[A2-9TJQK][CDHS]$")
SEATS = (0, 1)


def merge(journals: list[dict]) -> dict:
    merged = merge_socket_journals(journals, ("tables",), "matches")
    merged["socket_error_log"].sort()
    return merged


def cards_in(value, skip: frozenset[str] = frozenset()) -> list[str]:
    """Every string in ``value`` (nested JSON) that is a card code, keys in ``skip`` aside."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in skip)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CARD.match(item):
            found.append(item)
    return found


def visible(view: dict) -> Counter[str]:
    """The cards a seat's view shows: its hand, both pay-off tops, every side and centre card."""
    shown = Counter(view["hand"])
    shown.update(top for top in view["payoff_top"] if top is not None)
    for stacks in view["sides"]:
        for stack in stacks:
            shown.update(stack)
    for stack in view["centre"]:
        shown.update(stack)
    return shown


class Truth:
    """The stored games replayed from their seeds, position by position."""

    def __init__(self) -> None:
        from server.spitemalice.models import Action, MatchGame

        self.seeds: dict[tuple[str, int], str] = {}
        self.rows: dict[tuple[str, int], list[tuple]] = defaultdict(list)
        for match_id, number, seed in MatchGame.objects.values_list("match_id", "number", "seed"):
            self.seeds[(str(match_id), number)] = seed
        for match_id, game, number, seat, source, target, card in (
                Action.objects.order_by("match_id", "game", "number")
                .values_list("match_id", "game", "number", "seat", "source", "target", "card")):
            self.rows[(str(match_id), game)].append((number, seat, source, target, card))

    def positions(self, match_id: str, game: int, wanted: set[int]):
        """(k, engine after k actions) for each k of ``wanted`` in order (the same engine,
        moved on: use it before asking for the next)."""
        from spitemalice import Game

        engine = Game(bytes.fromhex(self.seeds[(match_id, game)]))
        rows = self.rows[(match_id, game)]
        played = 0
        for k in sorted(wanted):
            while played < k and played < len(rows):
                _, _, source, target, _ = rows[played]
                engine.play((source, target))
                played += 1
            if played < k:
                return
            yield k, engine


def check_actions(acks: list, bot_seats: dict[str, int | None]) -> dict:
    from server.spitemalice.models import Action

    acked = Counter((match, game, number, seat, source, target)
                    for match, game, number, seat, source, target, _, _ in acks)
    stored_rows = [(str(match), game, number, seat, source, target)
                   for match, game, number, seat, source, target in
                   Action.objects.values_list("match_id", "game", "number", "seat", "source",
                                              "target")]
    stored = Counter(stored_rows)
    numbers = Counter((match, game, number) for match, game, number, *_ in stored_rows)
    people = {row for row in stored if bot_seats.get(row[0], -1) != row[3]}
    return {
        "actions_acknowledged": sum(acked.values()),
        "actions_stored": len(stored_rows),
        "bot_actions_stored": len(stored_rows) - sum(stored[row] for row in people),
        "lost": sorted(set(acked) - set(stored)),
        "acked_twice": sum(count - 1 for count in acked.values() if count > 1),
        "stored_twice": sum(count - 1 for count in numbers.values() if count > 1),
        "unacknowledged": sorted(people - set(acked)),
    }


def check_replays(truth: Truth) -> tuple[list, dict[str, int | None]]:
    from server.spitemalice.engine import rebuild
    from server.spitemalice.models import Event, Match, MatchGame

    mismatches = []
    matches = {str(m.pk): m for m in Match.objects.all()}
    for game in MatchGame.objects.all().iterator(chunk_size=500):
        key = (str(game.match_id), game.number)
        rows = [[source, target] for _, _, source, target, _ in truth.rows[key]]
        numbers = [number for number, *_ in truth.rows[key]]
        if numbers != list(range(len(numbers))):
            mismatches.append((key, f"action numbers {numbers[:5]}... are not 0, 1, 2, ..."))
            continue
        if rows != [list(action) for action in game.actions]:
            mismatches.append((key, f"{len(rows)} action rows, game lists {len(game.actions)}"))
            continue
        engine = rebuild(game)
        if game.status in ("playing", "won", "tied"):
            replayed = (engine.status, engine.winner, engine.points, engine.turn_number)
            stored = (game.status, game.winner, game.points, game.turn_number)
            if replayed != stored:
                mismatches.append((key, f"replay gives {replayed}, stored {stored}"))
                continue
        match = matches[key[0]]
        if game.number == match.game_number and match.status == "playing" and (
                match.actions_played, match.turn) != (len(engine.actions), engine.turn):
            mismatches.append((key, f"match says {match.actions_played} actions, turn "
                                    f"{match.turn}; replay {len(engine.actions)}, {engine.turn}"))
    counts = defaultdict(list)
    for match_id, number in Event.objects.values_list("match_id", "number"):
        counts[str(match_id)].append(number)
    for match_id, match in matches.items():
        numbers = sorted(counts.get(match_id, []))
        if numbers != list(range(1, match.event + 1)):
            mismatches.append(((match_id, None), f"events {numbers[:3]}...{numbers[-3:]}, "
                                                 f"match's latest {match.event}"))
    return mismatches, {match_id: match.bot_seat for match_id, match in matches.items()}


# In an answer these hold the cards a seat may see; they are compared with the truth instead.
_SHOWN_KEYS = frozenset({"hand", "payoff_top", "sides", "top", "legal_actions", "name", "code",
                         "url"})


def check_answers(answers: list, truth: Truth) -> tuple[int, list]:
    """Each answer of a game in play against the replayed game, seat by seat."""

    wanted: dict[tuple[str, int], dict[int, list]] = defaultdict(lambda: defaultdict(list))
    leaks = []
    checked = 0
    for _what, match in answers:
        game = match.get("game")
        if game is None or game["status"] != "playing":
            continue  # nothing dealt yet, or a game over: it may be laid open
        extra = cards_in(match, _SHOWN_KEYS)
        if extra:
            leaks.append((match["id"], None, f"card codes outside the seat's view: {extra}"))
        wanted[(match["id"], game["number"])][game["actions"]].append(match)
    for (match_id, number), by_count in wanted.items():
        if (match_id, number) not in truth.seeds:
            leaks.append((match_id, number, "an answer of a game that is not stored"))
            continue
        for k, engine in truth.positions(match_id, number, set(by_count)):
            for match in by_count[k]:
                checked += 1
                for wrong in view_mismatches(match["game"], engine, match["you"]):
                    leaks.append((match_id, number, f"after {k} actions {wrong}"))
    return checked, leaks


def view_mismatches(game: dict, engine, seat: int) -> list[str]:
    """How the API's game object ``game`` shown to ``seat`` differs from ``engine``'s game as
    that seat may see it (nothing: it showed exactly that)."""
    from spitemalice import player_view

    view = player_view(engine, seat)
    shown = {
        "hand": game["hand"],
        "payoff_top": [s["payoff_top"] for s in game["seats"]],
        "sides": [s["sides"] for s in game["seats"]],
        "centre": [(c["size"], c["top"]) for c in game["centre"]],
        "sizes": ([s["hand"] for s in game["seats"]],
                  [s["payoff"] for s in game["seats"]], game["stock"]),
        "legal": sorted(map(tuple, game["legal_actions"])),
        "actions": game["actions"],
    }
    true = {
        "hand": view["hand"], "payoff_top": view["payoff_top"],
        "sides": view["sides"],
        "centre": [(len(c), c[-1] if c else None) for c in view["centre"]],
        "sizes": (view["hand_sizes"], view["payoff"], view["stock"]),
        "legal": sorted(map(tuple, view["legal_actions"])),
        "actions": view["actions_played"],
    }
    return [f"seat {seat} was shown {field} {value}, the game holds {true[field]}"
            for field, value in shown.items() if value != true[field]]


def check_feed(truth: Truth) -> tuple[int, list, dict]:
    """Every stored event, as each seat sees it, against the replayed game."""
    from server.spitemalice.models import Event
    from spitemalice import PLAYING, Game, player_view

    leaks = []
    feed: dict[tuple[str, int, int], dict] = {}
    checked = 0
    rows = (Event.objects.order_by("match_id", "number")
            .values_list("match_id", "number", "kind", "seat0", "seat1"))
    engine = None
    current = (None, None)
    for match_id, number, kind, seat0, seat1 in rows.iterator(chunk_size=5000):
        match_id = str(match_id)
        for seat, seen in ((0, seat0), (1, seat1)):
            feed[(match_id, seat, number)] = {"number": number, "kind": kind, **seen}
        game = seat0.get("game")
        if kind == "dealt":
            engine, current = Game(bytes.fromhex(truth.seeds[(match_id, game)])), (match_id,
                                                                                   game)
        if current != (match_id, game) or engine is None:
            engine = None  # an event of a game not being walked (match_over): no cards in it
        moved: list[str] = []
        if kind in ("play", "discard") and engine is not None:
            rows_of_game = truth.rows[(match_id, game)]
            if seat0["action"] != len(engine.actions) or seat0["action"] >= len(rows_of_game):
                leaks.append((match_id, number, f"event names action {seat0['action']} at "
                              f"{len(engine.actions)}"))
                engine = None
            else:
                _, _, source, target, card = rows_of_game[seat0["action"]]
                engine.play((source, target))
                moved = [card]
                if (seat0["card"], seat0["from"], seat0["to"]) != (card, source, target):
                    leaks.append((match_id, number, f"event {seat0} is not action {card} "
                                  f"{source}>{target}"))
        for seat, seen in ((0, seat0), (1, seat1)):
            checked += 1
            # A card played from the hand is named twice (``card`` and ``from``): once counts.
            # The table a turn's draw carries is a whole view: checked as an answer is.
            named = Counter(cards_in(seen, frozenset({"from", "table"})))
            if "table" in seen:
                if kind != "draw" or seen["seat"] != seat or engine is None:
                    leaks.append((match_id, number, f"seat {seat} was given a table in {kind}"))
                else:
                    for wrong in view_mismatches(seen["table"]["game"], engine, seat):
                        leaks.append((match_id, number, f"the turn's table: {wrong}"))
            if kind == "draw" and seen["seat"] != seat and "cards" in seen:
                leaks.append((match_id, number, f"seat {seat} told of seat {seen['seat']}'s "
                              f"draw: {seen['cards']}"))
            if not named or (engine is not None and engine.status != PLAYING):
                continue  # nothing named, or the game is over and may be laid open
            if engine is None:
                leaks.append((match_id, number, f"{kind} names {sorted(named)} outside a game"))
                continue
            allowed = visible(player_view(engine, seat, since=len(engine.actions)))
            allowed.update(moved)
            beyond = named - allowed
            if beyond:
                leaks.append((match_id, number, f"seat {seat} was told of {sorted(beyond)} in "
                              f"{kind}, which it cannot see"))
    return checked, leaks, feed


def check_sockets(messages: list, feed: dict, answers_by_match: dict) -> dict:
    """What the sockets delivered against the feed, per seat across its connections."""
    received: dict[tuple[str, int], list[int]] = defaultdict(list)
    first_seen: dict[tuple[str, int, int], float] = {}
    different = []
    kinds = Counter()
    stray = 0  # card codes in a message that is not events, outside a ready's match
    readies = []  # each ready's match: the seat's own view, checked as an answer is
    for match_id, seat, _connection, when, message in messages:
        kinds[message.get("type")] += 1
        if message.get("type") == "ready" and isinstance(message.get("match"), dict):
            readies.append(("ready", message["match"]))
            stray += bool(cards_in({k: v for k, v in message.items() if k != "match"}))
            continue
        if message.get("type") != "events":
            stray += bool(cards_in(message))
            continue
        for event in message["events"]:
            number = event["number"]
            received[(match_id, seat)].append(number)
            first_seen.setdefault((match_id, seat, number), when)
            stored = feed.get((match_id, seat, number))
            if stored != event:
                different.append((match_id, seat, number, event, stored))
    doubled = skipped = out_of_order = 0
    for numbers in received.values():
        doubled += len(numbers) - len(set(numbers))
        out_of_order += sum(1 for a, b in itertools.pairwise(numbers) if b < a)
        if numbers:
            skipped += (max(numbers) - min(numbers) + 1) - len(set(numbers))
    return {"events_delivered": sum(len(n) for n in received.values()), "doubled": doubled,
            "skipped": skipped, "out_of_order": out_of_order, "different": different,
            "stray_cards": stray, "readies": readies,
            "first_seen": first_seen, "message_types": dict(kinds)}


def delivery(acks: list, matches: dict, first_seen: dict) -> tuple[list[tuple[float, float]],
                                                                  int]:
    """(when answered, milliseconds) from each friend action's answer to the opponent's socket
    receiving its last event, and how many such events the opponent's socket never received."""
    latencies, missing = [], 0
    for match, _game, _number, seat, _s, _t, last_event, answered in acks:
        if matches.get(match) != "friend":
            continue
        seen = first_seen.get((match, 1 - seat, last_event))
        if seen is None:
            missing += 1
        else:
            latencies.append((answered, (seen - answered) * 1000))
    return latencies, missing


def timeline(latencies: list[tuple[float, float]], step: float = 5.0) -> list[tuple]:
    """(window start, count, p95 ms) of the delivery latency, window by window."""
    windows: dict[int, list[float]] = defaultdict(list)
    for answered, ms in latencies:
        windows[int(answered // step)].append(ms)
    return [(index * step, len(values), percentile(sorted(values), 0.95))
            for index, values in sorted(windows.items())]


def audit(journals: list[dict], database_url: str, *, failures_allowed: bool = False) -> dict:
    merged = merge(journals)
    _setup_django(database_url)
    truth = Truth()
    replay_mismatches, bot_seats = check_replays(truth)
    actions = check_actions(merged["acks"], bot_seats)
    events_checked, feed_leaks, feed = check_feed(truth)
    sockets = check_sockets(merged["messages"], feed, {})
    # A socket's ready carries the seat's whole view (as GET gives it): checked with the answers.
    answers_checked, answer_leaks = check_answers(merged["answers"] + sockets["readies"], truth)
    timed, undelivered = delivery(merged["acks"], merged["matches"], sockets["first_seen"])
    latencies = [ms for _, ms in timed]
    duration, latency = timing(merged)
    ordered = sorted(latencies)
    settled = settled_at(merged, duration)
    steady_delivery = (sorted(ms for answered, ms in timed if answered >= settled)
                       if settled is not None else [])
    steady_lag = (sorted(ms for when, ms in merged["lags"] if when >= settled)
                  if settled is not None else [])
    failed_attempts = sum(merged["failures"].values())
    socket_errors = sum(merged["socket_errors"].values())
    violations = {
        "lost actions": len(actions["lost"]),
        "actions acknowledged twice": actions["acked_twice"],
        "action numbers stored twice": actions["stored_twice"],
        "stored actions nobody was told of": len(actions["unacknowledged"]),
        "games that do not replay": len(replay_mismatches),
        "answers showing what the seat cannot see": len(answer_leaks),
        "events naming a card the seat cannot see": len(feed_leaks),
        "socket events unlike the feed": len(sockets["different"]),
        "other socket messages naming a card": sockets["stray_cards"],
        "socket events out of order": sockets["out_of_order"],
        "socket events delivered twice": sockets["doubled"],
        "socket events skipped": sockets["skipped"],
        "actions never answered": merged["gave_up"],
    }
    if not failures_allowed:
        violations["failed requests"] = failed_attempts
        violations["socket errors"] = socket_errors
    return {
        "ok": not any(violations.values()), "violations": violations, "actions": actions,
        "replay_mismatches": replay_mismatches[:20], "answer_leaks": answer_leaks[:20],
        "feed_leaks": feed_leaks[:20], "socket_different": sockets["different"][:5],
        "answers_checked": answers_checked, "events_checked": events_checked,
        "sockets": {key: value for key, value in sockets.items()
                    if key not in ("first_seen", "different", "readies")},
        "latency": latency, "duration": duration,
        "steady": steady_latency(merged, duration),
        "steady_delivery": {"count": len(steady_delivery),
                            "p50": percentile(steady_delivery, 0.50),
                            "p95": percentile(steady_delivery, 0.95)},
        "steady_lag": {"count": len(steady_lag), "p50": percentile(steady_lag, 0.50),
                       "p95": percentile(steady_lag, 0.95),
                       "max": steady_lag[-1] if steady_lag else float("nan")},
        "delivery": {"count": len(ordered), "undelivered": undelivered,
                     "p50": percentile(ordered, 0.50), "p95": percentile(ordered, 0.95),
                     "p99": percentile(ordered, 0.99),
                     "min": ordered[0] if ordered else float("nan"),
                     "max": ordered[-1] if ordered else float("nan")},
        "delivery_timeline": timeline(timed),
        "socket_recovery": socket_recovery(merged["socket_error_log"], merged["messages"]),
        "failures": dict(merged["failures"]), "failure_log": merged["failure_log"],
        "samples": merged["samples"], "socket_errors": dict(merged["socket_errors"]),
        "socket_error_log": merged["socket_error_log"],
        "connections": merged["connections"], "reconnects": merged["reconnects"],
        "polls": merged["polls"],
        "tables": merged["tables"],
        "matches": Counter(merged["matches"].values()),
    }


def print_report(report: dict, machine: dict, load) -> dict:
    """Print the run's report; returns its cost per acknowledged action (``verify.cost``)."""
    friends, bots, pace = (os.environ.get(name, default) for name, default in (
        ("LOAD_SM_FRIENDS", "80"), ("LOAD_SM_BOTS", "20"), ("LOAD_SM_PACE", "8")))
    pace = "flat out" if float(pace) == 0 else f"{pace} actions/s each during their turns"
    print(f"\n== Spite & Malice: {friends} players in friend matches, {bots} against the bot, "
          f"{pace}, {report['duration']:.1f} s "
          f"of play, {load.describe_server()}")
    print_latency(report["latency"], 46)
    actions = report["actions"]
    duration = report["duration"] or float("nan")
    action_row = report["latency"].get(ACTION)
    print(f"actions/s {actions['actions_acknowledged'] / duration:.1f} acknowledged "
          f"(+{actions['bot_actions_stored'] / duration:.1f} the bot's)")
    d = report["delivery"]
    print(f"event delivery (actor's answer -> opponent's socket), ms: p50 {d['p50']:.1f}, "
          f"p95 {d['p95']:.1f}, p99 {d['p99']:.1f}, min {d['min']:.1f}, max {d['max']:.1f} over "
          f"{d['count']} actions; {d['undelivered']} never received before the run stopped")
    steady, steady_delivery = report["steady"].get(ACTION), report["steady_delivery"]
    if steady and steady_delivery["count"]:
        print(f"after the first {WARMUP_SECONDS:.0f} s (the sign-ups, matches and sockets of "
              f"every player): actions {steady['count']}, p50 {steady['p50']:.1f} ms, p95 "
              f"{steady['p95']:.1f} ms; delivery p50 {steady_delivery['p50']:.1f} ms, p95 "
              f"{steady_delivery['p95']:.1f} ms over {steady_delivery['count']} actions")
    lag = report.get("steady_lag")
    if lag and lag["count"]:
        print(f"the load generator's own lag then (a 50 ms sleep's overshoot, in the latencies "
              f"above too): p50 {lag['p50']:.1f} ms, p95 {lag['p95']:.1f} ms, max "
              f"{lag['max']:.1f} ms over {lag['count']} samples")
    s = report["sockets"]
    print(f"sockets: {report['connections']} connections, {report['reconnects']} reconnects, "
          f"errors {sum(report['socket_errors'].values())} {report['socket_errors'] or ''}; "
          f"{s['events_delivered']} events delivered, messages {s['message_types']}; "
          f"{report['polls']} reads after a silent socket; {report['tables']} turns taken "
          "from their draw event's table, without a read")
    print_failures(report["failures"])
    print(f"database: {dict(report['matches'])} matches played; {actions['actions_stored']} "
          f"actions stored, {actions['actions_acknowledged']} acknowledged; "
          f"{report['answers_checked']} answers and {report['events_checked']} seat events "
          "checked against the replayed games")
    print_violations(report["violations"], (
        (label, report[label])
        for label in ("replay_mismatches", "answer_leaks", "feed_leaks", "socket_different")))
    print_machine(machine, actions["actions_acknowledged"],
                  "acknowledged action, its reads, socket pushes and bot replies included")
    if action_row:
        rate = actions["actions_acknowledged"] / duration
        goal = (rate >= GOAL_ACTIONS_PER_SECOND and action_row["p95"] <= GOAL_P95_MS
                and d["p95"] <= GOAL_DELIVERY_P95_MS and report["ok"])
        print(f"goal (>= {GOAL_ACTIONS_PER_SECOND} actions/s, p95 <= {GOAL_P95_MS} ms, delivery "
              f"p95 <= {GOAL_DELIVERY_P95_MS} ms, 0 errors, 0 lost or doubled): "
              f"{'met' if goal else 'missed'}")
    print_verdict(report["ok"])
    acknowledged = actions["actions_acknowledged"]
    return cost(machine, acknowledged, acknowledged / duration if report["duration"] else 0.0)

