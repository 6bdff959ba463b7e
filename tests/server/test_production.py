"""What a deployment relies on: production settings, rate limits, and errors that stay problems.

Settings are read once per process, so the production settings are checked in a child process
with the environment a deployment would have.
"""

import json
import logging
import os
import subprocess
import sys
import uuid
from pathlib import Path
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError

from server.api.throttling import cache_health, parse_rate
from server.foursquare import fastmove, selectors, services
from tests.server.conftest import Api, assert_problem

REPO_ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": "a production key, long and random: kX9-Qm2+Zr7_Lp4!Wd8@Hs3#Tn6",
    "DJANGO_ALLOWED_HOSTS": "foursquare.example",
    "FOURSQUARE_DAILY_SECRET": "a daily secret nobody else knows",
    "SPITE_MALICE_DAILY_SECRET": "another daily secret nobody else knows",
    "FAIRNESS_SIGNING_KEY": "the signing key's secret, fifty characters or more: q8Zr-2Lm",
    "DATABASE_URL": "postgres://foursquare@db.internal:5432/foursquare",
    "REDIS_URL": "redis://cache.internal:6379/0",
}


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items()
             if not key.startswith(("DJANGO_", "FOURSQUARE_", "SPITE_MALICE_", "REDIS_",
                                                    "DATABASE_"))}
    return subprocess.run([sys.executable, *code], cwd=REPO_ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def _settings_in(env: dict[str, str], *names: str) -> dict:
    code = ("import json, server.settings as s; "
            f"print(json.dumps({{n: getattr(s, n, None) for n in {list(names)!r}}}))")
    result = _python(["-c", code], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _refusal(env: dict[str, str]) -> str:
    result = _python(["-c", "import server.settings"], env)
    assert result.returncode != 0, "the settings accepted an unsafe production configuration"
    assert "ImproperlyConfigured" in result.stderr
    return result.stderr


# --- Production settings -----------------------------------------------------------------------


def test_check_deploy_is_clean_with_production_settings():
    result = _python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                     PRODUCTION_ENV)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_are_secure():
    values = _settings_in(PRODUCTION_ENV, "DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
                          "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "CACHES")

    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"]
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] >= 365 * 24 * 3600
    assert values["CACHES"]["default"]["BACKEND"].endswith("RedisCache")


def test_a_public_host_name_means_production():
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "DJANGO_ENV"}

    assert _settings_in(env, "PRODUCTION")["PRODUCTION"] is True
    assert _settings_in({}, "PRODUCTION")["PRODUCTION"] is False


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "FOURSQUARE_DAILY_SECRET",
                                     "SPITE_MALICE_DAILY_SECRET", "FAIRNESS_SIGNING_KEY",
                                     "DJANGO_ALLOWED_HOSTS"])
def test_production_refuses_to_start_without_its_secrets(missing):
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != missing}

    assert missing in _refusal(env)


@pytest.mark.parametrize(("change", "reason"), [
    ({"DJANGO_DEBUG": "true"}, "DJANGO_DEBUG must be off in production"),
    ({"DJANGO_SECRET_KEY": "short-and-guessable"}, "DJANGO_SECRET_KEY is too weak for production"),
], ids=["debug", "weak-key"])
def test_production_refuses_debug_and_weak_keys(change, reason):
    assert reason in _refusal({**PRODUCTION_ENV, **change})


# --- Rate limits -------------------------------------------------------------------------------


def _move(api: Api, game: dict, number: int, **extra):
    row, col = game["legal_moves"][0]
    return api.post(f"games/{game['id']}/moves", {"row": row, "col": col, "move": number}, **extra)


def test_rates_read_like_drf():
    assert parse_rate("240/min") == (240, 60)
    assert parse_rate("5/s") == (5, 1)
    assert parse_rate("off") is None
    with pytest.raises(ValueError, match="fast"):
        parse_rate("fast")


def test_moves_over_the_token_limit_are_429_with_retry_after(settings, make_player):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "2/min"}
    _, ada = make_player()
    _, bob = make_player()
    game = ada.post("games", {"mode": "practice"}).json()
    for number in range(2):
        response = _move(ada, game, number)
        assert response.status_code == 200
        game = response.json()

    refused = _move(ada, game, 2)

    body = assert_problem(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Traceback" not in json.dumps(body)
    assert ada.get(f"games/{game['id']}").json()["moves_played"] == 2  # nothing changed
    # Another player behind the same address has a count of their own.
    other = bob.post("games", {"mode": "practice"}).json()
    assert _move(bob, other, 0).status_code == 200


def test_player_creation_is_limited_per_address_and_forwarded_for_cannot_dodge_it(settings, api,
                                                                                db):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "players.address": "2/hour"}
    assert api.post("players", {}).status_code == 201
    assert api.post("players", {}, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 201

    refused = api.post("players", {}, HTTP_X_FORWARDED_FOR="198.51.100.7")

    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) <= 3600
    assert api.post("players", {}, REMOTE_ADDR="192.0.2.1").status_code == 201


def test_behind_a_proxy_each_forwarded_address_has_its_own_count(settings, api, db):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "players.address": "1/hour"}
    # The proxy appends the address it saw; what the client wrote before it is not trusted.
    first = {"HTTP_X_FORWARDED_FOR": "10.9.9.9, 203.0.113.9", "REMOTE_ADDR": "192.0.2.50"}
    assert api.post("players", {}, **first).status_code == 201
    again = {"HTTP_X_FORWARDED_FOR": "10.1.1.1, 203.0.113.9", "REMOTE_ADDR": "192.0.2.51"}
    assert_problem(api.post("players", {}, **again), 429, "throttled")
    other = {"HTTP_X_FORWARDED_FOR": "203.0.113.10", "REMOTE_ADDR": "192.0.2.50"}
    assert api.post("players", {}, **other).status_code == 201
    # An empty trusted entry counts against the proxy's own address, never against nobody.
    empty = {"HTTP_X_FORWARDED_FOR": "203.0.113.11, ", "REMOTE_ADDR": "192.0.2.60"}
    assert api.post("players", {}, **empty).status_code == 201
    assert_problem(api.post("players", {}, HTTP_X_FORWARDED_FOR=" ", REMOTE_ADDR="192.0.2.60"),
                   429, "throttled")


def test_game_creation_is_limited_per_token(settings, player_api):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "games.token": "1/min"}
    assert player_api.post("games", {"mode": "practice"}).status_code == 201

    assert_problem(player_api.post("games", {"mode": "practice"}), 429, "throttled")
    assert player_api.get("games").status_code == 200  # reads are never throttled


def test_league_joins_are_limited_per_token_so_codes_cannot_be_guessed(settings, player_api):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "leagues.token": "2/min"}
    for code in ("GUESS234", "GUESS235"):
        assert_problem(player_api.post("leagues/join", {"code": code}), 404, "not_found")

    refused = player_api.post("leagues/join", {"code": "GUESS236"})

    assert_problem(refused, 429, "throttled")
    assert player_api.get("leagues").status_code == 200  # reading your leagues is not counted


def test_public_board_reads_are_limited_per_address(settings, api, db):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "boards.address": "2/min"}
    assert api.get("leaderboard").status_code == 200
    assert api.get("daily").status_code == 200

    refused = api.get("leaderboard", REMOTE_ADDR="127.0.0.1")

    assert_problem(refused, 429, "throttled")
    assert api.get("leaderboard", REMOTE_ADDR="192.0.2.7").status_code == 200  # another address


def test_limits_are_counted_in_redis_once_per_request(settings, make_player):
    """Two requests of two players from one address: each token counted once, the address
    twice, in Redis with an expiry (so a worker on another machine sees the same counts); the
    third request, refused, is counted nowhere."""
    redis = pytest.importorskip("redis")
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
        client.ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {url}")
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": url, "KEY_PREFIX": prefix}}
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "games.token": "1/min",
                               "games.address": "100/min"}
    (_, ada), (_, bob) = make_player(), make_player()
    try:
        assert ada.post("games", {"mode": "practice"}).status_code == 201
        assert bob.post("games", {"mode": "practice"}).status_code == 201
        assert_problem(ada.post("games", {"mode": "practice"}), 429, "throttled")

        counts = sorted((key.decode().split(":")[4], client.zcard(key), client.ttl(key))
                        for key in client.scan_iter(f"{prefix}:*"))
        assert [(kind, count) for kind, count, _ in counts] == [
            ("address", 2), ("token", 1), ("token", 1)]
        assert all(0 < ttl <= 61 for _, _, ttl in counts)
    finally:
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def test_the_redis_cache_keeps_one_client_per_pool_across_calls_and_threads(settings):
    from concurrent.futures import ThreadPoolExecutor

    from django.core.cache import caches

    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    settings.CACHES = {"default": {"BACKEND": "server.core.redis_cache.RedisCache",
                                   "LOCATION": url, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    backend = caches["default"]
    backend.set("shared", 1, 60)
    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(lambda _: backend.incr("shared"), range(20)))
    assert sorted(counts) == list(range(2, 22))  # every increment seen once, from any thread
    assert backend._cache.get_client(write=True) is backend._cache.get_client(write=True)
    backend.delete("shared")


def test_clearing_the_redis_cache_deletes_its_own_keys_and_no_others(settings):
    """Django's ``clear`` empties the whole Redis database: in the suite, one worker's fixture
    wiped the keys another worker's test had just set. Ours deletes its prefix's keys only."""
    from django.core.cache import caches

    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    mine = f"test-{uuid.uuid4().hex}[a]*"  # glob characters in the prefix match as written
    other = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {"BACKEND": "server.core.redis_cache.RedisCache", "LOCATION": url,
                    "KEY_PREFIX": mine},
        "other": {"BACKEND": "server.core.redis_cache.RedisCache", "LOCATION": url,
                  "KEY_PREFIX": other},
    }
    ours, theirs = caches["default"], caches["other"]
    client = ours._cache.get_client(write=True)
    longer = f"{mine}-longer:1:kept"  # a prefix that starts with ours is another's
    try:
        ours.set_many({f"key-{number}": number for number in range(1200)})  # several batches
        ours.set("versioned", "two", version=2)
        theirs.set("key-1", "theirs")
        client.set(longer, b"kept")

        ours.clear()

        left = [key for key in client.scan_iter(match=f"{mine[:37]}*")
                if key.decode().startswith(f"{mine}:")]
        assert left == []
        assert ours.get("key-1") is None and ours.get("versioned", version=2) is None
        assert theirs.get("key-1") == "theirs"
        assert client.get(longer) == b"kept"
    finally:
        theirs.clear()
        client.delete(longer)


def test_game_keeps_working_when_redis_is_down_and_the_log_says_so(settings, player_api,
                                                                    practice_game, caplog):
    # Port 9 (discard) has no Redis on it: every cache call fails at once.
    settings.CACHES = {"default": {
        "BACKEND": "server.core.redis_cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }}
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "1/min"}
    game = practice_game
    try:
        with caplog.at_level(logging.WARNING, logger="server.api.throttling"):
            for number in range(3):  # over the limit, but nothing can count it
                response = _move(player_api, game, number)
                assert response.status_code == 200, response.content
                game = response.json()
    finally:
        cache_health.down_since = None

    warnings = [r for r in caplog.records if r.name == "server.api.throttling"]
    assert len(warnings) == 1  # once, not once per request
    assert "Throttling is off" in warnings[0].getMessage()


# --- Errors stay problems ----------------------------------------------------------------------


# The database fails at the first statement about the game, on either path a move can take.
FIRST_GAME_STATEMENT = {True: (fastmove, "_find"), False: (services, "game_lock")}


# The fast path runs on PostgreSQL only: on SQLite its first statement is never reached.
@pytest.mark.parametrize("fast", [pytest.param(True, marks=pytest.mark.postgresql), False],
                         ids=["fast-path", "full-view"])
@pytest.mark.parametrize("error", [OperationalError("connection refused"),
                                   InterfaceError("connection already closed")],
                         ids=["operational", "interface"])
def test_database_outage_is_503_problem_with_retry_after(settings, player_api, practice_game,
                                                          error, fast):
    settings.FOURSQUARE_FAST_MOVES = fast
    with mock.patch.object(*FIRST_GAME_STATEMENT[fast], side_effect=error):
        response = _move(player_api, practice_game, 0)

    body = assert_problem(response, 503, "service_unavailable")
    assert int(response["Retry-After"]) > 0
    assert "connection" not in body["detail"]  # the driver's words stay in the log


def test_database_outage_during_authentication_is_503_too(player_api):
    with mock.patch("server.players.tokens._token_with_player",
                    side_effect=OperationalError("the database system is starting up")):
        response = player_api.get("games")

    assert_problem(response, 503, "service_unavailable")


def test_500_under_api_never_shows_a_traceback_or_settings_even_with_debug(settings, player_api,
                                                                           practice_game):
    settings.DEBUG = True
    boom = RuntimeError(f"bug near {settings.SECRET_KEY}")
    with mock.patch.object(selectors, "game_of", side_effect=boom):
        response = player_api.get(f"games/{practice_game['id']}")

    assert_problem(response, 500, "internal_error")
    text = response.content.decode()
    for leak in ["Traceback", "RuntimeError", settings.SECRET_KEY, "DATABASES", "<html"]:
        assert leak not in text
