"""A fair bot for Foursquare: it knows what the player knows, never the order of the stock.

**What it knows.** The player's view (``player_view``) and the identity of every card drawn so
far: a player saw each card when it was the current card, so they know which cards are still
in the stock (the *unseen* cards, as a set) and which card lies under each face-down top.
Only the order of the stock is secret, and nothing here reads it. ``knowledge(game)`` builds
exactly that knowledge from a game's history (the cards drawn and where they went), and
``Bot.choose`` / ``Bot.evaluate`` take it apart, so a server can also pass what it holds:
the view it sends, the cards the player has drawn and, optionally, the face-down cards.

**How it plays.** Determinized Monte Carlo with a strong play-out policy. For each legal move
it plays the current card there and then plays the game out with the policy of
``foursquare._playout`` (fill new cells first, keep face-down cards few) over random orders of
the unseen cards: ``screen`` orders for every move, then ``samples`` for the ``finalists``
best. Every move is played out against the *same* orders (common random numbers), so the
comparison between moves is far sharper than the estimates themselves. Moves that lead to the
same position up to the grid's symmetries are played out once. The bot picks the move with the
highest ``win_bonus × P(win) + E[score]`` (a loss scores 0): winning comes first, and among
safe wins the earlier one (more cards left) is better.

**Determinism.** The random orders come from a generator seeded with the bot's seed and the
situation itself (ranks only), so ``evaluate`` is a pure function of (seed, knowledge): the
same call gives the same answer in any process, whatever was asked before.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from foursquare import _sim
from foursquare._playout import playout
from foursquare._sim import cells_of
from foursquare.cards import ALL_CARDS, Card, parse_card
from foursquare.game import PLAYING, Game
from foursquare.geometry import INDEX, POSITION
from foursquare.view import PlayerView, player_view

Move = tuple[int, int]

DEFAULT_SAMPLES = 64  # orders of the unseen cards the best moves are played out against
DEFAULT_SCREEN = 16  # orders every move is played out against first
DEFAULT_FINALISTS = 4  # moves that go on to all the samples
WIN_BONUS = 10.0  # a win is worth this many points of score on top of the score itself


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the play-outs after one move came to.

    ``win_probability`` is the share of play-outs won, ``expected_score`` their mean score with
    a loss counted as 0, ``mean_score`` the mean score of the won ones (``None`` if none was).
    The play-outs use the policy, which is weaker than the bot, so these are cautious
    estimates; their differences between moves are what the bot relies on.
    """

    win_probability: float
    expected_score: float
    samples: int

    @property
    def mean_score(self) -> float | None:
        if not self.win_probability:
            return None
        return self.expected_score / self.win_probability

    def value(self, win_bonus: float = WIN_BONUS) -> float:
        """What the bot maximises: ``win_bonus × P(win) + E[score]``."""
        return win_bonus * self.win_probability + self.expected_score


class Knowledge(NamedTuple):
    """Everything a player knows during a game: pass it on with ``bot.choose(*knowledge)``."""

    view: PlayerView
    unseen: tuple[Card, ...]  # the cards still in the stock, in the canonical order
    face_down: dict[Move, Card]  # the card under each face-down top, as the player saw it


def unseen_cards(view: Mapping[str, Any], drawn: Iterable[str | Card]) -> tuple[Card, ...]:
    """The cards still in the stock: all 40 but the cards drawn so far and the current one.

    ``drawn`` lists every card placed so far (face up, face down or covered: the player saw
    each of them); the view's current card is counted as drawn too. Raises ``ValueError`` if
    the count does not match the view's stock.
    """
    seen = {parse_card(card) for card in drawn}
    if view.get("current_card"):
        seen.add(Card.parse(view["current_card"]))
    unseen = tuple(card for card in ALL_CARDS if card not in seen)
    if len(unseen) != view["stock"]:
        raise ValueError(f"{len(seen)} cards drawn leave {len(unseen)} unseen, "
                         f"but the view's stock holds {view['stock']}")
    return unseen


def knowledge(game: Game) -> Knowledge:
    """What the player of ``game`` knows now, taken only from the cards already drawn."""
    drawn = [result.card for result in game.history]
    face_down = {at: pile.top for at, pile in game.grid().items() if not pile.face_up}
    view = player_view(game)
    return Knowledge(view, unseen_cards(view, drawn), face_down)


class _Situation:
    """A view and what the player knows, turned into a position for play-outs."""

    def __init__(self, view: Mapping[str, Any], unseen: Iterable[str | Card],
                 face_down: Mapping[Move, str | Card] | None) -> None:
        if view["status"] != "playing" or not view.get("current_card"):
            raise ValueError(f"the game is over ({view['status']}): there is no move to choose")
        current = Card.parse(view["current_card"])
        unseen_list = [parse_card(card) for card in unseen]
        unseen_set = set(unseen_list)
        if len(unseen_list) != view["stock"] or len(unseen_set) != len(unseen_list):
            raise ValueError(f"the view's stock holds {view['stock']} cards, but "
                             f"{len(unseen_list)} unseen cards ({len(unseen_set)} distinct) "
                             f"were given")
        known = {tuple(at): parse_card(card) for at, card in (face_down or {}).items()}
        piles: dict[int, tuple[int, int]] = {}
        shown = {current}
        self.unknown: list[int] = []  # face-down cells whose card the caller did not give
        for pile in view["grid"]:
            at = (pile["row"], pile["col"])
            cell = INDEX[at]
            if pile["face_up"]:
                card = Card.parse(pile["card"])
                piles[cell] = (pile["height"], card.rank)
            elif at in known:
                card = known[at]
                piles[cell] = (pile["height"], -card.rank)
            else:
                card = None
                piles[cell] = (pile["height"], -1)  # a stand-in, drawn afresh for each sample
                self.unknown.append(cell)
            if card is not None:
                if card in shown or card in unseen_set:
                    raise ValueError(f"card {card} is both on the table and elsewhere")
                shown.add(card)
        if current in unseen_set:
            raise ValueError(f"the current card {current} cannot also be unseen")
        self.position = _sim.Position.from_piles(piles, view["moves_played"])
        self.rank = current.rank
        self.unseen = sorted(card.rank for card in unseen_set)
        # The cards a face-down top we don't know may be: seen, but not showing anywhere.
        self.hidden_pool = sorted(card.rank for card in ALL_CARDS
                                  if card not in shown and card not in unseen_set)
        self.moves = [tuple(move) for move in view["legal_moves"]]
        cells = [INDEX[move] for move in self.moves]
        if cells != self.position.legal_cells():
            raise ValueError("the view's legal moves do not match its grid")

    def fingerprint(self) -> str:
        """The situation in ranks only: what the bot's random orders are seeded with."""
        position = self.position
        grid = ",".join(f"{cell}:{position.height[cell]}:{position.top[cell]}"
                        for cell in cells_of(position.occupied))
        unknown = ",".join(map(str, self.unknown))
        return (f"{position.placed}|{self.rank}|{grid}|{unknown}|"
                f"{''.join(map(str, self.unseen))}|{''.join(map(str, self.hidden_pool))}")


class Bot:
    """A seeded bot. ``choose`` picks a move; ``evaluate`` estimates every legal move.

    Both take a player's view, the unseen cards and, optionally, the cards under the face-down
    tops (``bot.choose(*knowledge(game))`` passes all three). Without ``face_down`` the bot
    treats each face-down card as any of the cards drawn but no longer showing.

    The work is spent in two rounds: every move is played out against the first ``screen``
    orders, then the ``finalists`` best (and any move named in ``evaluate(include=...)``)
    against all ``samples`` orders. ``screen >= samples`` makes it one flat round.

    ``max_seconds`` (default: none) stops the second round when that much time has passed since
    the call began, for a server that must answer in time. It makes the answer depend on the
    machine's speed, so it is off unless asked for; the first round always completes.
    """

    def __init__(self, seed: int = 0, *, samples: int = DEFAULT_SAMPLES,
                 screen: int = DEFAULT_SCREEN, finalists: int = DEFAULT_FINALISTS,
                 win_bonus: float = WIN_BONUS, max_seconds: float | None = None) -> None:
        if samples < 1 or screen < 1 or finalists < 1:
            raise ValueError(f"samples, screen and finalists must be at least 1, not "
                             f"{samples}, {screen}, {finalists}")
        self.seed = seed
        self.samples = samples
        self.screen = min(screen, samples)
        self.finalists = finalists
        self.win_bonus = win_bonus
        self.max_seconds = max_seconds

    def __repr__(self) -> str:
        return (f"Bot({self.seed!r}, samples={self.samples!r}, screen={self.screen!r}, "
                f"finalists={self.finalists!r}, win_bonus={self.win_bonus!r}, "
                f"max_seconds={self.max_seconds!r})")

    def choose(self, view: Mapping[str, Any], unseen: Iterable[str | Card],
               face_down: Mapping[Move, str | Card] | None = None) -> Move:
        """The move the bot plays."""
        if len(view.get("legal_moves") or ()) == 1:
            _Situation(view, unseen, face_down)  # still check what we were given
            row, col = view["legal_moves"][0]
            return (row, col)
        return self.best(self.evaluate(view, unseen, face_down))

    def best(self, estimates: Mapping[Move, Estimate]) -> Move:
        """The move with the highest value; among the best-sampled moves (the finalists),
        ties going to the first in (row, col) order."""
        most = max(estimate.samples for estimate in estimates.values())
        return max((move for move in sorted(estimates) if estimates[move].samples == most),
                   key=lambda move: estimates[move].value(self.win_bonus))

    def evaluate(self, view: Mapping[str, Any], unseen: Iterable[str | Card],
                 face_down: Mapping[Move, str | Card] | None = None, *,
                 include: Iterable[Move] = ()) -> dict[Move, Estimate]:
        """An estimate for every legal move, from the same sampled orders of the unseen cards.

        The finalists' estimates rest on ``samples`` orders, the other moves' on ``screen``;
        ``include`` names moves to count as finalists whatever their first-round estimate.
        """
        start = time.perf_counter()
        situation = _Situation(view, unseen, face_down)
        include = [(move[0], move[1]) for move in include]
        for move in include:
            if move not in situation.moves:
                raise ValueError(f"{list(move)} is not a legal move now")
        rng = random.Random(f"foursquare-bot|{self.seed}|{situation.fingerprint()}")
        base = situation.position
        rank = situation.rank
        cells = [INDEX[move] for move in situation.moves]

        # Moves that reach the same position up to symmetry share one set of play-outs (only
        # when every face-down card is known: stand-ins differ from sample to sample).
        representative: dict[int, int] = {}
        if not situation.unknown:
            seen_keys: dict[_sim.SymmetricKey, int] = {}
            for cell in cells:
                after = base.copy()
                after.play(cell, rank)
                representative[cell] = seen_keys.setdefault(after.symmetric_key(), cell)
        else:
            representative = {cell: cell for cell in cells}
        played = sorted(set(representative.values()))

        # The sampled worlds: an order of the unseen cards, and the face-down cards the caller
        # did not name. Every move meets the same worlds (common random numbers).
        worlds: list[tuple[_sim.Position, list[int]]] = []
        order = situation.unseen[:]
        for _ in range(self.samples):
            rng.shuffle(order)
            root = base
            if situation.unknown:
                root = base.copy()
                hidden = rng.sample(situation.hidden_pool, len(situation.unknown))
                for cell, rank_there in zip(situation.unknown, hidden, strict=True):
                    root.top[cell] = -rank_there
            worlds.append((root, order[:]))

        wins = dict.fromkeys(played, 0)
        scores = dict.fromkeys(played, 0)
        counts = dict.fromkeys(played, 0)

        def play_out(moves: list[int], first: int, last: int,
                     deadline: float | None = None) -> None:
            for root, stock in worlds[first:last]:
                if deadline is not None and time.perf_counter() > deadline:
                    return
                for cell in moves:
                    after = root.copy()
                    status = after.play(cell, rank)
                    if status == _sim.PLAYING:
                        score = playout(after, stock)
                    else:
                        score = -1 if after.score is None else after.score  # None unless won
                    if score >= 0:
                        wins[cell] += 1
                        scores[cell] += score
                    counts[cell] += 1

        play_out(played, 0, self.screen)
        if self.screen < self.samples:
            bonus = self.win_bonus
            ranked = sorted(played, key=lambda cell: -(bonus * wins[cell] + scores[cell]))
            chosen = set(ranked[:self.finalists])
            chosen.update(representative[INDEX[move]] for move in include)
            deadline = None if self.max_seconds is None else start + self.max_seconds
            play_out(sorted(chosen), self.screen, self.samples, deadline)

        estimates = {}
        for cell in cells:
            played_as = representative[cell]
            count = counts[played_as]
            estimates[POSITION[cell]] = Estimate(wins[played_as] / count,
                                                 scores[played_as] / count, count)
        return estimates


class BotGame(NamedTuple):
    """A deal played by the bot: ``status`` is ``"won"`` or ``"lost"``, ``score`` None if lost."""

    status: str
    score: int | None
    moves: tuple[Move, ...]


def play_deal(deck: Iterable[str | Card], seed: int = 0, **options: Any) -> BotGame:
    """Play a whole deal with ``Bot(seed, **options)``, which sees at each move only what a
    player would (``knowledge(game)``)."""
    game = Game(deck)
    bot = Bot(seed, **options)
    while game.status == PLAYING:
        game.play(bot.choose(*knowledge(game)))
    return BotGame(game.status, game.score, tuple(game.moves))


class MoveReview(NamedTuple):
    """One move of a game as the bot saw it: what was played, what it would play."""

    index: int  # type: ignore[assignment]  # (shadows tuple.index, which nothing here calls)
    played: Move
    best: Move
    estimates: dict[Move, Estimate]
    value_lost: float  # the best move's value minus the played move's (0 if the same)


def review_game(deck: Iterable[str | Card], moves: Iterable[Move], seed: int = 0,
                **options: Any) -> list[MoveReview]:
    """The bot's estimates for every move of a game, for post-game analysis and hints.

    Each move is judged with what the player knew when making it, by ``Bot(seed, **options)``;
    the played move always gets the finalists' share of play-outs. Raises the engine's
    ``IllegalMoveError`` if a move is not legal.
    """
    game = Game(deck)
    bot = Bot(seed, **options)
    reviews = []
    for index, move in enumerate(moves):
        move = (move[0], move[1])
        if not game.is_legal(move):
            game.play(move)  # raises, naming the move
        estimates = bot.evaluate(*knowledge(game), include=[move])
        best = bot.best(estimates)
        lost = estimates[best].value(bot.win_bonus) - estimates[move].value(bot.win_bonus)
        reviews.append(MoveReview(index, move, best, estimates, lost))
        game.play(move)
    return reviews

__all__ = [
    "DEFAULT_FINALISTS", "DEFAULT_SAMPLES", "DEFAULT_SCREEN", "WIN_BONUS", "Bot", "BotGame",
    "Estimate", "Knowledge", "Move", "MoveReview", "knowledge", "play_deal", "review_game",
    "unseen_cards",
]
