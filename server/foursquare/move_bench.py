"""What observing a request (its metrics and its log line) costs a move: the CPU of a move
answered on its fast path through the whole Django application, with the observation and
without it, in one sitting.

``python -m server.foursquare.move_bench [--moves 4000] [--rounds 6]`` (``make bench-moves``)
creates the database ``foursquare_move_bench`` (``--database-url``; its name must contain
"bench"), migrates it and plays practice games through Django's WSGI application as gunicorn's
threads call it: ``POST /api/v1/games/{id}/moves`` with a bearer token and an
``Idempotency-Key``, as the browser sends it. The metrics are in the multiprocess mode (a
folder of their own, as under gunicorn) and the log lines are written as production writes them
(JSON) to /dev/null. The rate limits are off, so the move's CPU here leaves out the limiter's
round trip to Redis (about 0.4 ms): the share printed is larger than under load.

Each round plays its moves in batches of 20 taken in turn by the application with
``RequestObservedMiddleware`` and one without it, so a machine that gets busier affects both
alike. It prints the CPU per move
(``time.process_time``, this process: Django, the engine, psycopg) of each, their difference
and its share; PostgreSQL's CPU is the same either way and is left out.

``--compare pages-only`` (``make bench-moves BENCH_MOVES_COMPARE=pages-only``) plays the same
moves through the application as served and through one whose sessions, users and messages
run for every request, as Django's own middleware does, instead of for the pages only
(``server.api.middleware.PagesOnly``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid

from server.core.wsgi_call import wsgi_call

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/foursquare_move_bench"
OBSERVER = "server.core.requestlog.RequestObservedMiddleware"
# The pages' middleware (server.api.middleware) and Django's own, which runs for every request.
EVERY_PATH = {f"server.api.middleware.Pages{name}": f"{module}.{name}" for module, name in (
    ("django.contrib.sessions.middleware", "SessionMiddleware"),
    ("django.contrib.auth.middleware", "AuthenticationMiddleware"),
    ("django.contrib.messages.middleware", "MessageMiddleware"))}
# What each comparison calls its two applications, and how the second's middleware differs.
COMPARISONS = {
    "observation": ("observed", "without",
                    lambda names: [name for name in names if name != OBSERVER]),
    "pages-only": ("pages-only", "every-path",
                   lambda names: [EVERY_PATH.get(name, name) for name in names]),
}
BATCH = 20


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=4000,
                        help="timed moves per round, each way")
    parser.add_argument("--rounds", type=int, default=6, help="rounds, alternating")
    parser.add_argument("--compare", choices=sorted(COMPARISONS), default="observation",
                        help="the two applications (see the module's text)")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_MOVES_DATABASE_URL",
                                                                 DEFAULT_URL))
    return parser.parse_args(argv)


class Player:
    """Plays practice games move after move through a WSGI application."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.game: dict | None = None

    def call(self, app, method: str, path: str, body: dict | None) -> tuple[int, dict]:
        return wsgi_call(app, method, path, body, token=self.token)

    def move(self, app) -> None:
        if self.game is None or self.game["status"] != "playing":
            status, self.game = self.call(app, "POST", "/api/v1/games", {"mode": "practice"})
            assert status == 201, self.game
        row, col = self.game["legal_moves"][0]
        status, game = self.call(app, "POST", f"/api/v1/games/{self.game['id']}/moves",
                                 {"row": row, "col": col, "move": self.game["moves_played"]})
        assert status == 200, game
        self.game = game


def main(argv=None) -> int:
    args = parse_args(argv)
    from server.foursquare.board_bench import recreate_database

    recreate_database(args.database_url)
    metrics_dir = tempfile.mkdtemp(prefix="foursquare-move-bench-metrics-")
    os.environ.update({
        "DATABASE_URL": args.database_url, "DJANGO_SETTINGS_MODULE": "server.settings",
        "PROMETHEUS_MULTIPROC_DIR": metrics_dir, "FOURSQUARE_LOG_FORMAT": "json",
        "DJANGO_LOG_LEVEL": "INFO",
        "FOURSQUARE_DATA_DIR": tempfile.mkdtemp(prefix="foursquare-move-bench-data-"),
    })
    for name in ("FOURSQUARE_RATE_GAMES_TOKEN", "FOURSQUARE_RATE_GAMES_ADDRESS",
                 "FOURSQUARE_RATE_MOVES_TOKEN", "FOURSQUARE_RATE_MOVES_ADDRESS"):
        os.environ[name] = "off"
    import logging

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.conf import settings
    from django.test.utils import override_settings

    from server.api.wsgi import ApiWSGIHandler
    from server.players import services as players

    devnull = open(os.devnull, "w")  # noqa: SIM115 - for the whole run
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):  # the settings' handlers all are
            handler.setStream(devnull)

    first, second, middleware_of = COMPARISONS[args.compare]
    served = ApiWSGIHandler()
    with override_settings(MIDDLEWARE=middleware_of(list(settings.MIDDLEWARE))):
        other = ApiWSGIHandler()
    apps = {first: served, second: other}
    _, token = players.player_create(name="Bench")
    player = Player(token)
    for app in apps.values():  # warm: prepared statements, the children of the metrics
        for _ in range(200):
            player.move(app)

    # Each round is made of batches of BATCH moves taken in turn by each application, so a
    # machine that gets busier or quieter within a round weighs on both alike.
    per_move: dict[str, list[float]] = {name: [] for name in apps}
    for round_number in range(args.rounds):
        spent = dict.fromkeys(apps, 0.0)
        order = (first, second) if round_number % 2 == 0 else (second, first)
        for _ in range(args.moves // BATCH):
            for name in order:
                started = time.process_time()
                for _ in range(BATCH):
                    player.move(apps[name])
                spent[name] += time.process_time() - started
        for name in apps:
            per_move[name].append(spent[name] * 1000 / (args.moves // BATCH * BATCH))

    first_ms = statistics.median(per_move[first])
    second_ms = statistics.median(per_move[second])
    print(f"moves: {args.rounds} rounds of {args.moves} moves each way, on the fast path")
    for name in apps:
        rounds = ", ".join(f"{ms:.3f}" for ms in per_move[name])
        print(f"  {name:10s} CPU per move (median of rounds) "
              f"{statistics.median(per_move[name]):.3f} ms  [rounds: {rounds}]")
    difference = first_ms - second_ms
    print(f"  {first} against {second}: {difference * 1000:+.1f} µs per move, "
          f"{difference / second_ms * 100:+.1f} % of a move's CPU in this process; "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.compare != "observation":
        return 0

    print("  (on a shared machine the rounds vary by more than the difference; the timings "
          "below are steadier)")
    _observation_alone(player)
    return 0


def _timed_us(work, count: int) -> float:
    for _ in range(min(2000, count)):
        work()
    started = time.process_time()
    for _ in range(count):
        work()
    return (time.process_time() - started) * 1e6 / count


def _observation_alone(player: Player) -> None:
    """The middleware around an answer made in advance, for a move's route: what it adds to
    any request, with and without its log line; and the fast path's own count of a move."""
    import logging

    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.urls import resolve

    from server.core.requestlog import RequestObservedMiddleware
    from server.foursquare import metrics

    assert player.game is not None  # started by the caller
    request = RequestFactory().post(f"/api/v1/games/{player.game['id']}/moves",
                                    HTTP_X_REQUEST_ID=uuid.uuid4().hex)
    request.resolver_match = resolve(request.path_info)
    answer = HttpResponse(b"{}", content_type="application/json")
    observer = RequestObservedMiddleware(lambda _request: answer)
    count = 50_000
    whole = _timed_us(lambda: observer(request), count)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.WARNING)
    try:
        quiet = _timed_us(lambda: observer(request), count)
    finally:
        root.setLevel(level)
    increment = _timed_us(metrics.moves_stored_fast.inc, 200_000)
    print(f"  the observation alone, per request: {whole:.1f} µs (its metrics and request id "
          f"{quiet:.1f} µs, its JSON log line {whole - quiet:.1f} µs); the fast path's count "
          f"of a move stored: {increment:.2f} µs")


if __name__ == "__main__":
    sys.exit(main())
