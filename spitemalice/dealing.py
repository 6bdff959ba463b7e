"""Deterministic shuffles: the same seed deals the same game on every platform and version.

Both shuffles of SPITE_MALICE.md use one procedure, kept stable (changing it would change every
past deal):

- A stream of 32-bit words from HMAC-SHA256 in counter mode: block *n* (n = 0, 1, …) is
  ``HMAC-SHA256(key=seed, msg=prefix + n.to_bytes(8, "big"))``, read as eight big-endian
  unsigned 32-bit words in order; words left in a block serve the next steps.
- Fisher–Yates: for i = L − 1 down to 1, take words until one, *w*, is below
  2³² − (2³² mod (i + 1)) (rejection sampling, so every j is equally likely), and swap
  positions i and w mod (i + 1).

The **deal** shuffles the canonical 104 cards (deck 1 then deck 2, suits C D H S, each A … K)
with prefix ``b"spite-malice-deal/v1"``. The **reshuffle** of the *k*-th completed centre stack
shuffles the stock (top to bottom) followed by the stack (bottom to top) with prefix
``b"spite-malice-reshuffle/v1" + k.to_bytes(8, "big")``; the result is the new stock, top first.
"""

from __future__ import annotations

import hmac
import struct
from collections.abc import Sequence
from typing import TypeVar

from spitemalice.cards import CANONICAL_IDS, CARD_OF_ID, COPIES, Card

DEAL_LABEL = b"spite-malice-deal/v1"
RESHUFFLE_LABEL = b"spite-malice-reshuffle/v1"
_WORD_RANGE = 1 << 32
_EIGHT_WORDS = struct.Struct(">8I").unpack  # a 32-byte block as eight big-endian words

T = TypeVar("T")


def _blocks(seed: bytes, prefix: bytes, first: int, count: int) -> list[int]:
    """The words of blocks ``first`` … ``first + count - 1`` of the stream, in order."""
    words: list[int] = []
    for counter in range(first, first + count):
        words += _EIGHT_WORDS(hmac.digest(seed, prefix + counter.to_bytes(8, "big"), "sha256"))
    return words


def shuffled(items: Sequence[T], seed: bytes, prefix: bytes) -> list[T]:
    """``items`` shuffled by Fisher–Yates on the HMAC word stream of ``seed`` and ``prefix``."""
    out = list(items)
    # One word per swap, unless a word is rejected (with odds below 2**-25 per word here):
    # take the blocks that needs at once, and more only if the stream runs out.
    blocks = (len(out) + 7) // 8
    words = _blocks(seed, prefix, 0, blocks)
    position = 0
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = _WORD_RANGE - _WORD_RANGE % bound
        while True:
            if position == len(words):
                words += _blocks(seed, prefix, blocks, 1)
                blocks += 1
            word = words[position]
            position += 1
            if word < limit:
                break
        j = word % bound
        out[i], out[j] = out[j], out[i]
    return out


def _check_seed(seed: object) -> bytes:
    if not isinstance(seed, bytes | bytearray):
        raise TypeError(f"a seed is bytes, not {type(seed).__name__}")
    return bytes(seed)


def deal_ids(seed: bytes) -> list[int]:
    """The 104 card ids of the deal from ``seed``, in dealt order (the sequence *s*)."""
    return shuffled(CANONICAL_IDS * COPIES, _check_seed(seed), DEAL_LABEL)


def deal(seed: bytes) -> tuple[Card, ...]:
    """The 104 cards dealt from ``seed``: pay-off 0 is [0:20] (top first), pay-off 1 is
    [20:40], the stock [40:104] (top first)."""
    return tuple(CARD_OF_ID[i] for i in deal_ids(seed))  # type: ignore[misc]


def reshuffle_ids(seed: bytes, completion: int, cards: Sequence[int]) -> list[int]:
    """The new stock (top first) from ``cards`` (old stock top to bottom, then the completed
    stack bottom to top), for this game's ``completion``-th completed stack (1 for the first)."""
    return shuffled(cards, seed, RESHUFFLE_LABEL + completion.to_bytes(8, "big"))
