"""Commitments, the deal's seed from the server's and the players' seeds, and the log's entries
(docs/FAIRNESS.md, sections 1 and 2: version 1)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

GENESIS = "0" * 64  # the ``previous`` of entry 1
CLIENT_SEED_MAX = 64
_PRINTABLE = frozenset(range(0x20, 0x7F))


class ClientSeedError(ValueError):
    """A client seed that is not 1 to 64 characters of printable ASCII."""


def _sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _check_hex_seed(seed: str) -> str:
    if len(seed) != 64 or any(c not in "0123456789abcdef" for c in seed):
        raise ValueError(f"a seed is 64 lowercase hex digits, not {seed!r}")
    return seed


def daily_commitment(game: str, day: date, attempt: int, seed: str) -> str:
    """The commitment to a daily's seed (hex)."""
    return _sha256_hex(f"fairness/v1/daily\n{game}\n{day.isoformat()}\n{int(attempt)}\n"
                       f"{_check_hex_seed(seed)}")


def server_seed_commitment(game: str, subject: str, server_seed: str) -> str:
    """The commitment to a match's or race's server seed (hex)."""
    return _sha256_hex(f"fairness/v1/server-seed\n{game}\n{subject}\n"
                       f"{_check_hex_seed(server_seed)}")


def check_client_seed(value: object) -> str:
    """``value`` if it is a client seed; ``ClientSeedError`` saying why not otherwise."""
    if not isinstance(value, str):
        raise ClientSeedError(f"a client seed is a string, not {type(value).__name__}")
    if not 1 <= len(value) <= CLIENT_SEED_MAX:
        raise ClientSeedError(f"a client seed has 1 to {CLIENT_SEED_MAX} characters, "
                              f"not {len(value)}")
    if any(ord(c) not in _PRINTABLE for c in value):
        raise ClientSeedError("a client seed is printable ASCII (space to ~) only")
    return value


def deal_seed(server_seed: str, client_seeds: Sequence[str | None]) -> bytes:
    """HMAC(server seed, the client seeds in seat order); ``None`` for a seat that gave none."""
    message = bytearray(b"fairness/v1/client-seeds")
    for seed in client_seeds:
        raw = b"" if seed is None else check_client_seed(seed).encode("ascii")
        message += len(raw).to_bytes(2, "big") + raw
    return hmac.new(bytes.fromhex(_check_hex_seed(server_seed)), bytes(message),
                    hashlib.sha256).digest()


def format_time(moment: datetime) -> str:
    """UTC as ``YYYY-MM-DDTHH:MM:SS.ffffffZ``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def key_id(public_key: bytes) -> str:
    """The first 16 hex digits of SHA-256 of the raw 32-byte Ed25519 public key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


@dataclass(frozen=True)
class Entry:
    """One entry of the log, as signed."""

    seq: int
    previous: str
    key_id: str
    kind: str
    game: str
    subject: str
    commitment: str
    committed_at: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})


def entry_body(entry: Entry) -> bytes:
    fields = (entry.seq, entry.previous, entry.key_id, entry.kind, entry.game, entry.subject,
              entry.commitment, entry.committed_at)
    if any("\n" in str(value) for value in fields):
        raise ValueError("no field of an entry holds a line break")
    return ("fairness-log/v1\n" + "\n".join(str(value) for value in fields)).encode()


def entry_hash(entry: Entry) -> str:
    return hashlib.sha256(entry_body(entry)).hexdigest()
