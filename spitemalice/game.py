"""One game of Spite & Malice: the position, the legal actions, playing and undoing an action.

The rules are those of SPITE_MALICE.md. Cards are small integer ids (see ``cards``); every pile
is a list with its top card last, so a play is an ``append`` and a ``pop``; a hand is a short
list kept sorted by id, which is also the text order of action sources. Which centre stacks
take a card of each rank is one precomputed row of masks, picked by the three stacks' sizes,
and ``legal_actions()`` joins precomputed tuples of the shared ``Action`` instances. Each play
pushes what it changed (cards drawn, the stock replaced by a reshuffle, the turn) so ``undo()``
restores the previous position exactly.
"""

from __future__ import annotations

import json
from bisect import insort
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from spitemalice.actions import ACTION_CODE, ACTIONS, TARGETS, Action
from spitemalice.cards import (
    CANONICAL_CODES,
    CARD_OF_ID,
    CENTRE_NAMES,
    CODE_OF_ID,
    COPIES,
    DISPLAY_KEY,
    ID_SPACE,
    KING,
    PAYOFF_ID,
    QUEEN,
    RANK_OF_ID,
    SIDE_IDS,
    SOURCE_ID,
    Card,
    parse_cards,
    sorted_codes,
)
from spitemalice.dealing import deal_ids, reshuffle_ids
from spitemalice.errors import IllegalActionError, ParseError

Status = Literal["playing", "won", "tied"]
PLAYING: Status = "playing"
WON: Status = "won"
TIED: Status = "tied"

PLAYERS = 2
PAYOFF_SIZE = 20
HAND_SIZE = 5
SIDE_STACKS = 4
CENTRE_STACKS = len(CENTRE_NAMES)
TURN_LIMIT = 300  # a game lasts at most 300 turns, both players' counted together

# --- Precomputed tables -----------------------------------------------------------------------

# FITS[size0 * 144 + size1 * 12 + size2][rank]: the mask of centre stacks (bit i = Ci) a card of
# that rank may go on, given the three stacks' sizes. A King fits every stack.
_STACK_SIZES = QUEEN  # a stack holds 0 … 11 cards between plays; the 12th completes it
FITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        0b111 if rank == KING else sum(1 << i for i, n in enumerate(sizes) if n + 1 == rank)
        for rank in range(KING + 1)
    )
    for sizes in (
        (a, b, c) for a in range(_STACK_SIZES) for b in range(_STACK_SIZES)
        for c in range(_STACK_SIZES)
    )
)

# HAND_BLOCK[card id][mask]: a hand card's legal actions, sorted: the centre stacks in the mask,
# then the four discards. PILE_BLOCK[source id][mask]: a pay-off or side top's, centre only.
HAND_BLOCK: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        tuple(ACTIONS[s][t] for t in range(CENTRE_STACKS) if mask >> t & 1)
        + ACTIONS[s][CENTRE_STACKS:]
        for mask in range(8)
    )
    for s in range(ID_SPACE)
)
PILE_BLOCK: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(ACTIONS[s][t] for t in range(CENTRE_STACKS) if mask >> t & 1) for mask in range(8))
    for s in range(ID_SPACE)
)
# In text order the pile sources fall among the hand's cards: codes of ranks 2-9, A, J and K
# sort before "P", the queens between "P" and "S0", the tens after "S3".
_FIRST_SIDE_ID = SIDE_IDS[0]
# SIDE_OF[source id]: 0-3 for "S0"-"S3", -1 otherwise.
SIDE_OF: tuple[int, ...] = tuple(
    SIDE_IDS.index(s) if s in SIDE_IDS else -1 for s in range(ID_SPACE)
)
IS_CARD: tuple[bool, ...] = tuple(RANK_OF_ID[s] > 0 for s in range(ID_SPACE))


def _fits_index(centre: list[list[int]]) -> int:
    a, b, c = centre
    return len(a) * 144 + len(b) * 12 + len(c)


class PlayResult(NamedTuple):
    """What one action did: who played it, the card it moved, the rank that card counts as on a
    centre stack (``None`` for a discard) and whether it completed the stack."""

    player: int
    action: Action
    card: Card
    counts_as: int | None
    completed: bool

    def to_json(self, state: dict[str, object]) -> dict[str, object]:
        """The vectors' ``expect`` entry, with ``state`` the position right after the action."""
        return {
            "player": self.player,
            "card": str(self.card),
            "as": self.counts_as,
            "completed": self.completed,
            "state": state,
        }


# What undo() needs of one action: source id, target id, player, card id, the stock and the
# stack a completion replaced, the cards drawn after it, who drew them, and the turn number
# before a discard.
_UndoEntry = tuple[int, int, int, int, list[int] | None, list[int] | None, list[int] | None,
                   int, int | None]

# Builds a PlayResult from a tuple without the Python-level __new__ of a NamedTuple: play()
# makes one per action.
_new_result = tuple.__new__


@dataclass(frozen=True)
class Position:
    """A whole position, hidden cards included, as card codes: what ``Game.position()`` returns
    and ``Game.from_position()`` builds a game from (for tests, tools and bug reports).

    Pay-off piles and the stock are listed top first; side and centre stacks bottom to top.
    ``turn_number`` is the current turn's number (the first turn is 1); ``completions`` how many
    centre stacks have been completed (it numbers the next reshuffle).
    """

    seed: bytes
    turn: int | None
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    payoffs: tuple[tuple[str, ...], tuple[str, ...]]
    sides: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    centre: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    turn_number: int = 1
    completions: int = 0
    status: Status = PLAYING
    winner: int | None = None
    points: int | None = None

    @classmethod
    def build(
        cls,
        *,
        seed: bytes = b"position",
        turn: int = 0,
        hands: Sequence[Iterable[str]] = ((), ()),
        payoffs: Sequence[Iterable[str]] = ((), ()),
        sides: Sequence[Sequence[Iterable[str]]] = ((), ()),
        centre: Sequence[Iterable[str]] = (),
        stock: Iterable[str] | None = None,
        turn_number: int = 1,
        completions: int = 0,
    ) -> Position:
        """A playing position from the parts given; ``stock=None`` puts every card not placed
        elsewhere into the stock in canonical order (top first), so the 104 cards add up.
        Missing side and centre stacks are empty."""
        def padded(stacks: Sequence[Iterable[str]], count: int) -> tuple[tuple[str, ...], ...]:
            listed = [tuple(stack) for stack in stacks]
            return tuple(listed + [()] * (count - len(listed)))

        hands_t = (tuple(hands[0]), tuple(hands[1]))
        payoffs_t = (tuple(payoffs[0]), tuple(payoffs[1]))
        sides_t = (padded(sides[0], SIDE_STACKS) if sides else ((),) * SIDE_STACKS,
                   padded(sides[1], SIDE_STACKS) if len(sides) > 1 else ((),) * SIDE_STACKS)
        centre_t = padded(centre, CENTRE_STACKS)
        if stock is None:
            placed = Counter(code for part in (*hands_t, *payoffs_t, *sides_t[0], *sides_t[1],
                                               *centre_t) for code in part)
            rest = []
            for code in CANONICAL_CODES:
                rest += [code] * max(0, COPIES - placed[code])
            stock = rest
        return cls(seed, turn, hands_t, payoffs_t, sides_t, centre_t, tuple(stock),
                   turn_number, completions)


class Game:
    """A game dealt from ``seed``. ``legal_actions()``, ``play()``, ``status``, ``winner``,
    ``points`` and ``turn`` are the API; ``undo()`` takes the last action back."""

    __slots__ = (
        "_centre",
        "_completions",
        "_fits",
        "_hands",
        "_payoffs",
        "_points",
        "_results",
        "_sides",
        "_status",
        "_stock",
        "_turn",
        "_turn_number",
        "_undo",
        "_winner",
        "seed",
    )

    def __init__(self, seed: bytes) -> None:
        s = deal_ids(seed)
        self.seed: bytes = bytes(seed)
        # The deal lists each pile top first; piles here keep their top card last.
        payoff0, payoff1 = s[:PAYOFF_SIZE], s[PAYOFF_SIZE:2 * PAYOFF_SIZE]
        self._payoffs: list[list[int]] = [payoff0[::-1], payoff1[::-1]]
        self._stock: list[int] = s[:2 * PAYOFF_SIZE - 1:-1]
        self._hands: list[list[int]] = [[], []]
        self._sides: list[list[list[int]]] = [[[] for _ in range(SIDE_STACKS)] for _ in range(2)]
        self._centre: list[list[int]] = [[] for _ in range(CENTRE_STACKS)]
        self._fits = FITS[0]
        # Who starts: the higher pay-off top (King highest); player 0 on equal ranks.
        first = 1 if RANK_OF_ID[payoff1[0]] > RANK_OF_ID[payoff0[0]] else 0
        self._turn: int | None = first
        self._turn_number = 1
        self._completions = 0
        self._status: Status = PLAYING
        self._winner: int | None = None
        self._points: int | None = None
        self._results: list[PlayResult] = []
        self._undo: list[_UndoEntry] = []
        self._draw(first)

    @classmethod
    def from_position(cls, position: Position) -> Game:
        """A game in ``position``, with no history; raises ``ParseError`` if the position is not
        one a game could reach (bad codes, cards not adding up to two decks, bad sizes)."""
        game = cls.__new__(cls)
        game.seed = bytes(position.seed)

        def ids(codes: Iterable[str], what: str) -> list[int]:
            return [card.id for card in parse_cards(codes, what)]

        if len(position.hands) != PLAYERS or len(position.payoffs) != PLAYERS or len(
                position.sides) != PLAYERS:
            raise ParseError("a position has two hands, two pay-off piles and two sets of sides")
        game._hands = [sorted(ids(position.hands[p], f"hand {p}")) for p in range(PLAYERS)]
        game._payoffs = [ids(position.payoffs[p], f"pay-off {p}")[::-1] for p in range(PLAYERS)]
        if any(len(stacks) != SIDE_STACKS for stacks in position.sides):
            raise ParseError(f"each player has {SIDE_STACKS} side stacks")
        game._sides = [[ids(stack, f"side stack S{i} of player {p}")
                        for i, stack in enumerate(position.sides[p])] for p in range(PLAYERS)]
        if len(position.centre) != CENTRE_STACKS:
            raise ParseError(f"there are {CENTRE_STACKS} centre stacks")
        game._centre = [ids(stack, f"centre stack C{i}") for i, stack in enumerate(position.centre)]
        for i, stack in enumerate(game._centre):
            if len(stack) >= QUEEN:
                raise ParseError(f"centre stack C{i} holds {len(stack)} cards; at most 11 stay")
            for height, card in enumerate(stack, start=1):
                if RANK_OF_ID[card] not in (height, KING):
                    raise ParseError(f"centre stack C{i}: {CODE_OF_ID[card]} cannot be card "
                                     f"{height} (it must rank {height} or be a King)")
        game._stock = ids(position.stock, "stock")[::-1]
        counts = Counter(card for part in (*game._hands, *game._payoffs, *game._sides[0],
                                           *game._sides[1], *game._centre, game._stock)
                         for card in part)
        wrong = [f"{CODE_OF_ID[c]} x{counts[c]}" for c in sorted(counts) if counts[c] != COPIES]
        missing = [code for code in CANONICAL_CODES if SOURCE_ID[code] not in counts]
        if wrong or missing:
            raise ParseError("a position holds each card code exactly twice; wrong: "
                             f"{' '.join(wrong) or '-'}; missing: {' '.join(missing) or '-'}")
        if any(len(hand) > HAND_SIZE for hand in game._hands):
            raise ParseError(f"a hand holds at most {HAND_SIZE} cards")
        game._fits = FITS[_fits_index(game._centre)]
        game._turn_number = position.turn_number
        game._completions = position.completions
        statuses: dict[str, Status] = {PLAYING: PLAYING, WON: WON, TIED: TIED}
        if position.status not in statuses:
            raise ParseError(f"a status is playing, won or tied, not {position.status!r}")
        if not 1 <= position.turn_number <= TURN_LIMIT:
            raise ParseError(f"a turn number is 1 to {TURN_LIMIT}, not {position.turn_number!r}")
        game._status = statuses[position.status]
        game._winner = position.winner
        game._points = position.points
        if position.status == PLAYING:
            if position.turn not in (0, 1):
                raise ParseError(f"the player to move is 0 or 1, not {position.turn!r}")
            if not game._hands[position.turn] or any(len(p) == 0 for p in game._payoffs):
                raise ParseError("while playing, the player to move holds a card and both "
                                 "pay-off piles hold cards")
            game._turn = position.turn
        else:
            game._turn = None
        game._results = []
        game._undo = []
        return game

    # --- Questions -------------------------------------------------------------------------

    @property
    def status(self) -> Status:
        """``"playing"``, ``"won"`` or ``"tied"``."""
        return self._status

    @property
    def winner(self) -> int | None:
        """The winning player (0 or 1) once won, else ``None``."""
        return self._winner

    @property
    def points(self) -> int | None:
        """``None`` while playing; the winner's points once won (cards left in the loser's
        pay-off pile); 0 for a tie."""
        return self._points

    @property
    def turn(self) -> int | None:
        """The player to move (0 or 1), ``None`` once the game is over."""
        return self._turn

    @property
    def turn_number(self) -> int:
        """The current turn's number, both players' turns counted together (the first is 1)."""
        return self._turn_number

    @property
    def completions(self) -> int:
        """How many centre stacks have been completed (and shuffled back) so far."""
        return self._completions

    @property
    def history(self) -> list[PlayResult]:
        """What each action so far did, in order."""
        return list(self._results)

    @property
    def actions(self) -> list[Action]:
        """The actions played so far, in order."""
        return [result.action for result in self._results]

    @property
    def actions_played(self) -> int:
        """How many actions have been played so far (``len(actions)``, without the list)."""
        return len(self._results)

    def actions_since(self, start: int) -> list[Action]:
        """The actions played after the first ``start``, in order."""
        return [result.action for result in self._results[start:]]

    @property
    def last_result(self) -> PlayResult | None:
        return self._results[-1] if self._results else None

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    def hand(self, player: int) -> list[Card]:
        """``player``'s hand, sorted by rank then suit."""
        return [CARD_OF_ID[c] for c in sorted(self._hands[player], key=DISPLAY_KEY.__getitem__)]  # type: ignore[misc]

    def payoff_size(self, player: int) -> int:
        return len(self._payoffs[player])

    def payoff_top(self, player: int) -> Card | None:
        pile = self._payoffs[player]
        return CARD_OF_ID[pile[-1]] if pile else None

    def side_stacks(self, player: int) -> list[list[Card]]:
        """``player``'s four side stacks, each bottom to top."""
        return [[CARD_OF_ID[c] for c in stack] for stack in self._sides[player]]  # type: ignore[misc]

    def centre_stacks(self) -> list[list[Card]]:
        """The three centre stacks, each bottom to top (card *n* counts as rank *n*)."""
        return [[CARD_OF_ID[c] for c in stack] for stack in self._centre]  # type: ignore[misc]

    def legal_actions(self) -> list[Action]:
        """Every legal action for the player to move, sorted as ``(source, target)`` text pairs;
        empty once the game is over."""
        if self._status is not PLAYING:
            return []
        p: int = self._turn  # type: ignore[assignment]
        fits = self._fits
        out: list[Action] = []
        # The hand is sorted by id, which is text order; "P" and "S0"-"S3" are merged in where
        # their names sort (stage 0: before "P", 1: between "P" and "S0", 2: after "S3").
        stage = 0
        previous = -1
        for card in self._hands[p]:
            if card == previous:
                continue
            previous = card
            if stage == 0 and card > PAYOFF_ID:
                stage = 1
                payoff = self._payoffs[p]
                out += PILE_BLOCK[PAYOFF_ID][fits[RANK_OF_ID[payoff[-1]]]]
            if stage == 1 and card > _FIRST_SIDE_ID:
                stage = 2
                for side, stack in zip(SIDE_IDS, self._sides[p], strict=True):
                    if stack:
                        out += PILE_BLOCK[side][fits[RANK_OF_ID[stack[-1]]]]
            out += HAND_BLOCK[card][fits[RANK_OF_ID[card]]]
        if stage == 0:
            payoff = self._payoffs[p]
            out += PILE_BLOCK[PAYOFF_ID][fits[RANK_OF_ID[payoff[-1]]]]
        if stage < 2:
            for side, stack in zip(SIDE_IDS, self._sides[p], strict=True):
                if stack:
                    out += PILE_BLOCK[side][fits[RANK_OF_ID[stack[-1]]]]
        return out

    def is_legal(self, action: object) -> bool:
        try:
            self._check(action)
        except ValueError:
            return False
        return True

    # --- Playing ---------------------------------------------------------------------------

    def play(self, action: Sequence[str]) -> PlayResult:
        """Play ``action`` (``("P", "C0")``, ``["7H", "S3"]`` or an ``Action``) for the player
        to move, and everything it sets off: a completed stack's reshuffle, the win, the
        empty-hand draw, and after a discard the next turn's draw (or the end of the game).

        Raises ``IllegalActionError`` if it is not legal now and ``ParseError`` if it is not an
        action at all (both ``ValueError`` subclasses, naming the action); the game is then
        unchanged.
        """
        try:  # a list, as JSON gives, is looked up as the pair it holds
            code = ACTION_CODE.get(action if type(action) is not list else tuple(action))  # type: ignore[arg-type]
        except TypeError:  # unhashable parts: not an action; _check says so
            code = None
        if code is None or self._status is not PLAYING:
            code = self._check(action)  # the slow path: explains what is wrong
        source, target = code
        p: int = self._turn  # type: ignore[assignment]
        hand = self._hands[p]

        # Take the card from its source.
        if IS_CARD[source]:
            if source not in hand:
                code = self._check(action)
            card = source
            pile = None
        elif source == PAYOFF_ID:
            pile = self._payoffs[p]
            card = pile[-1]
        else:
            pile = self._sides[p][SIDE_OF[source]]
            if not pile:
                code = self._check(action)
            card = pile[-1]

        if target < CENTRE_STACKS:
            if not self._fits[RANK_OF_ID[card]] >> target & 1:
                self._check(action)
            if pile is None:
                hand.remove(card)
            else:
                pile.pop()
            centre = self._centre
            stack = centre[target]
            stack.append(card)
            counts_as = len(stack)
            old_stock = old_stack = None
            if counts_as == QUEEN:
                # Completed: the stock (top to bottom) then the stack (bottom to top), shuffled.
                self._completions += 1
                old_stock, old_stack = self._stock, stack
                self._stock = reshuffle_ids(
                    self.seed, self._completions, old_stock[::-1] + stack)[::-1]
                centre[target] = []
            self._fits = FITS[_fits_index(centre)]
            drawn = None
            if pile is not None and not pile and source == PAYOFF_ID:
                self._status = WON
                self._winner = p
                self._points = len(self._payoffs[1 - p])
                self._turn = None
            elif not hand:
                drawn = self._draw(p)
            self._undo.append((source, target, p, card, old_stock, old_stack, drawn, p, None))
            result = _new_result(PlayResult, (p, ACTIONS[source][target], CARD_OF_ID[card],
                                              counts_as, counts_as == QUEEN))
        else:
            if pile is not None:
                self._check(action)  # only a hand card may be discarded
            hand.remove(card)
            self._sides[p][target - CENTRE_STACKS].append(card)
            turn_number = self._turn_number
            drawn = None
            if turn_number >= TURN_LIMIT:
                self._status = TIED
                self._points = 0
                self._turn = None
            else:
                self._turn_number = turn_number + 1
                self._turn = 1 - p
                drawn = self._draw(1 - p)
            self._undo.append((source, target, p, card, None, None, drawn, 1 - p, turn_number))
            result = _new_result(PlayResult, (p, ACTIONS[source][target], CARD_OF_ID[card],
                                              None, False))
        self._results.append(result)
        return result

    def _draw(self, player: int) -> list[int] | None:
        """Fill ``player``'s hand to 5 from the stock; a tie if a draw is needed and the stock is
        empty. Returns the cards drawn (in stock order, top last) for undo."""
        hand = self._hands[player]
        needed = HAND_SIZE - len(hand)
        if needed <= 0:
            return None
        stock = self._stock
        if not stock:
            self._status = TIED
            self._points = 0
            self._turn = None
            return None
        drawn = stock[-needed:]
        del stock[-needed:]
        for card in drawn:
            insort(hand, card)
        return drawn

    def undo(self) -> PlayResult:
        """Take back the last action, with its draws and reshuffle, and return what it did."""
        if not self._undo:
            raise IllegalActionError("there is no action to undo")
        source, target, p, card, old_stock, old_stack, drawn, drawer, turn_number = (
            self._undo.pop())
        if drawn:
            hand = self._hands[drawer]
            for drawn_card in drawn:
                hand.remove(drawn_card)
            self._stock.extend(drawn)
        self._status = PLAYING
        self._winner = self._points = None
        self._turn = p
        if target < CENTRE_STACKS:
            if old_stack is not None:
                # Copies, so that a game and its copy() can both undo this completion.
                self._stock = list(old_stock)  # type: ignore[arg-type]  # set with old_stack
                self._centre[target] = list(old_stack)
                self._completions -= 1
            self._centre[target].pop()
            self._fits = FITS[_fits_index(self._centre)]
        else:
            self._sides[p][target - CENTRE_STACKS].pop()
            self._turn_number = turn_number  # type: ignore[assignment]  # set for a discard
        if IS_CARD[source]:
            insort(self._hands[p], card)
        elif source == PAYOFF_ID:
            self._payoffs[p].append(card)
        else:
            self._sides[p][SIDE_OF[source]].append(card)
        return self._results.pop()

    def copy(self) -> Game:
        """An independent game in the same position, with the same history and undo."""
        game = Game.__new__(Game)
        game.seed = self.seed
        game._hands = [list(hand) for hand in self._hands]
        game._payoffs = [list(pile) for pile in self._payoffs]
        game._sides = [[list(stack) for stack in stacks] for stacks in self._sides]
        game._centre = [list(stack) for stack in self._centre]
        game._stock = list(self._stock)
        game._fits = self._fits
        game._turn = self._turn
        game._turn_number = self._turn_number
        game._completions = self._completions
        game._status = self._status
        game._winner = self._winner
        game._points = self._points
        game._results = list(self._results)
        # Undo entries hold the stock and stack lists a completion replaced; undo() restores
        # copies of them, so both games may share the entries.
        game._undo = list(self._undo)
        return game

    # --- Whole positions -------------------------------------------------------------------

    def position(self) -> Position:
        """The whole position, hidden cards included (see ``Position``)."""
        def codes(cards: Iterable[int]) -> tuple[str, ...]:
            return tuple(CODE_OF_ID[c] for c in cards)

        return Position(
            seed=self.seed,
            turn=self._turn,
            hands=(tuple(sorted_codes(self._hands[0])), tuple(sorted_codes(self._hands[1]))),
            payoffs=(codes(self._payoffs[0][::-1]), codes(self._payoffs[1][::-1])),
            sides=(tuple(codes(stack) for stack in self._sides[0]),
                   tuple(codes(stack) for stack in self._sides[1])),
            centre=tuple(codes(stack) for stack in self._centre),
            stock=codes(self._stock[::-1]),
            turn_number=self._turn_number,
            completions=self._completions,
            status=self._status,
            winner=self._winner,
            points=self._points,
        )

    def state_json(self) -> dict[str, object]:
        """The position in the vectors' ``state`` form (SPITE_MALICE.md, "Records")."""
        payoffs = self._payoffs
        return {
            "turn": self._turn,
            "hands": [sorted_codes(self._hands[0]), sorted_codes(self._hands[1])],
            "payoff": [len(payoffs[0]), len(payoffs[1])],
            "payoff_top": [CODE_OF_ID[pile[-1]] if pile else None for pile in payoffs],
            "sides": [[[CODE_OF_ID[c] for c in stack] for stack in stacks]
                      for stacks in self._sides],
            "centre": [len(stack) for stack in self._centre],
            "stock": len(self._stock),
            "status": self._status,
            "winner": self._winner,
            "points": self._points,
        }

    # --- Explaining errors -----------------------------------------------------------------

    def _check(self, action: object) -> tuple[int, int]:
        """The (source id, target id) of a legal action, or the error that says why not."""
        index = len(self._results)
        try:
            parsed = Action.parse(action)
        except ParseError as error:
            raise ParseError(f"action {index}: {error}") from None
        if self._status is not PLAYING:
            raise self._illegal(index, parsed, f"the game is over ({self._status})")
        source, target = ACTION_CODE[parsed]
        p: int = self._turn  # type: ignore[assignment]
        if IS_CARD[source]:
            if source not in self._hands[p]:
                raise self._illegal(index, parsed, f"{parsed.source} is not in player {p}'s hand")
            card = source
        elif source == PAYOFF_ID:
            card = self._payoffs[p][-1]
        else:
            stack = self._sides[p][SIDE_OF[source]]
            if not stack:
                raise self._illegal(index, parsed, f"side stack {parsed.source} is empty")
            card = stack[-1]
        if target >= CENTRE_STACKS:
            if not IS_CARD[source]:
                raise self._illegal(index, parsed, "only a card from the hand may be discarded "
                                                   "onto a side stack")
        elif not self._fits[RANK_OF_ID[card]] >> target & 1:
            needed = len(self._centre[target]) + 1
            raise self._illegal(index, parsed, f"{CODE_OF_ID[card]} does not fit on "
                                               f"{TARGETS[target]}, which needs rank {needed} "
                                               "or a King")
        return source, target

    def _illegal(self, index: int, action: Action, reason: str) -> IllegalActionError:
        return IllegalActionError(f"action {index}: cannot play {json.dumps(action.to_json())}: "
                                  f"{reason}")

    def __repr__(self) -> str:
        return (f"<Game {self._status} turn {self._turn_number}, player {self._turn} to move, "
                f"{len(self._results)} actions>")


