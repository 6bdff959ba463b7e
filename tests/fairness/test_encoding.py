"""The encodings of docs/FAIRNESS.md, each checked against the document's own words computed
with nothing but hashlib and hmac (an independent verifier's view), and pinned as vectors."""

from __future__ import annotations

import hashlib
import hmac
import io
from datetime import date

import pytest

from fairness import (
    GENESIS,
    ClientSeedError,
    Entry,
    check_client_seed,
    daily_commitment,
    deal_seed,
    entry_body,
    entry_hash,
    server_seed_commitment,
)
from fairness.verify import Report, check_log


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_daily_commitment_is_the_documented_message_hashed():
    seed = "ab" * 32
    assert daily_commitment("foursquare", date(2026, 12, 4), 0, seed) == sha(
        f"fairness/v1/daily\nfoursquare\n2026-12-04\n0\n{seed}") == (
        "8d331458c47afd3648b2e0f0d2568478fa1bd235a057c59dfd82c3f82c6760c5")


def test_a_server_seed_commitment_is_the_documented_message_hashed():
    subject, seed = "match/00000000-0000-0000-0000-000000000001", "cd" * 32
    assert server_seed_commitment("spitemalice", subject, seed) == sha(
        f"fairness/v1/server-seed\nspitemalice\n{subject}\n{seed}") == (
        "3f564e207e9df19b6509f34150df3f2c675e4202e3d505d6ab31e88f67f74ee0")


def test_the_deal_seed_mixes_each_seat_length_prefixed_the_bot_s_empty():
    key = bytes.fromhex("ef" * 32)
    message = b"fairness/v1/client-seeds" + b"\x00\x05alice" + b"\x00\x00"
    assert deal_seed("ef" * 32, ["alice", None]) == hmac.new(key, message,
                                                             hashlib.sha256).digest()
    assert deal_seed("ef" * 32, ["alice", None]).hex() == (
        "4d02a165c8b70204b77f1c665282df1b40af8636b4fa5dd93f741049ae30c26f")
    assert deal_seed("ef" * 32, ["alice", "bob"]).hex() == (
        "15a0c30d89d714bb74cfc70a4d25d4029a6289664f2a026e46015912d0bb0e42")


def test_seat_order_and_every_client_seed_change_the_deal_seed():
    seeds = {deal_seed("ef" * 32, pair) for pair in
             [["a", "b"], ["b", "a"], ["ab", None], [None, "ab"], ["a", "c"]]}
    assert len(seeds) == 5


def test_an_entry_body_is_its_fields_line_by_line():
    entry = Entry(1, GENESIS, "0123456789abcdef", "daily", "foursquare", "2026-12-04",
                  "11" * 32, "2026-11-26T00:00:00.000000Z")
    assert entry_body(entry) == (f"fairness-log/v1\n1\n{GENESIS}\n0123456789abcdef\ndaily\n"
                                 f"foursquare\n2026-12-04\n{'11' * 32}\n"
                                 "2026-11-26T00:00:00.000000Z").encode()
    assert entry_hash(entry) == (
        "234b6b96e11eff60d1f7c2067a7229c29a0028b1235486669adda8d9b731809d")


@pytest.mark.parametrize("good", ["a", " ", "~" * 64, "0123456789abcdef"])
def test_client_seeds_are_one_to_64_printable_ascii(good):
    assert check_client_seed(good) == good


@pytest.mark.parametrize("bad", ["", "a" * 65, "\u00e9", "\t", "\x7f", b"bytes", 3])
def test_anything_else_is_not_a_client_seed(bad):
    with pytest.raises(ClientSeedError):
        check_client_seed(bad)


def chain(count: int) -> list[dict]:
    entries, previous = [], GENESIS
    for seq in range(1, count + 1):
        entry = Entry(seq, previous, "k" * 16, "daily", "foursquare", f"2026-12-{seq:02d}",
                      sha(str(seq)), "2026-11-26T00:00:00.000000Z")
        previous = entry_hash(entry)
        entries.append({**entry.__dict__, "hash": previous, "signature": ""})
    return entries


def checked(entries) -> list[str]:
    report = Report(io.StringIO())
    check_log(entries, None, report)
    return report.bad


def test_an_unsigned_chain_checks_its_links_without_cryptography():
    assert checked(chain(4)) == []


def test_a_reordered_log_names_the_first_entry_out_of_place():
    entries = chain(4)
    entries[1], entries[2] = entries[2], entries[1]
    assert checked(entries)[0] == "entry 3"


def test_a_forged_entry_names_itself_and_breaks_the_link_after_it():
    entries = chain(4)
    entries[1]["commitment"] = sha("forged")
    assert checked(entries)[0] == "entry 2"
    entries[1]["hash"] = entry_hash(Entry.from_json(entries[1]))  # rehashed by the forger
    assert checked(entries) == ["entry 3"]
