"""The checks of ``python -m foursquare verify`` and ``python -m spitemalice verify``
(docs/FAIRNESS.md, "Verifying"): the log's chain and signatures, each daily's commitment
against its revealed seed and the deal served, and a match's or race's record. Standard
library only; the signatures need ``cryptography`` and are skipped, saying so, without it.

Each check prints one line per entry (``ok``, ``committed`` while not yet revealed, or
``BAD: <why>``); the command exits 1 if any line is bad.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TextIO

from fairness.encoding import (
    GENESIS,
    Entry,
    daily_commitment,
    entry_body,
    entry_hash,
    key_id,
)

EXIT_OK, EXIT_BAD, EXIT_UNREADABLE = 0, 1, 2


@dataclass
class Report:
    out: TextIO
    bad: list[str] = field(default_factory=list)

    def line(self, name: str, problem: str | None, fine: str = "ok") -> None:
        if problem is None:
            print(f"{name}: {fine}", file=self.out)
        else:
            self.bad.append(name)
            print(f"{name}: BAD: {problem}", file=self.out)


def _signature_checker(keys: dict[str, bytes]) -> Callable[[str, bytes, str], str | None] | None:
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        return None

    def check(kid: str, body: bytes, signature: str) -> str | None:
        if kid not in keys:
            return f"signed by an unknown key {kid}"
        try:
            Ed25519PublicKey.from_public_bytes(keys[kid]).verify(base64.b64decode(signature),
                                                                 body)
        except (InvalidSignature, ValueError):
            return "the signature does not verify"
        return None

    return check


def keys_of(key_document: dict[str, Any]) -> dict[str, bytes]:
    """The public keys of ``GET /fairness/key``, by key id (each checked against its id)."""
    keys = {}
    for item in [key_document, *key_document.get("previous", [])]:
        raw = base64.b64decode(item["public_key"])
        keys[key_id(raw)] = raw
    return keys


def check_log(entries: Sequence[dict[str, Any]], keys: dict[str, bytes] | None, report: Report,
              head: tuple[int, str] | None = None) -> dict[int, dict[str, Any]]:
    """Check every entry's number, link, hash and signature, in order from entry 1; returns
    the entries by seq."""
    check = _signature_checker(keys) if keys is not None else None
    if check is None:
        print("signatures: not checked (install the cryptography package to check them)",
              file=report.out)
    previous = GENESIS
    by_seq: dict[int, dict[str, Any]] = {}
    for position, data in enumerate(entries, start=1):
        name = f"entry {data.get('seq', '?')}"
        try:
            entry = Entry.from_json(data)
            body = entry_body(entry)
        except (KeyError, TypeError, ValueError) as error:
            report.line(name, f"malformed ({error})")
            continue
        problem = None
        if entry.seq != position:
            problem = f"out of order: entry {position} expected here"
        elif entry.previous != previous:
            problem = "does not link to the entry before it (previous hash differs)"
        elif entry_hash(entry) != data.get("hash"):
            problem = "its hash does not match its fields"
        elif check is not None:
            problem = check(entry.key_id, body, str(data.get("signature", "")))
        if head is not None and entry.seq == head[0] and data.get("hash") != head[1]:
            problem = problem or f"differs from the head you kept ({head[1][:12]}…)"
        report.line(name, problem)
        previous = str(data.get("hash"))
        by_seq[entry.seq] = data
    if head is not None and head[0] > len(entries):
        report.line(f"entry {head[0]}", "the head you kept is missing from the log")
    return by_seq


def check_dailies(game: str, items: Iterable[dict[str, Any]], log: dict[int, dict[str, Any]],
                  deal_of: Callable[[str], list[str]], report: Report) -> None:
    """Each daily's commitment: in the log, and equal to its revealed seed's; its deal
    recomputed and equal to the one served."""
    for item in items:
        name = f"{game} {item.get('date')}"
        entry = log.get(item.get("entry", {}).get("seq"))
        problem = None
        revealed = item.get("seed") is not None
        if entry is None or entry.get("commitment") != item.get("commitment") \
                or entry.get("subject") != item.get("date") or entry.get("game") != game \
                or entry.get("kind") != "daily":
            problem = "its commitment is not the log's entry for it"
        elif revealed:
            try:
                expected = daily_commitment(game, date.fromisoformat(item["date"]),
                                            int(item["attempt"]), item["seed"])
            except (KeyError, TypeError, ValueError) as error:
                expected = f"unreadable ({error})"
            if expected != item.get("commitment"):
                problem = "the revealed seed does not match the commitment"
            elif deal_of(item["seed"]) != item.get("deck"):
                problem = "the deal served is not the deal of the seed"
        if item.get("late") and problem is None:
            print(f"{name}: note: committed after its first game "
                  f"({item.get('committed_at')} > {item.get('first_played_at')})",
                  file=report.out)
        report.line(name, problem, "ok" if revealed else
                    f"committed at {item.get('committed_at')}, seed not revealed yet")


# --- Fetching --------------------------------------------------------------------------------

def fetch_json(url: str) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def fetch_pages(url: str, key: str, fetch: Callable[[str], Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    next_url: str | None = url
    while next_url:
        page = fetch(next_url)
        items += page[key]
        next_url = page.get("next")
    return items


def verify_server(*, game: str, server: str, first: date | None, last: date | None,
                  head: tuple[int, str] | None, deal_of: Callable[[str], list[str]],
                  out: TextIO, fetch: Callable[[str], Any] = fetch_json) -> int:
    base = server.rstrip("/") + "/api/v1/fairness/"
    report = Report(out)
    keys = keys_of(fetch(base + "key"))
    log = check_log(fetch_pages(base + "log", "entries", fetch), keys, report, head)
    query = {"game": game, **({"from": first.isoformat()} if first else {}),
             **({"to": last.isoformat()} if last else {})}
    items = fetch_pages(base + "commitments?" + urllib.parse.urlencode(query), "entries", fetch)
    check_dailies(game, items, log, deal_of, report)
    if log:
        top = max(log)
        print(f"head: {top}:{log[top]['hash']} (keep it: --head {top}:{log[top]['hash']})",
              file=out)
    return _finish(report)


def _finish(report: Report) -> int:
    if report.bad:
        print(f"MISMATCH: first bad entry: {report.bad[0]} ({len(report.bad)} bad)",
              file=report.out)
        return EXIT_BAD
    return EXIT_OK


def verify_record(path: str, check: Callable[[dict[str, Any], Report], None], out: TextIO,
                  err: TextIO) -> int:
    try:
        with open(path, encoding="utf-8") as file:
            record = json.load(file)
    except (OSError, ValueError) as error:
        print(f"verify: {path}: {error}", file=err)
        return EXIT_UNREADABLE
    report = Report(out)
    check(record, report)
    return _finish(report)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--server", help="the server's URL, e.g. http://127.0.0.1:8000")
    source.add_argument("--record", metavar="FILE", help="a match's or race's record (JSON)")
    parser.add_argument("--from", dest="first", type=date.fromisoformat, help="YYYY-MM-DD")
    parser.add_argument("--to", dest="last", type=date.fromisoformat, help="YYYY-MM-DD")
    parser.add_argument("--head", type=_head, help="SEQ:HASH of an entry you kept")


def _head(text: str) -> tuple[int, str]:
    seq, _, digest = text.partition(":")
    if not seq.isdigit() or len(digest) != 64:
        raise argparse.ArgumentTypeError("a head is SEQ:HASH (64 hex digits)")
    return int(seq), digest


def run(args: argparse.Namespace, *, game: str, deal_of: Callable[[str], list[str]],
        check_record: Callable[[dict[str, Any], Report], None]) -> int:
    if args.record:
        return verify_record(args.record, check_record, sys.stdout, sys.stderr)
    try:
        return verify_server(game=game, server=args.server, first=args.first, last=args.last,
                             head=args.head, deal_of=deal_of, out=sys.stdout)
    except (OSError, ValueError, KeyError) as error:
        print(f"verify: {args.server}: {error}", file=sys.stderr)
        return EXIT_UNREADABLE


def check_seeds(game: str, block: object, report: Report) -> bytes | None:
    """A match's or race's ``fairness`` block: its server seed against the commitment; the
    deal's seed from the server and client seeds (None if it is not revealed or is bad)."""
    from fairness.encoding import deal_seed, server_seed_commitment

    if not isinstance(block, dict) or "commitment" not in block:
        report.line("record", "it has no fairness block with a commitment")
        return None
    name = f"{block.get('subject')} (entry {block.get('seq')})"
    if block.get("server_seed") is None:
        report.line(name, None, f"committed at {block.get('committed_at')}, "
                                "seeds not revealed yet")
        return None
    try:
        expected = server_seed_commitment(game, str(block["subject"]), block["server_seed"])
        seed = deal_seed(block["server_seed"], block["client_seeds"])
    except (KeyError, TypeError, ValueError) as error:
        report.line(name, f"unreadable seeds ({error})")
        return None
    if expected != block["commitment"]:
        report.line(name, "the revealed server seed does not match the commitment")
        return None
    report.line(name, None, "the server seed matches its commitment")
    return seed
