"""Account event numbers under concurrency: 1, 2, 3, ... per player, none twice, no gaps, a
rolled-back write's numbers given back."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from server.players import services as players
from server.streams.models import AccountEvent
from server.streams.services import Draft, account_events_add

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgresql]


def test_writers_racing_for_one_player_number_without_gaps_or_doubles():
    ada, _ = players.player_create(name="Ada")
    bob, _ = players.player_create(name="Bob")
    start = threading.Barrier(8)
    failures = []

    def write(index: int) -> None:
        try:
            start.wait()
            with transaction.atomic():
                # Two players in one write, in either order: their counters are taken in id
                # order, so writers never deadlock.
                pair = [ada, bob] if index % 2 else [bob, ada]
                account_events_add([Draft(player.pk, "your_turn", {"i": index})
                                    for player in pair] + [Draft(ada.pk, "joined", {})])
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert failures == []
    for player, count in ((ada, 16), (bob, 8)):
        numbers = list(AccountEvent.objects.filter(player=player).order_by("number")
                       .values_list("number", flat=True))
        assert numbers == list(range(1, count + 1))


def test_a_rolled_back_write_gives_its_numbers_back():
    ada, _ = players.player_create(name="Ada")
    with pytest.raises(RuntimeError), transaction.atomic():
        account_events_add([Draft(ada.pk, "joined", {})])
        raise RuntimeError("the write failed")
    (row,) = account_events_add([Draft(ada.pk, "joined", {})])
    assert row.number == 1


def test_a_player_locked_for_a_match_does_not_hold_up_their_account_events():
    """A join holds its players' rows (``player_lock``) while another request stores an
    account event for one of them: the event's foreign key must not wait for the join, or the
    two wait for each other once the join reaches that player's counter."""
    from server.spitemalice.services import player_lock

    ada, _ = players.player_create(name="Ada")
    locked, release = threading.Event(), threading.Event()
    outcome = []

    def join() -> None:
        try:
            with transaction.atomic():
                player_lock(ada)
                locked.set()
                release.wait(timeout=10)
        finally:
            connection.close()

    def store() -> None:
        try:
            locked.wait(timeout=10)
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '2s'")
                outcome.append(account_events_add([Draft(ada.pk, "your_turn", {})])[0].number)
        except Exception as error:  # noqa: BLE001 - reported below
            outcome.append(error)
        finally:
            release.set()
            connection.close()

    threads = [threading.Thread(target=join), threading.Thread(target=store)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcome == [1]
