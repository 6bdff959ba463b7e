"""Leaderboard speed with a million finished dailies on one date, in PostgreSQL.

``python -m server.foursquare.board_bench [--rows 1000000]`` (``make bench-boards``) drops and
creates the database ``foursquare_bench`` (``--database-url`` names another; its name must contain
"bench", so the tests' database is never touched), migrates it and loads ``--rows`` players
who each finished today's daily, most of them winning. Every player is a claimed account
created the day before, so every game is ranked: it counts on the boards of every player's
dailies (what leagues read) and on the ranked ones (what the global boards read). Players
and games are generated in the database (``INSERT ... SELECT`` over ``generate_series``,
100,000 rows a statement, with a progress bar); boards, standings and score counts are then
derived in SQL as the hooks in ``services`` would leave them, and the last ``--hooked`` games
are finished through ``daily_result_record`` itself, which times the write path at that size
too.

It then prints p50/p95/p99 of:

* in the database: ``EXPLAIN (ANALYZE, TIMING OFF)`` planning + execution time of the one
  statement the API runs for a page (``selectors.board_sql``): "my rank" (a token,
  ``limit=1``: your entry, rank and standing), the top 50, and around you, for sampled players;
* end to end: requests through Django's full stack (middleware, token authentication, view,
  JSON) with the test client, no network: the top 50 anonymously, "my rank" with a token
  (``limit=1``: your entry and standing) and ``around=me``; and the Python CPU time per request
  with the machine's load average, since the wall-clock figures depend on what else runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/foursquare_bench"
BATCH = 100_000


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="finished dailies")
    parser.add_argument("--win-rate", type=float, default=0.9)
    parser.add_argument("--samples", type=int, default=300, help="timed requests of each kind")
    parser.add_argument("--hooked", type=int, default=2_000,
                        help="games finished through the service, timed")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 DEFAULT_URL))
    parser.add_argument("--seed", type=int, default=2026)
    return parser.parse_args(argv)


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


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return f"p50 {cuts[49]:7.2f}  p95 {cuts[94]:7.2f}  p99 {cuts[98]:7.2f} ms"


def insert_select(model, expressions: dict) -> tuple[str, list]:
    """``INSERT INTO model (every column) SELECT ...`` from the row source ``x`` (one row per
    generated number ``x.i``). ``expressions`` give SQL for some fields (a string, or a pair
    of SQL and its parameters); the others take their default as a parameter, so a field added
    later with a default needs no change here. Run it with ``[low, high, *params]``."""
    from django.db import connection

    columns, values, params = [], [], []
    for field in model._meta.concrete_fields:
        columns.append(f'"{field.column}"')
        expression = expressions.get(field.attname)
        if expression is None:
            values.append("%s")
            params.append(field.get_db_prep_save(field.get_default(), connection))
        else:
            sql, more = expression if isinstance(expression, tuple) else (expression, [])
            values.append(sql)
            params += more
    sql = (f"WITH x AS ({ROW_SOURCE}) INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
           f"SELECT {', '.join(values)} FROM x")
    return sql, params


# One generated row: its number and the random draws that decide its game.
ROW_SOURCE = (
    "SELECT i, random() AS won, random() AS u1, random() AS u2, random() AS t "
    "FROM generate_series(%s::int, %s::int) AS i"
)
PLAYER_ID = "md5('bench-player-' || x.i)::uuid"


@contextmanager
def bulk_loading(*models):
    """Drop the tables' secondary indexes, unique and foreign-key constraints while rows pour
    in, and build them again afterwards from their saved definitions: one sort per index and
    one pass per foreign key instead of a million small updates and checks."""
    from django.db import connection
    from tqdm import tqdm

    tables = [model._meta.db_table for model in models]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), contype "
            "FROM pg_constraint WHERE conrelid::regclass::text = ANY(%s) AND contype IN ('u', 'f')",
            [tables])
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "WHERE i.indrelid::regclass::text = ANY(%s) AND NOT i.indisprimary AND NOT EXISTS "
            "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)", [tables])
        indexes = cursor.fetchall()
        for table, name, _, _ in sorted(constraints, key=lambda row: row[3]):  # f before u
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {name}")
    yield
    with connection.cursor() as cursor:
        for _, definition in tqdm(indexes, desc="indexes", unit=" indexes"):
            cursor.execute(definition)
        for table, name, definition, _ in tqdm(sorted(constraints, key=lambda row: row[3],
                                                      reverse=True),
                                               desc="constraints", unit=" constraints"):
            cursor.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')


def in_batches(sql: str, params: list, *, rows: int, label: str, seed: float) -> None:
    from django.db import connection
    from tqdm import tqdm

    with connection.cursor() as cursor, tqdm(total=rows, desc=label, unit=" rows",
                                             unit_scale=True) as bar:
        cursor.execute("SELECT setseed(%s)", [seed])
        for low in range(1, rows + 1, BATCH):
            high = min(low + BATCH - 1, rows)
            cursor.execute(sql, [low, high, *params])
            bar.update(high - low + 1)


def load(args) -> None:
    """Players and their finished dailies, most of them won."""
    from django.db import connection, transaction
    from tqdm import tqdm

    from server.boards import services
    from server.boards.models import Board, ScoreCount, Standing
    from server.boards.periods import keys_of_game
    from server.dailies import calendar
    from server.foursquare import dailies
    from server.foursquare.models import Game
    from server.players.models import Player

    day = calendar.utc_today()
    daily = dailies.daily_get_or_create(day)
    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
    claimed = start - timedelta(days=1)  # trusted on today's daily: every game is ranked
    seed = (args.seed % 1000) / 1000
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit = off")

    with bulk_loading(Player, Game, Standing, ScoreCount):
        sql, params = insert_select(Player, {
            "id": PLAYER_ID, "password": "'!'", "created_at": ("%s", [claimed]),
            "claimed_at": ("%s", [claimed]), "username": "'bench' || lpad(x.i::text, 7, '0')",
            "username_key": "'bench' || lpad(x.i::text, 7, '0')",
            "name": "'Bench ' || lpad(x.i::text, 7, '0')",
            "name_key": "'bench' || lpad(x.i::text, 7, '0')",
        })
        in_batches(sql, params, rows=args.rows, label="players", seed=seed)

        # Wins with many cards left are rare: a score is Gamma(2, 2.5), capped at 24.
        won = f"x.won < {float(args.win_rate)} AND x.i <= {args.rows - args.hooked}"
        draw = "least(24, floor(-2.5 * ln(greatest(x.u1 * x.u2, 1e-9))))"
        score = f"CASE WHEN {won} THEN {draw} END"
        finished = f"'{start.isoformat()}'::timestamptz + x.t * interval '86000 seconds'"
        sql, params = insert_select(Game, {
            "id": "md5('bench-game-' || x.i)::uuid", "player_id": PLAYER_ID, "mode": "'daily'",
            "daily_id": ("%s", [day]), "deal_id": ("%s", [daily.deal_id]),
            "move_list": "'[]'::jsonb", "ranked": "true",
            "status": f"CASE WHEN x.i > {args.rows - args.hooked} THEN 'playing' "
                      f"WHEN {won} THEN 'won' ELSE 'lost' END",
            "score": score, "moves_played": f"40 - coalesce({score}, 0)",
            "finished_at": f"CASE WHEN x.i <= {args.rows - args.hooked} THEN {finished} END",
            "created_at": ("%s", [start]), "updated_at": ("%s", [start]),
        })
        in_batches(sql, params, rows=args.rows, label="games", seed=seed)

        keys = keys_of_game(day, True)
        Board.objects.bulk_create(Board(key=key, kind=services.kind_of(key)) for key in keys)
        game_table = Game._meta.db_table
        with connection.cursor() as cursor:
            # With one daily loaded, its week and all time hold the same standings as its day;
            # every game being ranked, so do their ranked boards.
            for board in tqdm(Board.objects.order_by("id"), desc="standings", unit=" boards"):
                cursor.execute(
                    f"INSERT INTO {services.STANDING} (board_id, player_id, games, wins, total, "
                    "best, reached_at) SELECT %s, g.player_id, 1, (g.status = 'won')::int, "
                    "COALESCE(g.score, 0), g.score, CASE WHEN g.status = 'won' THEN g.finished_at "
                    f"END FROM {game_table} g WHERE g.daily_id = %s AND g.mode = 'daily'",
                    [board.pk, day])
            cursor.execute(
                f"INSERT INTO {services.SCORE_COUNT} (board_id, total, wins, count) "
                f"SELECT board_id, total, wins, COUNT(*) FROM {services.STANDING} WHERE wins > 0 "
                "GROUP BY board_id, total, wins")
            cursor.execute(
                f"UPDATE {services.BOARD} b SET players = s.players, winners = s.winners FROM "
                "(SELECT board_id, COUNT(*) AS players, "
                "COUNT(*) FILTER (WHERE wins > 0) AS winners "
                f"FROM {services.STANDING} GROUP BY board_id) s WHERE s.board_id = b.id")

    rng = random.Random(args.seed)
    hook_times = []
    games = Game.objects.filter(status="playing", daily_id=day).select_related("daily")
    for game in tqdm(list(games), desc="finishes through the service", unit=" games"):
        won_now = rng.random() < args.win_rate
        game.status = "won" if won_now else "lost"
        game.score = min(24, int(rng.gammavariate(2.0, 2.5))) if won_now else None
        game.finished_at = start + timedelta(seconds=rng.uniform(0, 86_000))
        begin = time.perf_counter()
        with transaction.atomic():
            game.save(update_fields=["status", "score", "finished_at"])
            services.daily_result_record(game=game)
        hook_times.append((time.perf_counter() - begin) * 1000)

    with connection.cursor() as cursor:
        for model in tqdm((Player, Game, Board, Standing, ScoreCount), desc="VACUUM ANALYZE"):
            cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")
    if hook_times:
        print(f"finishing a daily (UPDATE game + boards, one transaction), {len(hook_times)} "
              f"games: {percentiles(hook_times)}")


def sample_players(status: str, count: int) -> list:
    from server.foursquare.models import Game

    return list(Game.objects.filter(status=status).order_by("?")
                .values_list("player_id", flat=True)[:count])


def explain_ms(cursor, sql: str, params: list) -> float:
    # TIMING OFF: the total, without the cost of timing every node of the plan.
    cursor.execute(f"EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {sql}", params)
    plan = cursor.fetchone()[0]
    plan = plan[0] if isinstance(plan, list) else plan
    return plan["Execution Time"] + plan["Planning Time"]


def plan_text(cursor, sql: str, params: list) -> str:
    cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}", params)
    return "\n".join(row[0] for row in cursor.fetchall())


def measure_database(args) -> None:
    from django.db import connection

    from server.boards.periods import day_key, ranked_key
    from server.boards.selectors import board_sql
    from server.dailies.calendar import utc_today

    key = ranked_key(day_key(utc_today()))  # the global day board
    sample = sample_players("won", args.samples) + sample_players("lost", args.samples // 5)
    statements = {
        "my rank (limit=1)": [board_sql(key=key, viewer_id=player, limit=1) for player in sample],
        "top 50": [board_sql(key=key, limit=50)] * args.samples,
        "around me (11)": [board_sql(key=key, viewer_id=player, limit=11, around=True)
                           for player in sample],
    }
    with connection.cursor() as cursor:
        for _ in range(20):  # warm the caches
            explain_ms(cursor, *statements["top 50"][0])
        print("\nin the database, the whole statement of a page "
              "(EXPLAIN ANALYZE, TIMING OFF: planning + execution):")
        for name, runs in statements.items():
            print(f"  {name:18} {percentiles([explain_ms(cursor, *run) for run in runs])}")
        for name in ("my rank (limit=1)", "top 50"):
            print(f"\nEXPLAIN ANALYZE, {name}:\n" + plan_text(cursor, *statements[name][0]))


def measure_api(args) -> None:
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings

    from server.dailies.calendar import utc_today
    from server.players.models import Player
    from server.players.tokens import token_issue

    day = utc_today().isoformat()
    url = f"/api/v1/daily/{day}/leaderboard"
    client = Client(HTTP_HOST="localhost")
    players = Player.objects.filter(pk__in=sample_players("won", args.samples))
    tokens = [token_issue(player=player) for player in players]

    def timed(path, token=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        begin = time.perf_counter()
        response = client.get(path, **headers)
        elapsed = (time.perf_counter() - begin) * 1000
        assert response.status_code == 200, response.content
        return elapsed

    # 1,500 reads from one address in seconds: the boards' limits would refuse most of them.
    # Off here, as in make load; the limiter's own cost (one Redis call) is not in these figures.
    unlimited = {**settings.THROTTLE_RATES, "boards.token": "off", "boards.address": "off"}
    with override_settings(THROTTLE_RATES=unlimited):
        for token in tokens:  # warm up, and mark every token used (no write when timed)
            timed(f"{url}?limit=1", token)
        cpu = time.process_time()
        runs = {
            "top 50, anonymous": [timed(f"{url}?limit=50") for _ in range(args.samples)],
            "my rank (limit=1, token)": [timed(f"{url}?limit=1", token) for token in tokens],
            "around=me, 11 entries": [timed(f"{url}?around=me&limit=11", token)
                                      for token in tokens],
            "top 50 + me (token)": [timed(f"{url}?limit=50", token) for token in tokens],
        }
    cpu_each = (time.process_time() - cpu) * 1000 / sum(len(times) for times in runs.values())
    print("\nend to end through the API (Django test client, in process):")
    for name, times in runs.items():
        print(f"  {name:26} {percentiles(times)}")
    print(f"  Python CPU per request, mean: {cpu_each:.2f} ms; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main(argv=None) -> None:
    args = parse_args(argv)
    began = time.perf_counter()
    recreate_database(args.database_url)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    load(args)
    print(f"loaded {args.rows:,} finished dailies in {time.perf_counter() - began:.0f} s")
    measure_database(args)
    measure_api(args)


if __name__ == "__main__":
    main()
