"""Cards: the value object, its canonical text form, and the small integer ids the game uses.

A card's code is its rank (``A 2 … 9 T J Q K``) followed by its suit (``C D H S``), e.g.
``"KD"``. The game is played with two decks, so every code occurs twice; the two copies are
interchangeable, so a ``Card`` stands for a code, not for a physical copy.

Internally a card is a small integer ``id``: its code's position among all the action sources
(the 52 codes plus ``P`` and ``S0``…``S3``) sorted as text. Sorting ids therefore sorts the
sources of ``legal_actions()`` with no key function, which is what keeps that call cheap.
"""

from __future__ import annotations

from collections.abc import Iterable

from spitemalice.errors import ParseError

RANK_CODES = "A23456789TJQK"
SUIT_CODES = "CDHS"
KING = 13
QUEEN = 12
CODE_COUNT = len(RANK_CODES) * len(SUIT_CODES)  # 52 codes
COPIES = 2  # two decks
DECK_SIZE = CODE_COUNT * COPIES  # 104 cards

PAYOFF_SOURCE = "P"
SIDE_NAMES = ("S0", "S1", "S2", "S3")
CENTRE_NAMES = ("C0", "C1", "C2")

# The canonical order of one deck (SPITE_MALICE.md, "Dealing"): suits C, D, H, S, each A … K.
CANONICAL_CODES: tuple[str, ...] = tuple(r + s for s in SUIT_CODES for r in RANK_CODES)
# Every action source as text, sorted: the id space of cards (and of the other sources).
SOURCES: tuple[str, ...] = tuple(sorted((*CANONICAL_CODES, PAYOFF_SOURCE, *SIDE_NAMES)))
SOURCE_ID: dict[str, int] = {source: index for index, source in enumerate(SOURCES)}
PAYOFF_ID = SOURCE_ID[PAYOFF_SOURCE]
SIDE_IDS: tuple[int, ...] = tuple(SOURCE_ID[name] for name in SIDE_NAMES)
ID_SPACE = len(SOURCES)

# Per id (0 for the non-card sources): the rank, and the key that sorts a hand for display.
RANK_OF_ID: tuple[int, ...] = tuple(
    RANK_CODES.index(code[0]) + 1 if code in CANONICAL_CODES else 0 for code in SOURCES
)
DISPLAY_KEY: tuple[int, ...] = tuple(
    (RANK_OF_ID[i] * 4 + SUIT_CODES.index(code[1])) if RANK_OF_ID[i] else -1
    for i, code in enumerate(SOURCES)
)
# The ids of one canonical deck, in canonical order.
CANONICAL_IDS: tuple[int, ...] = tuple(SOURCE_ID[code] for code in CANONICAL_CODES)
CARD_IDS: tuple[int, ...] = tuple(sorted(CANONICAL_IDS))


class Card:
    """One card code: ``rank`` 1 (Ace) … 13 (King), ``suit`` one of ``C D H S``.

    Use ``Card.parse("KD")`` or ``Card.from_id(n)``; both return the shared instance.
    """

    __slots__ = ("_code", "id", "rank", "suit")

    id: int
    rank: int
    suit: str

    def __init__(self, code: str) -> None:
        self._code = code
        self.rank = RANK_CODES.index(code[0]) + 1
        self.suit = code[1]
        self.id = SOURCE_ID[code]

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card named by ``code`` (e.g. ``"KD"``); raises ``ParseError`` otherwise."""
        card = BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise ParseError(
                f"invalid card code {code!r}: expected a rank of {' '.join(RANK_CODES)} "
                f"followed by a suit of {' '.join(SUIT_CODES)}, upper case"
            )
        return card

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        card = CARD_OF_ID[card_id] if 0 <= card_id < ID_SPACE else None
        if card is None:
            raise ParseError(f"no card has the id {card_id!r}")
        return card

    @property
    def is_king(self) -> bool:
        return self.rank == KING

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Card) -> bool:
        """Display order: by rank, then suit ``C D H S`` (as hands are listed in records)."""
        return DISPLAY_KEY[self.id] < DISPLAY_KEY[other.id]


ALL_CARDS: tuple[Card, ...] = tuple(Card(code) for code in CANONICAL_CODES)
BY_CODE: dict[str, Card] = {str(card): card for card in ALL_CARDS}
CARD_OF_ID: tuple[Card | None, ...] = tuple(BY_CODE.get(source) for source in SOURCES)
CODE_OF_ID: tuple[str, ...] = SOURCES


def parse_card(value: str | Card) -> Card:
    """A ``Card`` from a code or a ``Card``."""
    if isinstance(value, Card):
        return value
    return Card.parse(value)


def parse_cards(values: Iterable[str | Card], what: str) -> list[Card]:
    """Cards from codes, the error naming ``what`` and the position of a bad one."""
    if isinstance(values, str | bytes):
        raise ParseError(f"{what} is a list of card codes, not the text {values!r}")
    cards = []
    for position, value in enumerate(values):
        try:
            cards.append(parse_card(value))
        except ParseError as error:
            raise ParseError(f"{what}, position {position}: {error}") from None
    return cards


def sorted_codes(card_ids: Iterable[int]) -> list[str]:
    """Card codes sorted by rank, then suit: the order records list a hand in."""
    return [CODE_OF_ID[i] for i in sorted(card_ids, key=DISPLAY_KEY.__getitem__)]
