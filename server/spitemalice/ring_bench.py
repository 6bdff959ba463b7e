"""A ring of aged accounts plays a pyramid to buy rank 1: what the board makes of it.

``python -m server.spitemalice.ring_bench [--accounts 10 30 60] [--through service|api]``
(``make bench-rings``) drops and creates the database ``ratings_bench`` (``--database-url``
names another; its name must contain "bench"), migrates it, and for each ring size:

1. an honest *field* of ``--field`` established accounts (claimed 60 days ago) with a
   realistic history: each played about ``--field-matches`` rated matches over the last 20
   days against opponents drawn at random, won or lost by a hidden strength (Elo's logistic
   curve on strengths drawn around 1500, standard deviation 200);
2. the ring: accounts claimed 2 days ago (established), and the pyramid, all of it now: each
   feeder beats the ones below it three times, from the bottom up, then the king beats all
   others three times. Each match is a rated invitation joined by the loser, played past its
   aborting turns (each seat discards at once, ``RATED_MIN_TURNS`` turns each) and resigned
   by the loser (one that the rules made unrated at the join is left at once: it is worth
   nothing to the ring); through the service layer, or with ``--through api`` through the API
   (Django's test client, the full stack);
3. the board before the hourly ring job and after one pass of it (``server.ratings.rings``).

It prints, per size: the matches played and rated, the seconds, the king's rating, deviation
and rank, how many ring accounts stand above the board's median established rating and on its
first page, before and after the job. The same functions serve the test
(``tests/server/ratings/test_rings.py``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/ratings_bench"
FIELD_DAYS = 20
FIRST_PAGE = 50


def aged_player(name: str | None, *, days: float):
    """A claimed account, claimed and created ``days`` ago: established for the ratings."""
    from django.utils import timezone

    from server.players import services as players
    from server.players.models import Player

    player, token = players.player_create(name=name)
    since = timezone.now() - timedelta(days=days)
    handle = f"user-{player.pk.hex[:12]}"
    Player.objects.filter(pk=player.pk).update(username=handle, username_key=handle,
                                               claimed_at=since, created_at=since)
    player.refresh_from_db()
    return player, token


def honest_field(count: int, matches_each: int, rng: random.Random) -> list:
    """``count`` established players whose ratings come from a realistic history (above),
    rated by the replay (the same steps as a match rated live) on a board that was empty."""
    from django.utils import timezone

    from server.players.models import Player
    from server.ratings.models import RatedMatch, Rating
    from server.ratings.replay import Result, ratings_replay
    from server.spitemalice.rating_rules import GAME

    since = timezone.now() - timedelta(days=60)
    batch = uuid.uuid4().hex[:8]
    players = Player.objects.bulk_create([
        Player(name=f"Field {index}", name_key=f"field-{batch}-{index}",
               username=f"field-{batch}-{index}", username_key=f"field-{batch}-{index}",
               claimed_at=since) for index in range(count)])
    Player.objects.filter(pk__in=[player.pk for player in players]).update(created_at=since)
    strength = {player.pk: rng.gauss(1500, 200) for player in players}
    start = timezone.now() - timedelta(days=FIELD_DAYS)
    total = count * matches_each // 2
    results = []
    for index in range(total):
        a, b = rng.sample(players, 2)
        expected = 1 / (1 + 10 ** ((strength[b.pk] - strength[a.pk]) / 400))
        results.append(Result(match_id=uuid.uuid4(), player_a=a.pk, player_b=b.pk,
                              score_a=1.0 if rng.random() < expected else 0.0,
                              at=start + timedelta(days=FIELD_DAYS - 1) * index / total))
    ratings_replay(game=GAME, results=results, rating_model=Rating,
                   rated_match_model=RatedMatch)
    return players


def pyramid(size: int) -> list[tuple[int, int]]:
    """(winner, loser) indices of the pyramid's matches in order: 0 is the king; each feeder
    beats the ones below it three times, from the bottom up; then the king beats all."""
    order = []
    for feeder in range(size - 2, 0, -1):
        for below in range(feeder + 1, size):
            order += [(feeder, below)] * 3
    for other in range(1, size):
        order += [(0, other)] * 3
    return order


def _discard(legal) -> list[str]:
    return list(next(action for action in legal if action[1].startswith("S")))


def play_by_service(winner, loser) -> None:
    """The winner invites, the loser joins; both discard at once until the match can no
    longer be aborted; the loser resigns. Through the service layer."""
    from django.db import transaction

    from server.spitemalice import services
    from server.spitemalice.engine import rebuild

    match = services.match_start_friend(player=winner, opponent=loser, target=1,
                                        turn_seconds=3600)
    players = {0: winner, 1: loser}
    while True:
        with transaction.atomic():
            locked, game = services.match_lock(player=winner, match_id=match.pk)
            if locked.is_over:
                return
            # Under way: its current game and a seat to play (for the checker).
            assert game is not None and locked.turn is not None
            if not locked.rated or not locked.is_abortable(game):
                # An unrated match is worth nothing to the ring: left at once (aborted).
                services.match_resign(match=locked, game=game, player=loser)
                return
            action = _discard([tuple(a) for a in rebuild(game).legal_actions()])
            services.action_play(match=locked, game=game, player=players[locked.turn],
                                 action=action, expected_game=None, expected_actions=None)


class ApiPlayer:
    """One account through the API (Django's test client: the full stack, no network)."""

    def __init__(self, token: str) -> None:
        from rest_framework.test import APIClient

        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def get(self, path: str) -> dict:
        response = self.client.get(f"/api/v1/{path}")
        assert response.status_code == 200, response.content
        return response.json()

    def post(self, path: str, body: dict | None = None) -> dict:
        response = self.client.post(f"/api/v1/{path}", body, format="json")
        assert response.status_code in (200, 201), response.content
        return response.json()


def play_by_api(winner: ApiPlayer, loser: ApiPlayer) -> None:
    """``play_by_service``'s match, every step a request."""
    match = winner.post("spite-malice/matches", {"opponent": "friend", "turn_seconds": 3600,
                                                 "target": 1})
    loser.post("spite-malice/matches/join", {"code": match["invite"]["code"]})
    path = f"spite-malice/matches/{match['id']}"
    seats = {0: winner, 1: loser}
    view = winner.get(path)
    while view["status"] == "playing" and view["rated"] and view["abortable"]:
        seat = view["game"]["turn"]
        view = seats[seat].get(path)
        game = view["game"]
        view = seats[seat].post(f"{path}/actions", {
            "action": _discard(game["legal_actions"]), "game": game["number"],
            "actions": game["actions"]})
    if view["status"] == "playing":
        loser.post(f"{path}/resign")


@dataclass
class Standing:
    king_rating: float | None
    king_deviation: float | None
    king_rank: int | None
    median: float
    above_median: int
    on_first_page: int
    held: int


def standing(ring_ids: list) -> Standing:
    """Where the ring stands on the board now (held accounts are off it)."""
    from server.ratings.models import Rating
    from server.ratings.selectors import board_page, rating_entry
    from server.spitemalice.rating_rules import GAME

    board = Rating.objects.filter(game=GAME, held=False, provisional=False)
    ring = set(ring_ids)
    honest = [row.rating for row in board if row.player_id not in ring]
    median = statistics.median(honest) if honest else math.nan
    shown = {row.player_id: row.rating for row in board if row.player_id in ring}
    page = board_page(game=GAME, limit=FIRST_PAGE)
    first = {entry.player_id for entry in page.results + page.provisional}
    king = Rating.objects.filter(game=GAME, player_id=ring_ids[0]).first()
    entry = rating_entry(king.player, GAME) if king is not None else None
    return Standing(
        king_rating=king.rating if king else None,
        king_deviation=king.deviation if king else None,
        king_rank=entry.rank if entry else None, median=median,
        above_median=sum(1 for value in shown.values() if value > median),
        on_first_page=len(first & ring),
        held=Rating.objects.filter(game=GAME, held=True, player_id__in=ring).count())


@dataclass
class Outcome:
    size: int
    matches: int
    rated: int
    seconds: float
    before: Standing
    after: Standing


def ring_run(size: int, *, through: str = "service") -> Outcome:
    """Play a pyramid of ``size`` fresh, aged accounts now; the board before and after one
    pass of the ring job."""
    from server.ratings import rings
    from server.ratings.models import RatedMatch
    from server.spitemalice.rating_rules import GAME

    accounts = [aged_player(None, days=2) for _ in range(size)]
    ids = [player.pk for player, _ in accounts]
    rated_before = RatedMatch.objects.filter(game=GAME).count()
    order = pyramid(size)
    began = time.perf_counter()
    if through == "api":
        apis = [ApiPlayer(token) for _, token in accounts]
        for winner, loser in order:
            play_by_api(apis[winner], apis[loser])
    else:
        for winner, loser in order:
            play_by_service(accounts[winner][0], accounts[loser][0])
    seconds = time.perf_counter() - began
    rated = RatedMatch.objects.filter(game=GAME).count() - rated_before
    before = standing(ids)
    rings.rings_detect(game=GAME)
    return Outcome(size, len(order), rated, seconds, before, standing(ids))


def _line(label: str, standing: Standing) -> str:
    king = ("not rated" if standing.king_rating is None else
            f"{standing.king_rating:.0f} RD {standing.king_deviation:.0f} rank "
            f"{standing.king_rank if standing.king_rank is not None else '-'}")
    return (f"  {label}: king {king}; board median {standing.median:.0f}; ring accounts above "
            f"it {standing.above_median}, on the first page {standing.on_first_page}, held "
            f"{standing.held}")


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"refusing to drop {name!r}: the benchmark database's name must contain 'bench'")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--through", choices=["service", "api"], default="service")
    parser.add_argument("--field", type=int, default=100, help="honest established players")
    parser.add_argument("--field-matches", type=int, default=20)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 DEFAULT_URL))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    recreate_database(args.database_url)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
    # The ring's own requests are not what is measured: lift the request limits.
    for scope in ("PLAYERS", "GAMES", "MOVES", "SEEKS", "CLAIMS"):
        for kind in ("TOKEN", "ADDRESS"):
            os.environ[f"FOURSQUARE_RATE_{scope}_{kind}"] = "off"
    os.environ.setdefault("FOURSQUARE_BACKGROUND", "off")
    import django
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    django.setup()
    setup_test_environment()  # the test client's host
    call_command("migrate", verbosity=0)
    from server.ratings.models import RatedMatch, Rating, Ring
    from server.spitemalice.rating_rules import PLAYER_RATED_PER_DAY

    rng = random.Random(args.seed)
    for size in args.accounts:
        Ring.objects.all().delete()
        RatedMatch.objects.all().delete()
        Rating.objects.all().delete()
        honest_field(args.field, args.field_matches, rng)
        outcome = ring_run(size, through=args.through)
        print(f"{size} accounts through the {args.through}: {outcome.matches} matches "
              f"({outcome.rated} rated; at most {PLAYER_RATED_PER_DAY} a player a day) in "
              f"{outcome.seconds:.0f} s; field of {args.field}")
        print(_line("before the ring job", outcome.before))
        print(_line("after the ring job", outcome.after))


if __name__ == "__main__":
    main()
