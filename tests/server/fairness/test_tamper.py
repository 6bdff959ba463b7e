"""The verifier against a log someone changed: whichever stored row is tampered with (an
entry's commitment, their order, a daily's seed or deal, a signature) it exits 1 and names the
first bad entry; a log rewritten and signed again breaks the head a reader kept."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fairness import GENESIS, entry_body, entry_hash
from server.dailies import calendar
from server.fairness import signing
from server.fairness.models import LogEntry, SeedCommitment
from server.foursquare.models import Daily as FoursquareDaily
from server.spitemalice.models import Daily as SpiteMaliceDaily
from tests.server.fairness.support import (
    TINY_BOT,
    foursquare_daily_commit,
    spitemalice_daily_commit,
    verify_dailies,
)


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.FOURSQUARE_PREPARE_TIME_BUDGET = 0.2
    settings.FOURSQUARE_PREPARE_BOT = TINY_BOT


@pytest.fixture
def days(db):
    """Two dates over everywhere and one to come, committed for both games: entries 1-6,
    Foursquare's odd, Spite & Malice's even."""
    today = calendar.utc_today()
    days = [today - timedelta(days=3), today - timedelta(days=2), today + timedelta(days=2)]
    for day in days:
        foursquare_daily_commit(day)
        spitemalice_daily_commit(day)
    return days


def check(game: str, days, head=None) -> str:
    status, out = verify_dailies(game, days[0], days[-1], head)
    assert status == 1, out
    return out


def test_an_untouched_log_verifies(days):
    for game in ("foursquare", "spitemalice"):
        status, out = verify_dailies(game, days[0], days[-1])
        assert status == 0, out
        assert "BAD" not in out


def test_a_changed_commitment_names_its_entry(days):
    LogEntry.objects.filter(seq=3).update(commitment="0" * 64)
    out = check("foursquare", days)
    assert "entry 3: BAD: its hash does not match its fields" in out
    assert "first bad entry: entry 3" in out
    assert "entry 2: ok" in out


def test_entries_put_in_another_order_name_the_first_moved(days):
    LogEntry.objects.filter(seq=2).update(seq=100)
    LogEntry.objects.filter(seq=4).update(seq=2)
    LogEntry.objects.filter(seq=100).update(seq=4)
    out = check("spitemalice", days)
    assert "entry 2: BAD: does not link to the entry before it" in out
    assert "first bad entry: entry 2" in out


def test_a_missing_entry_names_the_first_after_the_gap(days):
    SeedCommitment.objects.filter(entry_id=6).delete()
    LogEntry.objects.filter(seq=6).delete()
    LogEntry.objects.filter(seq=5).update(seq=6)
    SeedCommitment.objects.filter(entry_id=5).update(entry_id=6)
    out = check("foursquare", days)
    assert "entry 6: BAD: out of order: entry 5 expected here" in out


def test_a_changed_seed_names_its_date(days):
    """The game's seed changed: it deals another deal than the one committed."""
    SpiteMaliceDaily.objects.filter(date=days[1]).update(seed="ab" * 32)
    out = check("spitemalice", days)
    assert f"spitemalice {days[1].isoformat()}: BAD: the deal served is not the deal" in out
    assert f"first bad entry: spitemalice {days[1].isoformat()}" in out


def test_a_changed_kept_seed_names_its_date(days):
    SeedCommitment.objects.filter(entry__game="spitemalice",
                                  entry__subject=days[0].isoformat()).update(
        server_seed="cd" * 32)
    out = check("spitemalice", days)
    assert f"spitemalice {days[0].isoformat()}: BAD: the revealed seed does not match" in out


def test_a_rotated_daily_secret_leaves_committed_dailies_verifying(days, settings):
    settings.FOURSQUARE_DAILY_SECRET = "a new secret, after the dailies were committed ahead"
    status, out = verify_dailies("foursquare", days[0], days[-1])
    assert status == 0, out


def test_a_changed_attempt_names_its_date(days):
    FoursquareDaily.objects.filter(date=days[0]).update(attempt=5)
    out = check("foursquare", days)
    assert f"foursquare {days[0].isoformat()}: BAD: the revealed seed does not match" in out


def test_a_deal_other_than_the_seeds_names_its_date(days):
    deal = FoursquareDaily.objects.get(date=days[0]).deal
    cards = deal.cards.split()
    deal.cards = " ".join([cards[1], cards[0], *cards[2:]])
    deal.save()
    out = check("foursquare", days)
    assert f"foursquare {days[0].isoformat()}: BAD: the deal served is not the deal" in out


def test_a_changed_signature_names_its_entry(days):
    other = LogEntry.objects.get(seq=1).signature
    LogEntry.objects.filter(seq=4).update(signature=other)
    out = check("spitemalice", days)
    assert "entry 4: BAD: the signature does not verify" in out
    assert "first bad entry: entry 4" in out


def test_a_signature_by_an_unknown_key_names_its_entry(days):
    LogEntry.objects.filter(seq=2).update(key_id="0123456789abcdef")
    out = check("spitemalice", days)
    assert "entry 2: BAD: its hash does not match" in out


def test_a_log_rewritten_and_signed_again_breaks_the_head_kept(days):
    """The server itself rewrites entry 1 and re-signs the whole chain: every entry checks on
    its own, but not against the head a reader kept before."""
    kept = LogEntry.objects.get(seq=6)
    previous = GENESIS
    for row in LogEntry.objects.order_by("seq"):
        if row.seq == 1:
            row.commitment = "f" * 64
        row.previous = previous
        entry = row.as_entry()
        row.hash = entry_hash(entry)
        row.signature = signing.sign(entry_body(entry))
        LogEntry.objects.filter(seq=row.seq).update(previous=f"tmp{row.seq}")
        LogEntry.objects.filter(seq=row.seq).update(commitment=row.commitment,
                                                    previous=row.previous, hash=row.hash,
                                                    signature=row.signature)
        previous = row.hash
    out = check("spitemalice", days, head=(kept.seq, kept.hash))
    assert "entry 6: BAD: differs from the head you kept" in out
    assert "entry 1: ok" in out

