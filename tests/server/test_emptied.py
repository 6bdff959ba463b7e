"""A transactional test's database emptied quickly (``tests.emptied``): every row a test wrote
is gone, the content types and permissions stay, and a row another connection was writing
meanwhile does not outlive the emptying."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import DatabaseError, connection, connections

from server.leagues.models import League
from server.players.models import AccessToken, Player
from server.players.services import player_create
from tests import emptied

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_SECONDS = 60


def _player(name: str) -> Player:
    player, _token = player_create(name=name)
    return player


def _tables_holding_rows() -> set[str]:
    held = set()
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT EXISTS (SELECT FROM {connection.ops.quote_name(table)})")
            if cursor.fetchone()[0]:
                held.add(table)
    return held


def test_every_row_written_is_deleted_and_the_content_types_stay():
    owner = _player("Ada")
    League.objects.create(name="Card club", owner=owner)
    content_types = set(ContentType.objects.values_list("pk", "app_label", "model"))
    permissions = Permission.objects.count()
    assert content_types and permissions

    deleted = emptied.empty(connection)

    assert {Player._meta.db_table, AccessToken._meta.db_table, League._meta.db_table} \
        <= set(deleted)
    assert not set(deleted) & emptied.KEPT
    assert _tables_holding_rows() == set(emptied.KEPT)
    assert set(ContentType.objects.values_list("pk", "app_label", "model")) == content_types
    assert Permission.objects.count() == permissions


def test_an_empty_database_is_left_as_it_is():
    emptied.empty(connection)
    assert emptied.empty(connection) == []


def test_the_flush_after_a_transactional_test_empties_this_way():
    _player("Ada")
    before = set(ContentType.objects.values_list("pk", flat=True))

    call_command("flush", verbosity=0, interactive=False, reset_sequences=False)

    assert not Player.objects.exists()
    # Django's own flush would have written the content types again, under new keys.
    assert set(ContentType.objects.values_list("pk", flat=True)) == before


def test_a_row_written_while_the_emptying_waits_for_its_lock_is_deleted_too():
    writing, may_commit = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def write() -> None:
        from django.db import transaction

        try:
            with transaction.atomic():
                _player("Bo")
                writing.set()
                may_commit.wait(WAIT_SECONDS)
        finally:
            connections.close_all()

    def empty() -> None:
        try:
            outcome["deleted"] = emptied.empty(connections["default"])
        except DatabaseError as error:  # reported in the test's own thread
            outcome["error"] = error
        finally:
            connections.close_all()

    writer = threading.Thread(target=write)
    writer.start()
    assert writing.wait(WAIT_SECONDS)
    emptier = threading.Thread(target=empty)
    emptier.start()
    try:
        # The emptying waits for the writer's lock (not for a clock: the server says so).
        deadline = time.monotonic() + WAIT_SECONDS
        while not _waits_for_a_lock("LOCK TABLE"):
            assert time.monotonic() < deadline, "the emptying never waited for the writer"
            time.sleep(0.05)
    finally:
        may_commit.set()
        writer.join(WAIT_SECONDS)
        emptier.join(WAIT_SECONDS)

    assert "error" not in outcome, outcome.get("error")
    assert Player._meta.db_table in outcome["deleted"]  # type: ignore[operator]
    assert not Player.objects.exists()


def _waits_for_a_lock(statement: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT FROM pg_stat_activity WHERE datname = "
                       "current_database() AND wait_event_type = 'Lock' AND query LIKE %s)",
                       [f"{statement}%"])
        return bool(cursor.fetchone()[0])
