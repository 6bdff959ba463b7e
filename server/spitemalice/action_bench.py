"""What a Spite & Malice action costs against a Foursquare move, in process, without the
noise of a load on a shared machine: the CPU of each request through the whole Django
application, as gunicorn's threads call it.

``python -m server.spitemalice.action_bench [--requests 2000] [--rounds 5]``
(``make bench-actions``) creates the database ``spite_malice_action_bench``
(``--database-url``; its name must contain "bench"), migrates it and plays, through Django's
WSGI application, with a bearer token and an ``Idempotency-Key`` on every write as the load's
players send them:

- **friend**: pairs of people in friend matches (``target`` 1: a match ends after its game
  and the pair starts another), each action chosen as ``make load``'s players choose;
- **bot**: single games against the ``easy`` bot, whose replies are played in the request;
- **move**: Foursquare practice games, the first legal move each time (``make bench-moves``).

With ``--reads`` (``make bench-actions BENCH_ACTIONS_ARGS=--reads``), two reads the load's
players also make are timed beside them:

- **board**: today's day board (``GET /leaderboard?period=day``), read in turn by a player who
  started today's daily (their standing, from their game's status) and by a visitor;
- **page**: a match's page (``GET /spite-malice/matches/{id}``) of a bot match in play, as a
  browser opens it or the socket's fallback polls it.

Only the writes (and with ``--reads`` those two reads) are timed (``time.process_time``, this
process: Django, the engines, psycopg, redis-py and the thread that hands the notices to the
channel layer); the reads a seat makes to see its turn, and the starts of matches and games,
are not. With ``REDIS_URL`` set (the
default here, as ``make load`` serves) the rate limit's round trip and the notices'
``PUBLISH`` are in the figure, as under load; the sockets that would forward the notices are
not (``make load`` measures them). PostgreSQL's CPU is left out.

Each round plays batches of 20 of each kind in turn, so a machine that gets busier affects
all alike; it prints the CPU per request of each kind (the median of the rounds, and each
round) and the ratio of an action to a move.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from typing import Any

from server.core.wsgi_call import wsgi_call

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/spite_malice_action_bench"
BATCH = 20
API = "/api/v1"
# The load's limits (loadtest.run.LOAD_RATES): every request is counted, none refused.
RATES = {
    "FOURSQUARE_RATE_PLAYERS_ADDRESS": "100000/hour",
    "FOURSQUARE_RATE_GAMES_TOKEN": "100000/min",
    "FOURSQUARE_RATE_GAMES_ADDRESS": "100000/min",
    "FOURSQUARE_RATE_MOVES_TOKEN": "100000/min",
    "FOURSQUARE_RATE_MOVES_ADDRESS": "1000000/min",
    "FOURSQUARE_RATE_BOARDS_TOKEN": "100000/min",
    "FOURSQUARE_RATE_BOARDS_ADDRESS": "1000000/min",
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000,
                        help="timed requests of each kind per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_ACTIONS_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--redis-url", default=os.environ.get(
        "BENCH_ACTIONS_REDIS_URL", "redis://127.0.0.1:6379/0"),
        help='the cache and channel layer ("" for neither: a memory cache, no notices)')
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reads", action="store_true",
                        help="time a day board's and a match page's reads too")
    return parser.parse_args(argv)


def recreate_database(url: str) -> None:
    import psycopg

    server, _, name = url.rpartition("/")
    if "bench" not in name:
        raise SystemExit(f"the bench drops its database: {name!r} must contain 'bench'")
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


class Client:
    """One player's requests to a WSGI application; ``spent`` sums the CPU of the timed
    ones."""

    def __init__(self, app: Any, token: str | None) -> None:
        self.app, self.token = app, token
        self.spent = 0.0
        self.timed = 0

    def call(self, method: str, path: str, body: dict | None = None, *,
             timed: bool = False, query: str = "") -> tuple[int, dict]:
        began = time.process_time()
        status, answer = wsgi_call(self.app, method, path, body, token=self.token, query=query)
        if timed:
            self.spent += time.process_time() - began
            self.timed += 1
        return status, answer


def choose(legal: list[list[str]], rng: random.Random) -> list[str]:
    """As ``make load``'s players choose (``loadtest/sm_locustfile.py`` uses this one): a
    pay-off play when there is one; else mostly a centre play; else a discard."""
    payoff = [action for action in legal if action[0] == "P"]
    if payoff:
        return rng.choice(payoff)
    centre = [action for action in legal if action[1].startswith("C")]
    if centre and rng.random() < 0.8:
        return rng.choice(centre)
    discards = [action for action in legal if action[1].startswith("S")]
    return rng.choice(discards or legal)


def _ok(status: int, answer: dict, expected: int = 200) -> dict:
    if status != expected:
        raise SystemExit(f"unexpected answer {status}: {answer}")
    return answer


class FriendPair:
    """Two people in friend matches, one after another; ``act`` plays one action."""

    def __init__(self, host: Client, guest: Client, rng: random.Random) -> None:
        self.clients, self.rng = (host, guest), rng
        self.match: dict | None = None

    def _start(self) -> dict:
        host, guest = self.clients
        made = _ok(*host.call("POST", f"{API}/spite-malice/matches", {
            "opponent": "friend", "turn_seconds": 86400, "target": 1}), 201)
        _ok(*guest.call("POST", f"{API}/spite-malice/matches/join",
                        {"code": made["invite"]["code"]}))
        return self._view(made["id"])

    def _view(self, match_id: str) -> dict:
        """The match as the seat to act sees it (read untimed: the load's players take it
        from their socket's draw event)."""
        for client in self.clients:
            status, match = client.call("GET", f"{API}/spite-malice/matches/{match_id}")
            _ok(status, match)
            if match["your_turn"] or match["status"] != "playing":
                return match
        return match

    def act(self) -> None:
        if self.match is None or self.match["status"] != "playing":
            self.match = self._start()
        match, game = self.match, self.match["game"]
        client = self.clients[match["you"]]
        answer = _ok(*client.call("POST", f"{API}/spite-malice/matches/{match['id']}/actions", {
            "action": choose(game["legal_actions"], self.rng), "game": game["number"],
            "actions": game["actions"]}, timed=True))
        self.match = answer if answer["your_turn"] or answer["status"] != "playing" else (
            self._view(answer["id"]))


class BotPlayer:
    """Single games against the ``easy`` bot, one after another."""

    def __init__(self, client: Client, rng: random.Random) -> None:
        self.client, self.rng = client, rng
        self.match: dict | None = None
        self.clients = (client,)

    def act(self) -> None:
        if self.match is None or self.match["status"] != "playing":
            self.match = _ok(*self.client.call("POST", f"{API}/spite-malice/matches", {
                "opponent": "bot", "level": "easy", "target": 1}), 201)
        match = self.match
        if not match["your_turn"]:  # the bot's turn went on in the background: wait for it
            time.sleep(0.05)
            self.match = _ok(*self.client.call("GET", f"{API}/spite-malice/matches/{match['id']}"))
            return
        game = match["game"]
        self.match = _ok(*self.client.call(
            "POST", f"{API}/spite-malice/matches/{match['id']}/actions", {
                "action": choose(game["legal_actions"], self.rng), "game": game["number"],
                "actions": game["actions"]}, timed=True))


class Mover:
    """Foursquare practice games, the first legal move each time (``make bench-moves``)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.game: dict | None = None
        self.clients = (client,)

    def act(self) -> None:
        if self.game is None or self.game["status"] != "playing":
            self.game = _ok(*self.client.call("POST", f"{API}/games", {"mode": "practice"}), 201)
        row, col = self.game["legal_moves"][0]
        self.game = _ok(*self.client.call("POST", f"{API}/games/{self.game['id']}/moves", {
            "row": row, "col": col, "move": self.game["moves_played"]}, timed=True))


class BoardReader:
    """Today's day board, read in turn by a player who started today's daily and by a
    visitor."""

    def __init__(self, player: Client, visitor: Client) -> None:
        self.clients = (player, visitor)
        self.reads = 0
        _ok(*player.call("POST", f"{API}/games", {"mode": "daily"}), 201)

    def act(self) -> None:
        client = self.clients[self.reads % 2]
        self.reads += 1
        _ok(*client.call("GET", f"{API}/leaderboard", query="period=day", timed=True))


class PageReader:
    """A bot match's page, read while the match is in play."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.clients = (client,)
        self.match = _ok(*client.call("POST", f"{API}/spite-malice/matches", {
            "opponent": "bot", "level": "easy", "target": 1}), 201)

    def act(self) -> None:
        _ok(*self.client.call("GET", f"{API}/spite-malice/matches/{self.match['id']}",
                              timed=True))


def _cpu(players: list[Any]) -> tuple[float, int]:
    return (sum(client.spent for player in players for client in player.clients),
            sum(client.timed for player in players for client in player.clients))


def _play(players: list[Any], count: int) -> None:
    """``count`` timed requests, the players taking turns."""
    done = _cpu(players)[1]
    index = 0
    while _cpu(players)[1] - done < count:
        players[index % len(players)].act()
        index += 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    recreate_database(args.database_url)
    os.environ.update({
        "DATABASE_URL": args.database_url, "DJANGO_SETTINGS_MODULE": "server.settings",
        "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="action-bench-metrics-"),
        "FOURSQUARE_LOG_FORMAT": "json", "DJANGO_LOG_LEVEL": "WARNING",
        "FOURSQUARE_DATA_DIR": tempfile.mkdtemp(prefix="action-bench-data-"),
        "REDIS_URL": args.redis_url, "REDIS_KEY_PREFIX": f"action-bench-{os.getpid()}",
        "FOURSQUARE_BACKGROUND": "off", **RATES,
    })
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from server.api.wsgi import ApiWSGIHandler
    from server.players import services as players

    app = ApiWSGIHandler()
    rng = random.Random(args.seed)

    def client(name: str) -> Client:
        return Client(app, players.player_create(name=name)[1])

    kinds: dict[str, list[Any]] = {
        "friend": [FriendPair(client(f"Host {n}"), client(f"Guest {n}"), rng) for n in range(4)],
        "bot": [BotPlayer(client(f"Solo {n}"), rng) for n in range(2)],
        "move": [Mover(client(f"Mover {n}")) for n in range(2)],
    }
    if args.reads:
        kinds["board"] = [BoardReader(client("Reader"), Client(app, None))]
        kinds["page"] = [PageReader(client(f"Viewer {n}")) for n in range(2)]
    for group in kinds.values():  # warm: prepared statements, positions kept, the script
        _play(group, 200)

    per_request: dict[str, list[float]] = {kind: [] for kind in kinds}
    names = list(kinds)
    for round_number in range(args.rounds):
        before = {kind: _cpu(group) for kind, group in kinds.items()}
        order = names if round_number % 2 == 0 else names[::-1]
        for _ in range(args.requests // BATCH):
            for kind in order:
                _play(kinds[kind], BATCH)
        for kind, group in kinds.items():
            spent, count = _cpu(group)
            per_request[kind].append((spent - before[kind][0]) * 1000
                                     / (count - before[kind][1]))

    medians = {kind: statistics.median(values) for kind, values in per_request.items()}
    print(f"CPU per request in this process, {args.rounds} rounds of {args.requests} of each "
          f"kind (cache and channel layer: {args.redis_url or 'memory'}; load average "
          f"{os.getloadavg()[0]:.1f})")
    for kind, values in per_request.items():
        rounds = ", ".join(f"{ms:.3f}" for ms in values)
        print(f"  {kind:7s} {medians[kind]:.3f} ms  [rounds: {rounds}]")
    for kind in ("friend", "bot"):
        print(f"  {kind} action / move: {medians[kind] / medians['move']:.2f}x")
    for kind in ("board", "page"):
        if kind in medians:
            print(f"  {kind} / move: {medians[kind] / medians['move']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
