"""The bridge to the engine: rebuild a stored game, show it to one seat, and log what each
action did as events each seat may see.

Everything a seat is sent about a game is built here from ``spitemalice.player_view`` of that
seat, which never holds the other hand, the stock's order or a pay-off card below the top;
an event names a drawn card only to the seat that drew it.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from typing import Any

from django.utils import timezone

from server.api.formats import iso_datetime
from server.spitemalice.live.presence import seats_connected
from server.spitemalice.models import Action, Event, Match, MatchGame
from spitemalice import Game, player_view
from spitemalice.cards import RANK_CODES, SUIT_CODES

SEATS = (0, 1)


# The latest position of the games this process served, by seed: (the actions it follows, as
# ``MatchGame.actions`` holds them; the engine there). The next request for a game usually
# comes from the seat that just played it, often to this process, and a copy of the engine is
# a few microseconds where the replay from the seed grows to a millisecond late in a game. An
# entry is used only when its actions are exactly the stored ones: one computed by a request
# whose write then lost a race is never mistaken for the game.
POSITIONS_KEPT = 2048
_positions: OrderedDict[str, tuple[list, Game]] = OrderedDict()
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
    entry = (actions, engine.copy())
    with _positions_lock:
        _positions[seed] = entry
        _positions.move_to_end(seed)
        while len(_positions) > POSITIONS_KEPT:
            _positions.popitem(last=False)


def game_view(game: MatchGame, engine: Game, seat: int, *, match_over: bool = False,
              ) -> dict[str, Any]:
    """The API's game object, from ``seat``: only what that seat may see. In a match that is
    over (a daily whose date closed ends mid-game) nothing is left to play."""
    view = player_view(engine, seat, since=len(game.actions))
    playing = game.status == MatchGame.Status.PLAYING and not match_over
    return {
        "number": game.number,
        "status": game.status,
        "turn": view["turn"] if playing else None,
        "turn_number": view["turn_number"],
        "actions": view["actions_played"],
        "stock": view["stock"],
        "centre": [
            {"size": len(stack), "top": stack[-1] if stack else None,
             "next": RANK_CODES[len(stack)]}
            for stack in view["centre"]
        ],
        "seats": [
            {"seat": other, "payoff": view["payoff"][other],
             "payoff_top": view["payoff_top"][other], "hand": view["hand_sizes"][other],
             "sides": view["sides"][other]}
            for other in SEATS
        ],
        "hand": view["hand"],
        "legal_actions": view["legal_actions"] if playing else [],
        "winner": game.winner,
        "points": game_points(game),
    }


def game_points(game: MatchGame) -> int | None:
    """What a game scored for its winner, as the API shows it: the stored points of a won or
    tied game, 0 for one resigned or lost on time (the rules score only a won game, and the
    match's scores do not change), null while it is played or once aborted (no result)."""
    if game.points is None and game.status in (MatchGame.Status.RESIGNED,
                                               MatchGame.Status.TIMEOUT):
        return 0
    return game.points


def turn_table(match: Match, game: MatchGame, engine: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` needs to act on when its turn begins: the parts of its match object the
    turn's start changed (its ``game``, with ``legal_actions``; the ``deadline``; whether
    leaving now would abort the match; that the match waits for ``seat``), as
    ``match_output`` gives them."""
    return {"game": game_view(game, engine, seat), "deadline": iso_datetime(match.deadline),
            "abortable": match.is_abortable(game), "your_turn": your_turn(match, seat)}


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


def _player(player, bot: bool) -> dict[str, Any] | None:
    """A seat's player (or the invitee), ``bot`` whether theirs is a bot account: the match's
    own record of it (``Match.player0_bot``), so that no other row is read."""
    return None if player is None else {"id": str(player.pk), "name": player.name, "bot": bot}


def _rematch(match: Match) -> Match | None:
    if match.mode != Match.Mode.FRIEND or not match.is_over:
        return None
    try:
        return match.rematch
    except Match.rematch.RelatedObjectDoesNotExist:
        return None


def _rematch_status(rematch: Match | None) -> str | None:
    """Where the rematch offered stands: its status, but a closed invitation says how it
    closed (cancelled, declined or expired)."""
    if rematch is None:
        return None
    if rematch.status == Match.Status.CANCELLED:
        return rematch.reason or Match.Reason.CANCELLED
    if rematch.status == Match.Status.WAITING and rematch.is_expired(timezone.now()):
        return Match.Reason.EXPIRED
    return rematch.status




def invite_url(origin: str, code: str) -> str:
    """The browser app's join screen for ``code``."""
    return f"{origin}/spite-malice/join/{code}"


def your_turn(match: Match, seat: int) -> bool:
    """Whether the match waits for ``seat``'s action: its turn in a match being played, or an
    invitation to it (seat 1) not joined yet (``?turn=me`` of the list, its first place)."""
    if match.status == Match.Status.WAITING:
        return seat == 1 and match.invitee_id is not None and match.player1_id is None
    return match.status == Match.Status.PLAYING and match.turn == seat


def match_output(match: Match, seat: int, game: MatchGame | None = None,
                 engine: Game | None = None, *, origin: str = "",
                 connected: list[bool] | None = None) -> dict[str, Any]:
    """The API's match object for the person in ``seat``, with the current game's view
    (``game`` and ``engine`` if the caller holds them, else read and rebuilt). ``origin``
    (scheme and host of the request) makes a waiting match's invitation URL absolute.
    ``connected``: each seat's presence, if the caller looked it up already (the bot's seat is
    always there), else looked up now."""
    if game is None and match.status in (Match.Status.PLAYING, Match.Status.FINISHED,
                                         Match.Status.ABORTED):
        game = MatchGame.objects.get(match=match, number=match.game_number)
    if game is not None and engine is None:
        engine = rebuild(game)
    if engine is not None:
        position_keep(engine, game.actions if game is not None else None)
    players = (match.player0, match.player1)
    bots = (match.player0_bot, match.player1_bot)
    if connected is None:
        connected = seats_connected(match)  # the match itself: no query for its bot seat
    connected = [True if match.bot_seat == other else bool(connected[other]) for other in SEATS]
    waiting = match.status == Match.Status.WAITING
    rematch = _rematch(match)
    return {
        "id": str(match.pk),
        "mode": match.mode,
        "level": match.level or None,
        "status": match.status,
        "target": match.target,
        "date": match.daily.isoformat() if match.daily else None,
        "seats": [
            {"seat": other,
             "player": _player(players[other], bots[other]),
             "bot": match.level if match.bot_seat == other else None,
             "score": match.scores[other],
             "connected": connected[other]}
            for other in SEATS
        ],
        "you": seat,
        "your_turn": your_turn(match, seat),
        "winner": match.winner,
        "reason": match.reason or None,
        "event": match.event,
        "rated": match.rated,
        "unrated_reason": match.unrated_reason or None,
        "abortable": match.is_abortable(game),
        "turn_seconds": match.turn_seconds,
        "deadline": iso_datetime(match.deadline),
        "invite": ({"code": match.invite_code, "url": invite_url(origin, match.invite_code),
                    "expires_at": iso_datetime(match.invite_expires_at)}
                   if waiting and match.invite_code and not match.seek else None),
        "invitee": _player(match.invitee, match.player1_bot) if match.invitee_id else None,
        "seek": match.seek,
        "decline_reason": match.decline_reason or None,
        "rematch": str(rematch.pk) if rematch is not None else None,
        "rematch_status": _rematch_status(rematch),
        "rematch_of": str(match.rematch_of_id) if match.rematch_of_id else None,
        "game": (game_view(game, engine, seat, match_over=match.is_over)
                 if game is not None and engine is not None else None),  # both, or neither
    }
