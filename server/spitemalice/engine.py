"""The bridge to the engine: rebuild a stored game, and log what each action did as events
each seat may see.

An event names a drawn card only to the seat that drew it. What a seat is shown of a game
(``shapes.game_view``) is built from ``spitemalice.player_view`` of that seat, which never
holds the other hand, the stock's order or a pay-off card below the top.
"""

from __future__ import annotations

import json
import threading
from collections import Counter, OrderedDict
from typing import Any

from django.utils import timezone

from server.spitemalice.models import Action, Event, Match, MatchGame
from spitemalice import Game
from spitemalice.cards import RANK_CODES, SUIT_CODES

SEATS = (0, 1)


# The latest position of the games this process served, by seed: (the actions it follows, as
# ``MatchGame.actions`` holds them; the engine there). The next request for a game usually
# comes from the seat that just played it, often to this process, and a copy of the engine is
# a few microseconds where the replay from the seed grows to a millisecond late in a game. An
# entry is used only when its actions are exactly the stored ones: one computed by a request
# whose write then lost a race is never mistaken for the game.
POSITIONS_KEPT = 2048
# seed: (actions, engine, the JSON text the action fast path stored for those actions or None)
_positions: OrderedDict[str, tuple[list, Game, str | None]] = OrderedDict()
_positions_lock = threading.Lock()


def rebuild(game: MatchGame) -> Game:
    """The engine's game in the stored game's position: a copy of the one this process kept,
    or the replay of its actions from its seed."""
    with _positions_lock:
        kept = _positions.get(game.seed)
    if kept is not None and kept[0] == game.actions:
        return kept[1].copy()
    engine = Game(bytes.fromhex(game.seed))
    for action in game.actions:
        engine.play(action)
    return engine


def position_keep(engine: Game, actions: list | None = None) -> None:
    """Keep ``engine`` as the latest position of its game for ``rebuild`` (a copy, so the
    caller may go on playing it). ``actions``: the stored game's list of its actions, when it
    is the engine's (then shared, not copied: such a list is only ever replaced, never
    changed in place)."""
    seed = engine.seed.hex()  # as MatchGame.seed holds it
    if actions is None or len(actions) != engine.actions_played:
        actions = [list(action) for action in engine.actions]
    entry = (actions, engine.copy(), None)
    with _positions_lock:
        _positions[seed] = entry
        _positions.move_to_end(seed)
        while len(_positions) > POSITIONS_KEPT:
            _positions.popitem(last=False)


def position_stored(seed: str, actions: list, text: str) -> None:
    """Note ``text``, the JSON the action fast path stored for ``actions`` (the list the kept
    position of the game with ``seed`` follows, the same object), so that ``actions_decoded``
    hands that list back for the same text rather than decoding it again."""
    with _positions_lock:
        kept = _positions.get(seed)
        if kept is not None and kept[0] is actions:
            _positions[seed] = (actions, kept[1], text)


def actions_decoded(seed: str, text: str) -> list:
    """A stored game's actions from their JSON ``text`` (as the fast path's statement reads
    the column): the kept position's own list when the text is the one stored for it (equal
    text, equal actions: jsonb prints an array of strings as ``json.dumps`` does, and anything
    else only misses), else decoded. The list is shared: such a list is only ever replaced,
    never changed in place."""
    with _positions_lock:
        kept = _positions.get(seed)
    if kept is not None and kept[2] is not None and kept[2] == text:
        return kept[0]
    return json.loads(text)


def _hands(engine: Game) -> list[Counter[str]]:
    return [Counter(str(card) for card in engine.hand(seat)) for seat in SEATS]


class Log:
    """What one request did to a match: the action rows and events to store, numbered on
    from the match's latest event."""

    def __init__(self, match: Match, *, by: int | None = None) -> None:
        self.match = match
        self.now = timezone.now()
        self.actions: list[Action] = []
        self.events: list[Event] = []
        # The seat whose own request this is (None: the worker's, or nobody's in particular),
        # and the seat of a person whose turn began here: the account stream tells that
        # person it is their turn unless it is their own request (``notify``).
        self.by = by
        self.turn_for: int | None = None
        # The table of the turn that began here (``turn_began``): also the your_turn's.
        self.turn_table: dict[str, Any] | None = None

    def event(self, kind: str, data: dict[str, Any], seen: tuple[dict, dict] | None = None,
              ) -> None:
        """Log an event: ``data`` for both seats, or ``seen`` = (seat 0's, seat 1's)."""
        self.match.event += 1
        seat0, seat1 = seen if seen is not None else (data, data)
        self.events.append(Event(match=self.match, number=self.match.event, kind=kind,
                                 seat0=seat0, seat1=seat1, created_at=self.now))

    def draws(self, engine: Game, before: list[Counter[str]], game: int) -> None:
        """A draw event for each seat whose hand gained cards since ``before`` (the hands
        just before the action, less the card it took from a hand)."""
        after = _hands(engine)
        for seat in SEATS:
            drawn = after[seat] - before[seat]
            if drawn:
                cards = sorted(drawn.elements(), key=_display_order)
                public = {"game": game, "seat": seat, "count": len(cards),
                          "stock": engine.stock_size}
                mine = {**public, "cards": cards}
                self.event("draw", public, (mine, public) if seat == 0 else (public, mine))

    def turn_began(self, seat: int, table: dict[str, Any]) -> None:
        """Give ``seat``'s copy of its latest draw event (the one that began its turn) the
        ``table`` it acts on; the other seat's copy is unchanged. Nothing when this request
        drew nothing for it."""
        self.turn_table = table
        for event in reversed(self.events):
            if event.kind == "draw" and event.seat0["seat"] == seat:
                copy = f"seat{seat}"
                setattr(event, copy, {**getattr(event, copy), "table": table})
                return

    def dealt(self, engine: Game, game: int) -> None:
        """A new game: who starts, what shows, and the starter's first draw."""
        self.event("dealt", {
            "game": game, "starts": engine.turn,
            "payoff": [engine.payoff_size(seat) for seat in SEATS],
            "payoff_tops": [_code(engine.payoff_top(seat)) for seat in SEATS],
        })
        self.draws(engine, [Counter(), Counter()], game)

    def play(self, engine: Game, action, game: int) -> None:
        """Play ``action`` on ``engine`` and log it (raises the engine's errors, logging
        nothing, if it is not legal)."""
        before = _hands(engine)
        number = engine.actions_played
        result = engine.play(action)
        seat, card = result.player, str(result.card)
        source, target = result.action
        if source == card:
            before[seat][card] -= 1
        self.actions.append(Action(match=self.match, game=game, number=number, seat=seat,
                                   source=source, target=target, card=card,
                                   played_at=self.now))
        data: dict[str, Any] = {"game": game, "action": number, "seat": seat, "card": card,
                                "from": source, "to": target}
        if result.counts_as is None:
            self.event("discard", data)
        else:
            data["as"] = RANK_CODES[result.counts_as - 1]
            if source == "P":
                data["payoff_top"] = _code(engine.payoff_top(seat))
            self.event("play", data)
        if result.completed:
            self.event("completed", {"game": game, "stack": target,
                                     "stock": engine.stock_size})
        self.draws(engine, before, game)


def _code(card) -> str | None:
    return None if card is None else str(card)


def _display_order(code: str) -> tuple[int, int]:
    return RANK_CODES.index(code[0]), SUIT_CODES.index(code[1])
