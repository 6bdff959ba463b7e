"""Cards and decks: the value objects and their canonical text form.

A card's code is its rank (``A 2 … 9 T``) followed by its suit (``C D H S``), e.g. ``"TH"``.
Each of the 40 cards has one shared ``Card`` instance and a small integer ``id`` (0–39) that the
game uses internally for speed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from foursquare.errors import ParseError

RANK_CODES = "A23456789T"
SUIT_CODES = "CDHS"
DECK_SIZE = len(RANK_CODES) * len(SUIT_CODES)


class Card:
    """One card: ``rank`` 1 (ace) … 10, ``suit`` one of ``C D H S``.

    Use ``Card.parse("TH")`` or ``Card.from_id(n)``; both return the shared instance.
    """

    __slots__ = ("_code", "id", "rank", "suit")

    id: int
    rank: int
    suit: str

    def __init__(self, rank: int, suit: str) -> None:
        if not (isinstance(rank, int) and 1 <= rank <= 10) or suit not in SUIT_CODES or not suit:
            raise ParseError(f"no such card: rank {rank!r}, suit {suit!r}")
        self.rank = rank
        self.suit = suit
        self.id = SUIT_CODES.index(suit) * 10 + rank - 1
        self._code = RANK_CODES[rank - 1] + suit

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card named by ``code`` (e.g. ``"7H"``); raises ``ParseError`` otherwise."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise ParseError(f"invalid card code {code!r}: expected a rank of "
                             f"{' '.join(RANK_CODES)} followed by a suit of {' '.join(SUIT_CODES)}")
        return card

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        return ALL_CARDS[card_id]

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return self.id


# The canonical order: suits C, D, H, S, each from ace to ten. ``Card.id`` is the position here.
ALL_CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in SUIT_CODES for rank in range(1, len(RANK_CODES) + 1)
)
_BY_CODE: dict[str, Card] = {str(card): card for card in ALL_CARDS}
RANK_OF_ID: tuple[int, ...] = tuple(card.rank for card in ALL_CARDS)


def parse_card(value: str | Card) -> Card:
    """A ``Card`` from a code or a ``Card``."""
    if isinstance(value, Card):
        return value
    return Card.parse(value)


def parse_deck(cards: Iterable[str | Card]) -> tuple[Card, ...]:
    """A full deal: exactly the 40 distinct cards, in stock order (first drawn first).

    Raises ``ParseError`` naming the first bad, repeated or missing card.
    """
    if isinstance(cards, tuple) and len(cards) == DECK_SIZE and len(
        {card.id for card in cards if type(card) is Card}
    ) == DECK_SIZE:
        return cards  # already a valid deck of Cards, e.g. from deal() or another Game
    if isinstance(cards, str | bytes):
        raise ParseError(f"a deck is a list of 40 card codes, not the text {cards!r}")
    deck: list[Card] = []
    seen: set[int] = set()
    for position, value in enumerate(cards):
        try:
            card = parse_card(value)
        except ParseError as error:
            raise ParseError(f"deck position {position}: {error}") from None
        if card.id in seen:
            raise ParseError(f"deck position {position}: card {str(card)!r} appears twice")
        seen.add(card.id)
        deck.append(card)
    if len(deck) != DECK_SIZE:
        missing = [str(card) for card in ALL_CARDS if card.id not in seen]
        raise ParseError(f"a deck has {DECK_SIZE} cards, got {len(deck)} "
                         f"(missing: {' '.join(missing)})")
    return tuple(deck)


def deck_codes(deck: Sequence[Card]) -> list[str]:
    """The deck as a list of card codes, as used in records and the API."""
    return [str(card) for card in deck]
