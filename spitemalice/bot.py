"""The house bot: a fair Spite & Malice player at four levels, ``easy``, ``normal``, ``hard``
and ``expert``.

**What it sees.** ``bot_turn(view, unseen, level, seed)`` decides from two things only: the
engine's ``player_view`` of the bot's seat and the multiset of cards that seat has not seen
(``unseen_cards(view)``: the stock, the other hand and the cards under both pay-off tops,
together and unordered). It is never given a ``Game``, so it cannot read the opponent's hand,
the order of the stock or the pay-off cards below the top.

**What it returns.** The actions the bot plays now, in order, ending at the first point where
a card it has not seen comes into play:

- with its discard, which ends the turn;
- with a play of its pay-off top (the card below turns face up), unless that play wins;
- with a play onto a centre stack that empties its hand (the hand refills from the stock).

The caller plays them in order and, while the game goes on and it is still the bot's turn,
calls again with the new view (``play_turn`` does exactly this on a ``Game``). A turn is
therefore one or more calls; each call's answer is legal in the view it was given.

**Deterministic.** The same view, unseen cards, level and seed give the same actions: the
only randomness comes from ``random.Random`` seeded with a SHA-256 of the seed, the level and
the number of actions played so far.

**How it decides.** All four levels search this turn's sequences of plays from the cards the
bot can see (hand, side-stack tops and the cards under them, pay-off top), merging sequences
that reach the same position, and score every way the turn can end with a position
evaluation (see docs/SPITE_MALICE_BOT.md):

- ``easy`` looks at a few dozen positions (and scores at most a few hundred ways to end the
  turn, so that a call stays near a millisecond), gives the opponent's chances a quarter of
  the weight and scores with much seeded noise (up to 100 points, a whole pay-off card): a
  casual player who sees its own pay-off plays but often misjudges the rest.
- ``normal`` searches the whole turn and weighs the chance that the opponent plays its pay-off
  top next (from its side stacks and the cards it may hold, Kings as wild), its own chance of
  playing its pay-off top next turn, side-stack structure and Kings kept in hand.
- ``hard`` takes ``normal``'s best dozen ways to end the turn and plays, in 32 sampled deals
  of the unseen cards (determinisation), the opponent's reply and its own next turn from each,
  keeping the one that sheds the most pay-off cards relative to the opponent on average.
- ``expert`` does what ``hard`` does with twice the ways (24) in four times the deals (128),
  so that less of the sampling's noise decides, and scores with its own evaluation weights
  (``EXPERT_WEIGHTS``), fitted by self-play against ``hard`` (``spitemalice.bot_fit``). Its
  work is bounded by counts, never by the clock, so the same seed gives the same answer on
  any machine: tens of milliseconds of CPU a turn (about eight times ``hard``'s).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from spitemalice.actions import ACTION_OF, Action
from spitemalice.cards import KING, QUEEN, RANK_CODES
from spitemalice.game import PLAYING, Game
from spitemalice.view import PlayerView, player_view, unseen_cards

Level = Literal["easy", "normal", "hard", "expert"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard", "expert")

HAND_SIZE = 5
SIDE_STACKS = 4
CENTRE_STACKS = 3
_SIDES = ("S0", "S1", "S2", "S3")
_CENTRES = ("C0", "C1", "C2")
RANK = {character: rank for rank, character in enumerate(RANK_CODES, start=1)}

# The scale of the evaluation: one card off the bot's own pay-off pile is 100 points.
PAYOFF_CARD = 100.0
WIN = 100_000.0
STALL_STOCK = 30  # the stall bonus (Weights.stall) grows below this many cards in the stock


@dataclass(frozen=True, slots=True)
class Weights:
    """The position evaluation's weights, in points where one card off the bot's own pay-off
    pile is 100 (docs/SPITE_MALICE_BOT.md, "How it decides"). The defaults are the weights
    set by hand, which ``easy``, ``normal`` and ``hard`` play with; ``expert`` plays with
    ``EXPERT_WEIGHTS``."""

    threat: float = 60.0  # times the chance that the opponent plays its pay-off top next turn
    prospect: float = 35.0  # times the chance that the bot plays its own pay-off top next turn
    king_in_hand: float = 6.0  # each King kept in hand
    refill: float = 12.0  # the hand refills: five fresh cards
    reveal: float = 8.0  # a new pay-off top turns up and the turn goes on ...
    reveal_prospect: float = 0.3  # ... with this share of ``prospect`` besides
    empty_side: float = 2.0  # each empty side stack
    played: float = -3.0  # each card this turn puts onto the centre from the hand
    side_played: float = -6.0  # each card this turn puts onto the centre from a side stack
    stall: float = 10.0  # more for each, the closer the stock is to running dry (a tie)
    run: float = 1.5  # a side-stack card on the one above it in rank (counting down)
    equal: float = 0.5  # a side-stack card on one of its own rank
    gap: float = -1.5  # a side-stack card on a higher one, not the next ...
    gap_step: float = 0.4  # ... less this for each rank between them
    buried: float = -3.0  # a side-stack card on a lower one ...
    buried_step: float = 0.4  # ... less this for each rank between them
    king_covered: float = -8.0  # a King covered on a side stack
    king_on_side: float = -5.0  # a King laid on a side stack (empty or not)
    base_step: float = 0.25  # a card starting an empty side stack: this times its rank ...
    base_offset: float = -2.5  # ... plus this
    # The race (``race``: how far the bot is behind in pay-off cards left, -1 … 1) scales the
    # two chances: ``threat`` counts ``1 + threat_race * race`` times, ``prospect``
    # ``1 + prospect_race * race`` times. At 0 (the default) the race changes nothing.
    threat_race: float = 0.0
    prospect_race: float = 0.0


DEFAULT_WEIGHTS = Weights()
RACE_CARDS = 10  # race: the difference of the pay-off cards left, over this, within -1 … 1


def race(own_left: int, other_left: int) -> float:
    """How far the bot is behind in the race to empty its pay-off pile: the bot's pay-off
    cards left less the opponent's, over ``RACE_CARDS``, kept within -1 … 1 (positive: the
    bot has more left, it is behind; negative: it is ahead)."""
    return max(-1.0, min(1.0, (own_left - other_left) / RACE_CARDS))


def raced(weights: Weights, own_left: int, other_left: int) -> Weights:
    """``weights`` with ``threat`` and ``prospect`` scaled by the race (``Weights``'s
    ``threat_race`` and ``prospect_race``); the same object when both factors are 0."""
    if not weights.threat_race and not weights.prospect_race:
        return weights
    d = race(own_left, other_left)
    return replace(weights, threat=weights.threat * (1.0 + weights.threat_race * d),
                   prospect=weights.prospect * (1.0 + weights.prospect_race * d),
                   threat_race=0.0, prospect_race=0.0)


# How much each level searches, and hard's sampling.
EASY_NODES = 60  # positions easy looks at in a call ...
EASY_SCORES = 250  # ... and ways to end it that it scores (each a few microseconds)
NODES = 4000  # positions normal and hard look at, at most
HARD_CANDIDATES = 12  # hard judges this many ways to end the turn again ...
HARD_WORLDS = 32  # ... in this many sampled deals of the unseen cards
HARD_DUMP = True  # the sampled turns also play loose cards onto the centre
HARD_LOSS = 2000.0  # what a sampled win for either side counts
HARD_WEIGHT = 1.0  # the weight of the sampled turns against the estimates they replace
# expert: hard's re-ranking, of twice the ways, in four times the deals.
EXPERT_CANDIDATES = 24  # expert judges this many ways to end the turn again ...
EXPERT_WORLDS = 128  # ... in this many sampled deals of the unseen cards
EASY_NOISE = 100.0  # easy's scores are off by up to this much, at random
EASY_THREAT = 15.0  # and it watches the opponent's pay-off top only a little
# expert's evaluation weights: fitted by SPSA over self-play against hard on training deals
# 2000-2423 (``python -m spitemalice.bot_fit fit --iterations 53``, docs/SPITE_MALICE_BOT.md).
EXPERT_WEIGHTS = Weights(
    threat=30.726, prospect=37.793, king_in_hand=7.315, refill=8.183, reveal=9.029,
    empty_side=1.232, played=-2.405, side_played=-5.913, stall=8.765, run=0.972, gap=-2.007,
    buried=-3.358, king_covered=-5.024, king_on_side=-4.925,
)


def bot_turn(view: PlayerView, unseen: Mapping[str, int], level: str = "normal",
             seed: bytes | str = b"", weights: Weights | None = None) -> list[Action]:
    """The actions the bot plays now, from ``view`` (its seat's ``player_view``, with the bot
    to move) and ``unseen`` (``unseen_cards(view)``): see the module's docstring. ``weights``
    replaces the level's evaluation weights (``DEFAULT_WEIGHTS``; ``EXPERT_WEIGHTS`` for
    ``expert``): for fitting and measuring them, never in play."""
    if level not in LEVELS:
        raise ValueError(f"a level is one of {', '.join(LEVELS)}, not {level!r}")
    if view["status"] != PLAYING or view["turn"] != view["seat"]:
        raise ValueError("the bot moves only in a game being played, on its own turn")
    table = _Table(view, unseen)
    rng = random.Random(_rng_seed(seed, level, view))
    if weights is None:
        weights = EXPERT_WEIGHTS if level == "expert" else DEFAULT_WEIGHTS
    search = _Search(table, level, rng, weights)
    plan = search.run()
    if level == "hard":
        plan = _Hard(table, search, rng).choose(plan)
    elif level == "expert":
        plan = _Expert(table, search, rng).choose(plan)
    return [ACTION_OF[move] for move in plan]


def play_turn(game: Game, level: str = "normal", seed: bytes | str = b"",
              observe: Callable[[Action], None] | None = None,
              weights: Weights | None = None) -> list[Action]:
    """Play the bot's whole turn on ``game`` for the player to move: build that seat's view
    and unseen cards, play what ``bot_turn`` returns, and call it again until the turn is
    over. Returns every action played (``observe``, if given, sees each one as it is played).
    """
    seat = game.turn
    if seat is None:
        raise ValueError("the game is over")
    played: list[Action] = []
    while game.status == PLAYING and game.turn == seat:
        view = player_view(game, seat, since=game.actions_played)
        for action in bot_turn(view, unseen_cards(view), level, seed, weights):
            game.play(action)
            played.append(action)
            if observe is not None:
                observe(action)
    return played


def _rng_seed(seed: bytes | str, level: str, view: PlayerView) -> int:
    raw = seed.encode() if isinstance(seed, str) else bytes(seed)
    digest = hashlib.sha256(b"spite-malice-bot/v1\0" + raw + b"\0" + level.encode()
                            + view["actions_played"].to_bytes(8, "big")).digest()
    return int.from_bytes(digest[:8], "big")


# --- What the seat sees, in ranks ----------------------------------------------------------

def _miss(copies: int, total: int, drawn: int) -> float:
    """The chance that ``drawn`` cards taken from ``total`` hold none of ``copies`` cards."""
    p = 1.0
    for j in range(drawn):
        if total - j <= 0:
            return 0.0
        p *= max(0.0, (total - copies - j) / (total - j))
    return p


def _runs(stacks: Sequence[Sequence[int]], counts: list[int]) -> None:
    """Add to ``counts`` each stack's top and the cards under it that would follow it onto a
    centre stack (top 5 over 6 over 7: all three come off in turn)."""
    for stack in stacks:
        i = len(stack) - 1
        if i < 0:
            continue
        counts[stack[i]] += 1
        while i > 0 and stack[i - 1] == stack[i] + 1:
            i -= 1
            counts[stack[i]] += 1


class _Table:
    """The view in ranks (1 Ace … 13 King), with what the unseen cards make likely."""

    def __init__(self, view: PlayerView, unseen: Mapping[str, int]) -> None:
        me = view["seat"]
        other = 1 - me
        self.codes: list[list[str]] = [[] for _ in range(KING + 1)]
        for code in view["hand"]:
            self.codes[RANK[code[0]]].append(code)
        self.hand = [len(codes) for codes in self.codes]
        self.sides = [[RANK[c[0]] for c in stack] for stack in view["sides"][me]]
        self.other_sides = [[RANK[c[0]] for c in stack] for stack in view["sides"][other]]
        self.centre = [len(stack) for stack in view["centre"]]
        top = view["payoff_top"][me]
        other_top = view["payoff_top"][other]
        self.top = RANK[top[0]] if top else 0
        self.other_top = RANK[other_top[0]] if other_top else 0
        self.payoff = view["payoff"][me]
        self.other_payoff = view["payoff"][other]
        self.other_hand = view["hand_sizes"][other]
        self.stock = view["stock"]
        self.unseen = [0] * (KING + 1)
        for code, count in unseen.items():
            self.unseen[RANK[code[0]]] += count
        self._chances()

    def _chances(self) -> None:
        total = sum(self.unseen)
        # draw[n][r]: the chance that n cards from the unseen ones hold a card of rank r or,
        # failing that, that a King stands in for it (counted at half: one King, many needs).
        self.draw: list[list[float]] = []
        for n in range(HAND_SIZE + 1):
            king = 0.5 * (1.0 - _miss(self.unseen[KING], total, n))
            row = [0.0] * (KING + 1)
            for r in range(1, KING):
                hit = 1.0 - _miss(self.unseen[r], total, n)
                row[r] = hit + (1.0 - hit) * king
            row[KING] = 1.0 - _miss(self.unseen[KING], total, n)
            self.draw.append(row)
        self.other_known = [0] * (KING + 1)
        _runs(self.other_sides, self.other_known)


def _reach(top: int, centre: Sequence[int], known: list[int], draw: list[float]) -> float:
    """The chance (roughly) that a player with the ``known`` cards (counts by rank) and a
    draw whose chances per rank are ``draw`` can play a pay-off top of rank ``top`` onto one
    of the centre stacks of sizes ``centre``, building up to it."""
    if top == KING:
        return 1.0
    fail = 1.0
    for size in centre:
        lo = size + 1
        if top < lo:
            continue
        p = 1.0
        kings = known[KING]
        for r in range(lo, top):
            if known[r]:
                continue
            if kings:
                kings -= 1
                continue
            p *= draw[r]
            if p < 0.002:
                break
        fail *= 1.0 - p
    return 1.0 - fail


def _pair(below: int, above: int, w: Weights) -> float:
    """How well card ``above`` sits on card ``below`` in a side stack."""
    if above == KING:
        return w.king_on_side
    if below == KING:
        return w.king_covered
    if above == below - 1:
        return w.run
    if above == below:
        return w.equal
    if above < below:
        return w.gap - w.gap_step * (below - 1 - above)
    return w.buried - w.buried_step * (above - below)


def _base(card: int, w: Weights) -> float:
    """How well card ``card`` starts an empty side stack (high cards count down longest)."""
    return w.king_on_side if card == KING else w.base_step * card + w.base_offset


def _prefix(stack: Sequence[int], w: Weights) -> list[float]:
    """The structure score of ``stack`` cut to each height 0 … len."""
    scores = [w.empty_side]
    for height, card in enumerate(stack):
        if height == 0:
            scores.append(_base(card, w))
        else:
            scores.append(scores[-1] + _pair(stack[height - 1], card, w))
    return scores


# --- The turn search -----------------------------------------------------------------------

END, REVEALED, REFILLED, WON_GAME = "end", "reveal", "refill", "win"
Move = tuple[str, str]


class _Leaf:
    """One way this turn's known part can end: its score, its moves and the position."""

    __slots__ = ("centre", "hand", "kind", "moves", "played", "sides", "value")

    def __init__(self, value: float, moves: list[Move], kind: str, hand: list[int],
                 sides: list[list[int]], centre: list[int], played: int) -> None:
        self.value = value
        self.moves = moves
        self.kind = kind
        self.hand = hand
        self.sides = sides
        self.centre = centre
        self.played = played


class _Search:
    """Depth-first search over this turn's plays from the known cards, merging positions
    reached twice, scoring each end of the known part (a discard, a pay-off play that shows
    a new top, a play that empties the hand)."""

    def __init__(self, table: _Table, level: str, rng: random.Random, weights: Weights) -> None:
        self.t = table
        self.level = level
        self.rng = rng
        easy = level == "easy"
        if not easy:  # the race's share of the two chances, once per call (easy: none)
            weights = raced(weights, table.payoff, table.other_payoff)
        self.w = weights
        self.limit = EASY_NODES if easy else NODES
        # Strict: no position past the limit is looked at (easy; expert's sampled turns). Not
        # strict (normal, hard, as measured): the positions next to the last are scored too.
        self.strict = easy
        self.score_limit = EASY_SCORES if easy else 1 << 62
        self.scored = 0
        self.noise = EASY_NOISE if easy else 0.0
        self.watch = EASY_THREAT if easy else weights.threat  # the opponent's chance's weight
        self.keep = {"hard": HARD_CANDIDATES, "expert": EXPERT_CANDIDATES}.get(level, 0)
        self.candidates: list[_Leaf] = []  # hard: the best few END leaves
        self.best_other: _Leaf | None = None  # hard: the best leaf of another kind
        self.threats: dict[tuple[int, ...], float] = {}
        self.prefix = [_prefix(stack, weights) for stack in table.sides]
        self.stall = weights.stall * max(0.0, 1.0 - table.stock / STALL_STOCK)

    def run(self) -> list[Move]:
        t = self.t
        self.hand = list(t.hand)
        self.sides = [list(stack) for stack in t.sides]
        self.centre = list(t.centre)
        self.moves: list[Move] = []
        self.seen: set[tuple[object, ...]] = set()
        self.nodes = 0
        self.best_value = float("-inf")
        self.best_moves: list[Move] = []
        self._node()
        return self.best_moves

    # Scoring -----------------------------------------------------------------------------

    def threat(self, centre: Sequence[int]) -> float:
        key = tuple(sorted(centre))
        value = self.threats.get(key)
        if value is None:
            t = self.t
            value = _reach(t.other_top, key, t.other_known, t.draw[HAND_SIZE])
            self.threats[key] = value
        return value

    def played(self) -> float:
        """What the cards played onto the centre so far this turn are worth."""
        sides = sum(1 for source, _ in self.moves if source[0] == "S")
        hand = len(self.moves) - sides
        w = self.w
        return (w.played + self.stall) * hand + (w.side_played + self.stall) * sides

    def structure(self) -> float:
        prefix = self.prefix
        return sum(prefix[s][len(stack)] for s, stack in enumerate(self.sides))

    def score(self, kind: str, payoff_played: int) -> float:
        """The current search position's score (after a discard for END)."""
        if kind == WON_GAME:
            return WIN
        t = self.t
        w = self.w
        hand = self.hand
        value = PAYOFF_CARD * payoff_played + self.structure() + self.played()
        if self.noise:
            value += self.rng.uniform(0.0, self.noise)
            if not self.watch:
                return value
        value += w.king_in_hand * hand[KING] - self.watch * self.threat(self.centre)
        if kind == REVEALED:
            return value + w.reveal + w.prospect * w.reveal_prospect
        known = list(hand)
        _runs(self.sides, known)
        held = sum(hand)
        prospect = _reach(t.top, self.centre, known, t.draw[max(0, HAND_SIZE - held)])
        value += w.prospect * prospect
        if kind == REFILLED:
            value += w.refill
        return value

    def offer(self, value: float, kind: str, extra: Move | None, played: int) -> None:
        self.scored += 1
        moves = [*self.moves, extra] if extra is not None else list(self.moves)
        if value > self.best_value:
            self.best_value = value
            self.best_moves = moves
        if self.keep:
            leaf = _Leaf(value, moves, kind, list(self.hand), [list(s) for s in self.sides],
                         list(self.centre), played)
            if kind == END:
                self.candidates.append(leaf)
                if len(self.candidates) > 4 * self.keep:
                    self.candidates.sort(key=lambda c: -c.value)
                    del self.candidates[self.keep:]
            elif self.best_other is None or value > self.best_other.value:
                self.best_other = leaf

    # The walk ----------------------------------------------------------------------------

    def _node(self) -> None:
        hand, sides, centre = self.hand, self.sides, self.centre
        key = (tuple(hand), tuple(len(s) for s in sides), tuple(sorted(centre)))
        if key in self.seen or (self.strict and (self.nodes >= self.limit
                                                 or self.scored >= self.score_limit)):
            return
        self.seen.add(key)
        self.nodes += 1
        t = self.t
        codes = t.codes
        # End the turn: each distinct hand rank onto each side stack (empty ones are alike).
        for r in range(1, KING + 1):
            if not hand[r]:
                continue
            code = codes[r][hand[r] - 1]
            hand[r] -= 1
            empty_done = False
            for s in range(SIDE_STACKS):
                stack = sides[s]
                height = len(stack)
                if not height:
                    if empty_done:
                        continue
                    empty_done = True
                stack.append(r)
                value = self._discard_score(s, height, r)
                stack.pop()
                self.offer(value, END, (code, _SIDES[s]), 0)
            hand[r] += 1
        if self.nodes >= self.limit:
            return
        # Plays onto the centre: pay-off top, side tops, hand cards.
        if t.top:
            for i in self._targets(t.top):
                self._play_payoff(i)
        for s in range(SIDE_STACKS):
            stack = sides[s]
            if stack:
                card = stack[-1]
                for i in self._targets(card):
                    stack.pop()
                    self._push(card, i, (_SIDES[s], _CENTRES[i]), hand_empty=False)
                    stack.append(card)
        for r in range(1, KING + 1):
            if hand[r]:
                code = codes[r][hand[r] - 1]
                for i in self._targets(r):
                    hand[r] -= 1
                    self._push(r, i, (code, _CENTRES[i]), hand_empty=not any(hand))
                    hand[r] += 1

    def _discard_score(self, s: int, height: int, card: int) -> float:
        sides = self.sides
        prefix = self.prefix
        w = self.w
        structure = 0.0
        for i, stack in enumerate(sides):
            if i == s:
                below = prefix[i][height]
                if height == 0:
                    structure += _base(card, w)
                else:
                    structure += below + _pair(stack[height - 1], card, w)
            else:
                structure += prefix[i][len(stack)]
        structure += self.played()
        if self.noise:
            structure += self.rng.uniform(0.0, self.noise)
            if not self.watch:
                return structure
        t = self.t
        hand = self.hand
        value = structure + w.king_in_hand * hand[KING] - self.watch * self.threat(self.centre)
        known = list(hand)
        _runs(sides, known)
        held = sum(hand)
        value += w.prospect * _reach(t.top, self.centre, known,
                                     t.draw[max(0, HAND_SIZE - held)])
        return value

    def _targets(self, card: int) -> list[int]:
        """The centre stacks worth trying for ``card``: one per distinct size that takes it."""
        centre = self.centre
        if card == KING:
            out = []
            sizes: list[int] = []
            for i in range(CENTRE_STACKS):
                if centre[i] not in sizes:
                    sizes.append(centre[i])
                    out.append(i)
            return out
        for i in range(CENTRE_STACKS):
            if centre[i] + 1 == card:
                return [i]
        return []

    def _place(self, i: int) -> int:
        """Put a card on centre stack ``i``; returns its size before (a 12th card completes
        the stack, which starts again empty)."""
        before = self.centre[i]
        self.centre[i] = 0 if before + 1 == QUEEN else before + 1
        return before

    def _push(self, card: int, i: int, move: Move, hand_empty: bool) -> None:
        before = self._place(i)
        self.moves.append(move)
        if hand_empty:
            self.moves.pop()
            self.offer(self.score(REFILLED, 0), REFILLED, move, 0)
        else:
            self._node()
            self.moves.pop()
        self.centre[i] = before

    def _play_payoff(self, i: int) -> None:
        t = self.t
        before = self._place(i)
        move = ("P", _CENTRES[i])
        if t.payoff == 1:
            self.offer(WIN, WON_GAME, move, 1)
        else:
            self.offer(self.score(REVEALED, 1), REVEALED, move, 1)
        self.centre[i] = before


# --- hard: the opponent's reply in sampled deals -------------------------------------------

def _contenders(search: _Search, limit: int) -> list[_Leaf]:
    """``normal``'s ``limit`` best ways to end the turn with a discard, best first; none when
    a pay-off play or an emptied hand is worth at least the best of them (the turn goes on)."""
    candidates = sorted(search.candidates, key=lambda c: -c.value)[:limit]
    other = search.best_other
    if not candidates or (other is not None and other.value >= candidates[0].value):
        return []
    return candidates


def _sampled_deals(t: _Table, rng: random.Random, count: int) -> list[list[int]]:
    """``count`` orders of the cards the bot cannot see, shuffled by its own seeded
    generator one after another (so the same seed samples the same deals)."""
    pool: list[int] = []
    for r in range(1, KING + 1):
        pool += [r] * t.unseen[r]
    worlds = []
    for _ in range(count):
        rng.shuffle(pool)
        worlds.append(list(pool))
    return worlds


def _estimated(t: _Table, search: _Search, leaf: _Leaf) -> float:
    """The part of ``leaf``'s value that guesses at the next turns (its prospect of
    reaching the pay-off top, less the opponent's threat), which the sampled deals replace."""
    known = list(leaf.hand)
    _runs(leaf.sides, known)
    held = sum(leaf.hand)
    w = search.w
    return (w.prospect * _reach(t.top, leaf.centre, known, t.draw[max(0, HAND_SIZE - held)])
            - w.threat * search.threat(leaf.centre))


def _dealt(t: _Table, world: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    """One sampled deal read in its order: the opponent's hand (counts by rank), the cards
    under its pay-off top, those under the bot's, and the stock."""
    hand = [0] * (KING + 1)
    for r in world[:HAND_SIZE]:
        hand[r] += 1
    at = HAND_SIZE
    other_under = world[at:at + min(t.other_payoff - 1, 8)]
    at += len(other_under)
    my_under = world[at:at + min(t.payoff - 1, 8)]
    stock = world[at + len(my_under):]
    return hand, other_under, my_under, stock


class _Resampler:
    """What ``hard`` and ``expert`` share: take ``normal``'s ``candidates`` best ways to end
    the turn with a discard, sample ``worlds`` deals of the unseen cards with the bot's own
    seeded generator, and let the level judge the ways in them (``_best``)."""

    def __init__(self, table: _Table, search: _Search, rng: random.Random) -> None:
        self.t = table
        self.search = search
        self.rng = rng

    def choose(self, plan: list[Move]) -> list[Move]:
        ways, deals = self._counts()
        candidates = _contenders(self.search, ways)
        if not candidates:
            return plan  # a pay-off play or an emptied hand: the turn goes on
        if len(candidates) == 1:
            return candidates[0].moves
        return self._best(candidates, _sampled_deals(self.t, self.rng, deals)).moves

    def _counts(self) -> tuple[int, int]:
        """(ways to end the turn judged again, deals sampled): the module's constants, read
        at each call, as the tests and the bench set them."""
        raise NotImplementedError

    def _best(self, candidates: list[_Leaf], worlds: list[list[int]]) -> _Leaf:
        raise NotImplementedError


class _Hard(_Resampler):
    """Re-rank ``normal``'s best ways to end the turn by playing, in deals of the unseen cards
    sampled with the bot's own seeded generator, the opponent's reply and then the bot's own
    next turn, and counting the pay-off cards each sheds."""

    def _counts(self) -> tuple[int, int]:
        return HARD_CANDIDATES, HARD_WORLDS

    def _best(self, candidates: list[_Leaf], worlds: list[list[int]]) -> _Leaf:
        best, best_value = candidates[0], float("-inf")
        for leaf in candidates:
            estimated = _estimated(self.t, self.search, leaf)
            total = 0.0
            for world in worlds:
                total += self._two_turns(leaf, world)
            value = leaf.value - estimated + HARD_WEIGHT * total / len(worlds)
            if value > best_value:
                best, best_value = leaf, value
        return best

    def _two_turns(self, leaf: _Leaf, world: list[int]) -> float:
        """Pay-off cards the bot sheds minus those the opponent sheds, times PAYOFF_CARD, over
        the opponent's reply and the bot's next turn from ``leaf``, in ``world`` (the unseen
        cards in one order: the opponent's hand, the cards under its pay-off top, those under
        the bot's, then the stock)."""
        t = self.t
        centre = list(leaf.centre)
        hand, other_under, my_under, stock = _dealt(t, world)
        sides = [list(s) for s in t.other_sides]
        shed = _reply(t.other_top, other_under, t.other_payoff, hand, sides, centre, stock,
                      HARD_DUMP)
        if shed < 0:  # the opponent won
            return -HARD_LOSS
        mine = list(leaf.hand)
        for r in stock[:max(0, HAND_SIZE - sum(mine))]:
            mine[r] += 1
        del stock[:max(0, HAND_SIZE - sum(leaf.hand))]
        my_shed = _reply(t.top, my_under, t.payoff, mine, [list(s) for s in leaf.sides],
                         centre, stock, HARD_DUMP)
        if my_shed < 0:
            return HARD_LOSS - PAYOFF_CARD * shed
        return PAYOFF_CARD * (my_shed - shed)


# --- expert: hard's judgement, wider and in more deals -----------------------------------

class _Expert(_Hard):
    """Re-rank ``normal``'s best ways to end the turn as ``hard`` does, judging twice as many
    (``EXPERT_CANDIDATES``) in four times as many sampled deals (``EXPERT_WORLDS``): the same
    sampled turns, with less of the sampling's noise in the choice (the search that offers
    the ways scores with ``EXPERT_WEIGHTS``, see ``bot_turn``). The work is bounded by these
    counts (and ``normal``'s search by ``NODES``), never by the clock."""

    def _counts(self) -> tuple[int, int]:
        return EXPERT_CANDIDATES, EXPERT_WORLDS


def _reply(top: int, under: list[int], payoff: int, hand: list[int], sides: list[list[int]],
           centre: list[int], stock: list[int], dump: bool) -> int:
    """Play a plausible turn in a sampled deal: the pay-off top whenever it fits, else the
    shortest chain of up to three plays from the hand and side tops that lets it, else (with
    ``dump``) any side top or hand card but a King that fits, repeated while one of these
    works. Returns how many pay-off cards it shed (-1 if that won the game)."""
    shed = 0
    next_under = 0
    draws = 0
    for _ in range(60):
        target = _fit(top, centre)
        if target >= 0:
            _bump(centre, target)
            shed += 1
            if shed >= payoff:
                return -1
            if next_under >= len(under):
                return shed
            top = under[next_under]
            next_under += 1
            continue
        chain = _chain(top, hand, sides, centre, 3)
        if not chain and dump:
            chain = _loose(hand, sides, centre)
        if not chain:
            return shed
        for kind, which, i in chain:
            if kind == 0:
                hand[which] -= 1
            else:
                sides[which].pop()
            _bump(centre, i)
        if not any(hand):  # the hand refills from the stock
            if draws >= 3 or not stock:
                return shed
            draws += 1
            for r in stock[:HAND_SIZE]:
                hand[r] += 1
            del stock[:HAND_SIZE]
    return shed


def _loose(hand: list[int], sides: list[list[int]], centre: list[int]
           ) -> list[tuple[int, int, int]]:
    """One play of a side top, else of a hand card, that fits a centre stack (no King)."""
    for s in range(SIDE_STACKS):
        stack = sides[s]
        if stack and stack[-1] != KING:
            i = _fit(stack[-1], centre)
            if i >= 0:
                return [(1, s, i)]
    for r in range(1, KING):
        if hand[r]:
            i = _fit(r, centre)
            if i >= 0:
                return [(0, r, i)]
    return []


def _fit(card: int, centre: list[int]) -> int:
    if card == KING:
        return 0
    for i in range(CENTRE_STACKS):
        if centre[i] + 1 == card:
            return i
    return -1


def _bump(centre: list[int], i: int) -> None:
    centre[i] = 0 if centre[i] + 1 == QUEEN else centre[i] + 1


def _chain(top: int, hand: list[int], sides: list[list[int]], centre: list[int],
           depth: int) -> list[tuple[int, int, int]]:
    """The plays (0 = hand rank, 1 = side stack; which; centre stack) that build a centre
    stack up to ``top``, using at most ``depth`` of them, or []."""
    best: list[tuple[int, int, int]] = []
    for i in range(CENTRE_STACKS):
        need = top - centre[i] - 1
        if need < 1 or need > depth or (best and need >= len(best)):
            continue
        plan: list[tuple[int, int, int]] = []
        used_hand = [0] * (KING + 1)
        used_side = [0] * SIDE_STACKS
        ok = True
        for r in range(centre[i] + 1, top):
            found = False
            for s in range(SIDE_STACKS):
                stack = sides[s]
                h = len(stack) - used_side[s]
                if h > 0 and stack[h - 1] == r:
                    used_side[s] += 1
                    plan.append((1, s, i))
                    found = True
                    break
            if not found and hand[r] - used_hand[r] > 0:
                used_hand[r] += 1
                plan.append((0, r, i))
                found = True
            if not found and hand[KING] - used_hand[KING] > 0:
                used_hand[KING] += 1
                plan.append((0, KING, i))
                found = True
            if not found:
                ok = False
                break
        if ok:
            best = plan
    return best
