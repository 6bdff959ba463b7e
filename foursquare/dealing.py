"""Deterministic dealing: the same seed gives the same deck on every platform and version.

Algorithm (kept stable; changing it would change every past daily deal):

1. Start from the canonical order of the 40 cards: suits C, D, H, S, each ace to ten.
2. Draw 32-bit words from HMAC-SHA256 in counter mode: block *n* is
   ``HMAC-SHA256(key=seed, msg=b"foursquare-deal/v1" + n.to_bytes(8, "big"))``, n = 0, 1, …,
   each block read as eight big-endian unsigned 32-bit words, in order.
3. Fisher–Yates: for i = 39 down to 1, take j uniform in 0…i and swap positions i and j.
   A word w gives j = w mod (i + 1), except that words w ≥ 2³² − (2³² mod (i + 1)) are
   skipped so that every j is exactly equally likely (rejection sampling).
4. The result is the stock from top to bottom: position 0 is drawn first.

Only standard-library primitives (hmac, hashlib, int.from_bytes) are used, so the result
never depends on ``random``'s algorithm.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

from foursquare.cards import ALL_CARDS, Card

STREAM_LABEL = b"foursquare-deal/v1"
_WORD_RANGE = 1 << 32


def _words(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(seed, STREAM_LABEL + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for offset in range(0, len(block), 4):
            yield int.from_bytes(block[offset:offset + 4], "big")
        counter += 1


def _uniform_below(bound: int, words: Iterator[int]) -> int:
    limit = _WORD_RANGE - _WORD_RANGE % bound
    while True:
        word = next(words)
        if word < limit:
            return word % bound


def deal(seed: bytes) -> tuple[Card, ...]:
    """The deck dealt from ``seed``: 40 cards in stock order (first drawn first)."""
    if not isinstance(seed, bytes | bytearray):
        raise TypeError(f"a seed is bytes, not {type(seed).__name__}")
    words = _words(bytes(seed))
    deck = list(ALL_CARDS)
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform_below(i + 1, words)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
