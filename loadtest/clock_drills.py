"""The turn clocks' drills (``make drill``: ``clocks-worker``, ``clocks-long-job``).

Both start the app as production runs it (gunicorn with ``FOURSQUARE_BACKGROUND=off``, a
``manage.py run_jobs`` worker beside it) on a fresh database, set up Spite & Malice matches
between guests on 60-second clocks whose seat to play then stalls, and watch them as the
opponent would (a read of the match every 2 s):

- clocks-worker: the worker is stopped (SIGTERM) once the matches stall. The app processes'
  clock threads must time each stalled seat out on time.
- clocks-long-job: twelve guests each ask for the analysis of a finished Foursquare game (a
  minute of solver CPU each) and a guest plays the bot, whose turns are left to the worker
  (``SPITE_MALICE_BOT_SECONDS=0``). The bot's turns must start at once beside the analyses, and
  the stalled seats time out on time.

To keep a drill short, the stalling turns' deadlines are set ``DRILL_CLOCK_DEADLINE`` seconds
(15) ahead in the database once the matches stall, as if their minute were nearly over.

The audit, from the database: each stalled match ended ``finished``/``timeout`` within
``LATE_SECONDS`` of its deadline, with one ``match_over`` event; no read ever saw its deadline
move; the log has no outage (no "was not alive"); in clocks-long-job, each of the bot's turns
ended within ``BOT_SECONDS``, while analyses were still running or queued.
"""

from __future__ import annotations

import signal
import time
from datetime import datetime

import psycopg
import requests

from loadtest.run import LoadRun, env

MATCHES = int(env("DRILL_CLOCK_MATCHES", "4"))
DEADLINE = float(env("DRILL_CLOCK_DEADLINE", "15"))
ANALYSES = int(env("DRILL_CLOCK_ANALYSES", "12"))
BOT_TURNS = int(env("DRILL_CLOCK_BOT_TURNS", "3"))
LATE_SECONDS = 5.0  # the sweep runs every 2 s on each app process's clock thread
BOT_SECONDS = 10.0
WATCH_EVERY = 2.0
NAMES = ["clocks-worker", "clocks-long-job"]


class Guest:
    def __init__(self, host: str) -> None:
        self.host = host
        self.session = requests.Session()
        body = self.call("POST", "/players", {})
        self.session.headers["Authorization"] = f"Bearer {body['token']}"

    def call(self, method: str, path: str, body: dict | None = None,
             expect: tuple[int, ...] = (200, 201, 202)) -> dict:
        response = self.session.request(method, f"{self.host}/api/v1{path}", json=body,
                                        timeout=30)
        if response.status_code not in expect:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response.json()


def greedy(game: dict) -> list[str]:
    legal = game["legal_actions"]
    for action in legal:
        if action[0] == "P":
            return action
    for action in legal:
        if action[1].startswith("C") and not action[0].startswith("K"):
            return action
    return next(action for action in legal if action[1].startswith("S"))


def act(guest: Guest, match: dict) -> dict:
    game = match["game"]
    return guest.call("POST", f"/spite-malice/matches/{match['id']}/actions",
                      {"action": greedy(game), "game": game["number"],
                       "actions": game["actions"]})


def take_turn(guests: dict[int, Guest], match_id: str) -> None:
    view = guests[0].call("GET", f"/spite-malice/matches/{match_id}")
    seat = view["game"]["turn"]
    view = guests[seat].call("GET", f"/spite-malice/matches/{match_id}")
    while view["status"] == "playing" and view["game"]["turn"] == seat:
        view = act(guests[seat], view)


def stalled_match(host: str) -> tuple[str, Guest]:
    """A friends' match on a 60-second clock past both first turns; its seat to play stalls.
    Its id and the opponent, who watches."""
    guests = {0: Guest(host), 1: Guest(host)}
    match = guests[0].call("POST", "/spite-malice/matches",
                           {"opponent": "friend", "turn_seconds": 60, "target": 50})
    guests[1].call("POST", "/spite-malice/matches/join", {"code": match["invite"]["code"]})
    take_turn(guests, match["id"])
    take_turn(guests, match["id"])
    view = guests[0].call("GET", f"/spite-malice/matches/{match['id']}")
    if view["abortable"] or view["status"] != "playing":
        raise RuntimeError(f"match {match['id']} is not past its first turns: {view['status']}")
    return match["id"], guests[1 - view["game"]["turn"]]


def deadlines_near(database_url: str, match_ids: list[str]) -> dict[str, datetime]:
    with psycopg.connect(database_url, autocommit=True) as db:
        rows = db.execute(
            "UPDATE spitemalice_match SET deadline = now() + make_interval(secs => %s) "
            "WHERE id = ANY(%s::uuid[]) RETURNING id::text, deadline",
            (DEADLINE, match_ids)).fetchall()
    return dict(rows)


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def watch(watchers: dict[str, Guest], deadlines: dict[str, datetime]) -> dict[str, list]:
    """The opponents read their match every ``WATCH_EVERY`` s until each is over (or long past
    its deadline). The deadlines each read showed while the match was on."""
    seen: dict[str, list] = {match_id: [] for match_id in watchers}
    give_up = time.time() + DEADLINE + 30
    while time.time() < give_up:
        playing = 0
        for match_id, guest in watchers.items():
            view = guest.call("GET", f"/spite-malice/matches/{match_id}")
            if view["status"] == "playing":
                playing += 1
                seen[match_id].append(view["deadline"])
        if not playing:
            break
        time.sleep(WATCH_EVERY)
    return seen


def finished_games(host: str, count: int) -> list[tuple[Guest, str]]:
    """``count`` guests, each with a finished Foursquare practice game."""
    done = []
    for _ in range(count):
        guest = Guest(host)
        game = guest.call("POST", "/games", {"mode": "practice"})
        while game["status"] == "playing":
            row, col = game["legal_moves"][0]
            game = guest.call("POST", f"/games/{game['id']}/moves",
                              {"row": row, "col": col, "move": game["moves_played"]})
        done.append((guest, game["id"]))
    return done


def bot_turns(host: str, turns: int) -> list[float]:
    """A guest plays the bot; the seconds from each action that ends the guest's turn to the
    bot's turn being over (seen by reading the match every 0.1 s)."""
    guest = Guest(host)
    match = guest.call("POST", "/spite-malice/matches", {"opponent": "bot", "level": "easy"})
    match = guest.call("GET", f"/spite-malice/matches/{match['id']}")
    seat = match["you"]
    latencies: list[float] = []
    while len(latencies) < turns and match["status"] == "playing":
        if match["game"]["turn"] != seat:
            started = time.monotonic()
            while match["status"] == "playing" and match["game"]["turn"] != seat:
                if time.monotonic() - started > 60:
                    raise RuntimeError("the bot's turn did not end within 60 s")
                time.sleep(0.1)
                match = guest.call("GET", f"/spite-malice/matches/{match['id']}")
            latencies.append(round(time.monotonic() - started, 2))
            continue
        match = act(guest, match)
    return latencies


def audit(load: LoadRun, deadlines: dict[str, datetime], seen: dict[str, list]) -> dict:
    violations = []
    lateness = {}
    with psycopg.connect(load.database_url, autocommit=True) as db:
        for match_id, deadline in deadlines.items():
            status, reason = db.execute(
                "SELECT status, reason FROM spitemalice_match WHERE id = %s",
                (match_id,)).fetchone()
            overs = db.execute(
                "SELECT created_at FROM spitemalice_event WHERE match_id = %s "
                "AND kind = 'match_over'", (match_id,)).fetchall()
            if (status, reason) != ("finished", "timeout"):
                violations.append(f"match {match_id} is {status}/{reason}, not timed out")
            if len(overs) != 1:
                violations.append(f"match {match_id} has {len(overs)} match_over events")
            if overs:
                late = (overs[0][0] - deadline).total_seconds()
                lateness[match_id] = round(late, 2)
                if not 0 <= late <= LATE_SECONDS:
                    violations.append(f"match {match_id} timed out {late:.1f} s after its "
                                      f"deadline")
            moved = {text for text in seen[match_id] if parse(text) != deadline}
            if moved:
                violations.append(f"match {match_id}: reads saw its deadline moved: {moved}")
    log = "\n".join(path.read_text(errors="replace") for path in
                    (load.workdir / "gunicorn.log", load.workdir / "jobs.log") if path.exists())
    if "was not alive" in log:
        violations.append("an outage was bridged: " + next(
            line for line in log.splitlines() if "was not alive" in line))
    return {"timed_out_after_deadline_s": lateness, "violations": violations}


def drill(name: str) -> dict:
    extra = {"SPITE_MALICE_BOT_SECONDS": "0"} if name == "clocks-long-job" else {}
    load = LoadRun(database=f"foursquare_drill_{name.replace('-', '_')}", extra_env=extra,
                   background="worker")
    ok = False
    try:
        load.create_database()
        load.start_server()
        load.start_jobs()
        summary: dict = {"drill": name, "matches": MATCHES, "deadline_in_s": DEADLINE}
        if name == "clocks-long-job":
            for guest, game_id in finished_games(load.host, ANALYSES):
                guest.call("GET", f"/games/{game_id}/analysis")
            summary["analyses_asked"] = ANALYSES
        stalled = [stalled_match(load.host) for _ in range(MATCHES)]
        if name == "clocks-worker":
            load.marks["fault"] = time.time()
            load.jobs.send_signal(signal.SIGTERM)
            load.jobs.wait(timeout=30)
            summary["worker_stopped"] = True
        deadlines = deadlines_near(load.database_url, [match_id for match_id, _ in stalled])
        if name == "clocks-long-job":
            summary["bot_turn_seconds"] = bot_turns(load.host, BOT_TURNS)
            with psycopg.connect(load.database_url, autocommit=True) as db:
                summary["analyses_not_done_after_the_bot_turns"] = db.execute(
                    "SELECT count(*) FROM games_job WHERE kind = 'game_analyse' "
                    "AND status IN ('pending', 'running')").fetchone()[0]
        seen = watch(dict(stalled), deadlines)
        load.stop_server()
        summary.update(audit(load, deadlines, seen))
        if name == "clocks-long-job":
            slow = [s for s in summary["bot_turn_seconds"] if s > BOT_SECONDS]
            if slow:
                summary["violations"].append(f"bot turns slower than {BOT_SECONDS} s: {slow}")
            if not summary["analyses_not_done_after_the_bot_turns"]:
                summary["violations"].append("no analysis was running beside the bot's turns")
        ok = summary["clean"] = not summary["violations"]
        return summary
    finally:
        load.cleanup(keep=not ok)
