"""The read replica's router (server.core.replicas): which reads go to the replica, read your
own writes, and the fall back to the primary when the replica fails.

The replica here is a second alias on the test database with a connection of its own. A test's
writes stay in the default connection's transaction, which Django's TestCase never commits, so
the replica's connection cannot see them: a replica lagging by the whole test. What a read
returns therefore says which database answered it. An outage is the replica's connection
raising ``OperationalError`` on every statement (an execute wrapper), as a stopped server does.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import OperationalError, connections, transaction

from server.core import replicas
from server.dailies import calendar
from server.foursquare.models import Game
from tests.server.results import WINNING_MOVES, game_before_last_move, winning_daily

BOTH = ["default", "replica"]


@pytest.fixture(scope="module", autouse=True)
def replica_alias(django_db_setup):
    """``replica``: the test database through a connection of its own."""
    connections.settings[replicas.REPLICA] = {
        **connections.settings["default"],
        "TEST": {**connections.settings["default"]["TEST"], "MIRROR": None}}
    connections.settings[replicas.REPLICA]["NAME"] = connections["default"].settings_dict["NAME"]
    yield
    connections[replicas.REPLICA].close()
    del connections[replicas.REPLICA]
    del connections.settings[replicas.REPLICA]


@pytest.fixture(autouse=True)
def replica_up(monkeypatch):
    monkeypatch.setattr(replicas, "_down_until", 0.0)
    monkeypatch.setattr(replicas, "_pins_unknown_until", 0.0)


@contextmanager
def replica_refusing():
    """Every statement on the replica fails as on a server that went away; yields the count
    of statements tried there."""
    tried = []

    def refuse(execute, sql, params, many, context):
        tried.append(sql)
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    with connections[replicas.REPLICA].execute_wrapper(refuse):
        yield tried


def win_the_daily(api) -> dict:
    """Start today's daily (the winning deck) and play its last move through the API."""
    game = api.post("games", {"mode": "daily"})
    assert game.status_code in (200, 201), game.content
    game_before_last_move(game.json()["id"])
    finished = api.post(f"games/{game.json()['id']}/moves", dict(zip(
        ("row", "col"), WINNING_MOVES[-1], strict=True)))
    assert finished.status_code == 200 and finished.json()["status"] == "won"
    return finished.json()


def board_of(api) -> dict:
    response = api.get(f"daily/{calendar.utc_today().isoformat()}/leaderboard")
    assert response.status_code == 200, response.content
    return response.json()


# --- the router ----------------------------------------------------------------------------------


@pytest.mark.django_db(databases=BOTH)
def test_only_an_opted_in_read_outside_a_write_goes_to_the_replica():
    router = replicas.ReplicaRouter()
    assert router.db_for_read(Game) is None  # no request opted in
    replicas.request_start("GET", "")
    try:
        assert router.db_for_read(Game) == replicas.REPLICA
        with transaction.atomic():  # read inside a write: the primary's own state
            assert router.db_for_read(Game) is None
        assert router.db_for_write(Game) == "default"
        replicas.request_start("POST", "")  # an unsafe request never reads the replica
        assert router.db_for_read(Game) is None
    finally:
        replicas.request_end()
    assert router.db_for_read(Game) is None
    assert router.allow_migrate(replicas.REPLICA, "foursquare") is False
    assert router.allow_migrate("default", "foursquare") is None


@pytest.mark.django_db(databases=BOTH)
def test_boards_read_the_replica_and_games_the_primary(make_trusted_player):
    winning_daily()
    _, winner = make_trusted_player("Winner")
    finished = win_the_daily(winner)
    _, reader = make_trusted_player("Reader")  # made without a request: nothing written

    # The board through the replica, which has not seen the win; the game, on the primary.
    assert board_of(reader)["players"] == 0
    assert winner.get(f"games/{finished['id']}").json()["status"] == "won"


# --- read your own writes ------------------------------------------------------------------------


@pytest.mark.django_db(databases=BOTH)
def test_a_player_who_just_finished_sees_their_rank_while_the_replica_lags(make_trusted_player,
                                                                           settings):
    settings.DATABASE_REPLICA_PIN_SECONDS = 10
    winning_daily()
    _, winner = make_trusted_player("Winner")
    win_the_daily(winner)

    mine = board_of(winner)
    assert mine["players"] == 1
    assert mine["me"]["rank"] == 1 and mine["standing"]["status"] == "won"
    stats = winner.get("players/me/stats")
    assert stats.status_code == 200 and stats.json()["played"] == 1

    # Once the pin has run out (its key gone from the cache), the same token reads the
    # replica again, which still lags: the pin alone showed the rank.
    cache.delete(replicas._pin_key(f"Bearer {winner.token}"))
    assert board_of(winner)["players"] == 0


@pytest.mark.django_db(databases=BOTH)
def test_a_refused_write_or_a_read_pins_nothing(make_trusted_player):
    winning_daily()
    _, player = make_trusted_player()
    assert player.post("games", {"mode": "nonsense"}).status_code == 400
    board_of(player)
    assert cache.get(replicas._pin_key(f"Bearer {player.token}")) is None
    assert player.post("games", {"mode": "daily"}).status_code == 201
    assert cache.get(replicas._pin_key(f"Bearer {player.token}")) is not None


@pytest.mark.django_db(databases=BOTH)
def test_without_the_cache_every_read_stays_on_the_primary(make_trusted_player, monkeypatch):
    winning_daily()
    _, winner = make_trusted_player()
    win_the_daily(winner)
    cache.clear()  # the pin lost with the cache

    class Unreachable:
        def get(self, *args, **kwargs):
            raise ConnectionError("Redis is down")

        set = get

    monkeypatch.setattr(replicas, "cache", Unreachable())
    assert board_of(winner)["players"] == 1  # who wrote cannot be known: the primary


# --- the replica down ----------------------------------------------------------------------------


@pytest.mark.django_db(databases=BOTH)
def test_a_board_falls_back_to_the_primary_when_the_replica_fails(make_trusted_player,
                                                                  settings):
    settings.DATABASE_REPLICA_RETRY_SECONDS = 5
    winning_daily()
    _, winner = make_trusted_player()
    win_the_daily(winner)
    _, reader = make_trusted_player()

    with replica_refusing() as tried:
        board = board_of(reader)  # no error: the primary answered, with the win in it
        assert board["players"] == 1
        assert len(tried) == 1
        # Marked down: the next reads do not try the replica at all until the retry is due.
        assert board_of(reader)["players"] == 1
        assert len(tried) == 1
    assert not replicas.replica_usable()

    replicas._down_until = 0.0  # the retry's seconds are over, and the replica is back
    assert board_of(reader)["players"] == 0


@pytest.mark.django_db(databases=BOTH)
def test_profiles_and_ratings_fall_back_too(make_trusted_player):
    player, reader = make_trusted_player("Ada")
    with replica_refusing() as tried:
        profile = reader.get(f"players/{player.pk}")
        assert profile.status_code == 200, profile.content  # on the replica: not found
        assert tried
    replicas._down_until = 0.0
    with replica_refusing():
        assert reader.get("spite-malice/ratings").status_code == 200


# --- the settings --------------------------------------------------------------------------------


def test_the_settings_of_a_node_behind_pgbouncer_with_a_replica():
    from tests.server.test_production import _settings_in

    databases = _settings_in({
        "DATABASE_URL": "postgres://app@pgbouncer:6432/foursquare",
        "DATABASE_PREPARED_STATEMENTS": "false",
        "DATABASE_REPLICA_URL": "postgres://app@replica:5432/foursquare",
    }, "DATABASES")["DATABASES"]
    primary, replica = databases["default"], databases[replicas.REPLICA]
    # Transaction pooling: nothing prepared, no cursor outliving its transaction.
    assert primary["OPTIONS"]["prepare_threshold"] is None
    assert primary["DISABLE_SERVER_SIDE_CURSORS"] is True
    # The replica takes the same options (a pooler may stand in front of replicas too); the
    # tests mirror it onto their own database.
    assert (replica["HOST"], replica["OPTIONS"]["prepare_threshold"]) == ("replica", None)
    assert replica["TEST"]["MIRROR"] == "default"

    alone = _settings_in({"DATABASE_URL": "postgres://app@db:5432/foursquare"},
                         "DATABASES")["DATABASES"]
    assert list(alone) == ["default"]
    assert not alone["default"].get("DISABLE_SERVER_SIDE_CURSORS")


@pytest.mark.django_db(databases=BOTH)
def test_the_lag_is_unknown_where_no_replica_answers(monkeypatch):
    # The alias here is a primary (nothing replayed): no lag to tell, as without a replica.
    assert replicas.replica_lag_seconds() is None
    monkeypatch.setattr(replicas, "configured", lambda: False)
    assert replicas.replica_lag_seconds() is None


@pytest.mark.django_db(databases=BOTH)
def test_with_a_replica_the_metrics_read_its_lag(monkeypatch):
    from django.apps import apps

    from server.core import metrics

    read = []
    monkeypatch.setattr(replicas, "replica_lag_seconds", lambda: read.append(1) or 1.5)
    monkeypatch.setattr(metrics, "_replica_lag", lambda: 0.0)
    apps.get_app_config("core").ready()
    assert b"foursquare_replica_lag_seconds 1.5" in metrics.exposition()
    assert read
