"""Every object Spite & Malice answers (the REST answers, the match a socket sends) or tells an
account stream (the ``server.streams`` events' payloads) is assembled here, next to each other,
from rows and values its callers read: a reader finds each shape's construction in one place.

``serializers.outputs`` documents these shapes for the OpenAPI and AsyncAPI documents; a
shape changed here is changed there too.

What lives elsewhere, and why:

- The match's stored events (``dealt``, ``draw``, ``play``, ``match_over``, …: the event feed
  and the match socket) are logged by ``engine.Log`` and ``services`` as each action is played:
  what each seat may see of a draw is decided there, from the engine, once, and stored.
- Who is told what on the account streams (which person, which kind, when) is ``notify``; the
  payloads it sends are built here.
- The lists' envelopes (``count``, ``next``, ``results``) stay beside their views, which own
  the paging; each of their entries is built here.
- A match's seeds (``fairness.match_fairness``) are the shared fairness log's shape
  (``server.fairness.services.seeds_output``), as Foursquare's are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, overload

from django.utils import timezone

from server.api.formats import iso_datetime
from server.fairness import services as fairness_services
from server.fairness.models import SeedCommitment
from server.players.models import Player
from server.ratings.selectors import ShownRating, rating_of, ratings_of
from server.spitemalice import rating_rules
from server.spitemalice.engine import SEATS, position_keep, rebuild
from server.spitemalice.live.presence import seats_connected
from server.spitemalice.models import Match, MatchGame
from server.spitemalice.reveal import revealed
from spitemalice import Game, player_view
from spitemalice.cards import RANK_CODES

GAME = "spite-malice"


# --- A player named -------------------------------------------------------------------------


@overload
def player_ref(player: Player, bot: bool) -> dict[str, Any]: ...


@overload
def player_ref(player: Player | None, bot: bool) -> dict[str, Any] | None: ...


def player_ref(player: Player | None, bot: bool) -> dict[str, Any] | None:
    """A player as every Spite & Malice object names them (null for nobody): ``bot`` whether
    theirs is a bot account, as the caller knows it (a match's seat: the match's own record of
    it, ``Match.player0_bot``, so that no other row is read)."""
    return None if player is None else {"id": str(player.pk), "name": player.name, "bot": bot}


# {player id: their rating as ``rating_of`` shows it, or None while unrated}: what a caller
# that read the ratings with its other rows (the action fast path) hands on.
Ratings = Mapping[Any, ShownRating | None]


def seat_ratings(match: Match) -> dict[Any, ShownRating | None]:
    """Both seated players' ratings in this game (None while unrated), in one query: what
    ``rated_player`` is handed when a request names both seats in its events."""
    ids = [player_id for player_id in (match.player0_id, match.player1_id)
           if player_id is not None]
    found = ratings_of(ids, GAME)
    return {player_id: found.get(player_id) for player_id in ids}


def rated_player(player: Player | None, ratings: Ratings | None = None,
                 ) -> dict[str, Any] | None:
    """A player as account events name them: their reference with their rating in this game
    as it is now (null while unrated), from ``ratings`` when it holds theirs, else read."""
    if player is None:
        return None
    rating = (ratings[player.pk] if ratings is not None and player.pk in ratings
              else rating_of(player, GAME))
    return {**player_ref(player, player.bot), "rating": rating}


# --- The match -------------------------------------------------------------------------------


def game_view(game: MatchGame, engine: Game, seat: int, *, match_over: bool = False,
              ) -> dict[str, Any]:
    """The API's game object, from ``seat``: only what that seat may see
    (``spitemalice.player_view``, which never holds the other hand, the stock's order or a
    pay-off card below the top). In a match that is over (a daily whose date closed ends
    mid-game) nothing is left to play."""
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
             "player": player_ref(players[other], bots[other]),
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
        "invitee": (player_ref(match.invitee, match.player1_bot) if match.invitee_id
                    else None),
        "seek": match.seek,
        "decline_reason": match.decline_reason or None,
        "rematch": str(rematch.pk) if rematch is not None else None,
        "rematch_status": _rematch_status(rematch),
        "rematch_of": str(match.rematch_of_id) if match.rematch_of_id else None,
        "game": (game_view(game, engine, seat, match_over=match.is_over)
                 if game is not None and engine is not None else None),  # both, or neither
    }


# --- The other REST answers ------------------------------------------------------------------


def seek_output(seek: Match, viewer: Player) -> dict[str, Any]:
    """An open seek as ``viewer`` would take it now (whether it would rate for them)."""
    rated, reason = rating_rules.rating_for_viewer(seek, viewer, timezone.now())
    seeker = seek.player0
    assert seeker is not None  # who posts a seek holds seat 0 from the start
    return {
        "id": str(seek.pk),
        "from": player_ref(seeker, seeker.bot),
        "rating": rating_of(seeker, GAME),
        "turn_seconds": seek.turn_seconds,
        "target": seek.target,
        "rated": rated,
        "unrated_reason": reason or None,
        "created_at": iso_datetime(seek.created_at),
        "expires_at": iso_datetime(seek.invite_expires_at),
    }


def invitation_output(match: Match, rated: bool, reason: str) -> dict[str, Any]:
    """An invitation's preview by its code: who invites (and whom), its terms, and whether
    the match would rate for the viewer (``rated``, ``reason``)."""
    inviter = match.player0
    assert inviter is not None  # who invites holds seat 0 from the start
    invitee = match.invitee
    return {
        "code": match.invite_code,
        "from": player_ref(inviter, inviter.bot),
        "invitee": player_ref(invitee, invitee.bot) if invitee is not None else None,
        "target": match.target,
        "turn_seconds": match.turn_seconds,
        "expires_at": iso_datetime(match.invite_expires_at),
        "rated": rated,
        "unrated_reason": reason or None,
    }


def daily_output(day: date, number: int, players: int, winners: int,
                 match: Match | None) -> dict[str, Any]:
    """A daily: its date and number, how many started and won it, and the viewer's match of
    it (seat 0: the daily's bot holds seat 1)."""
    return {"date": day.isoformat(), "number": number, "players": players, "winners": winners,
            "your_match": match_output(match, 0) if match else None}


def record_output(game: MatchGame, seeds: dict[str, Any] | None) -> dict[str, Any]:
    """A game over: its seed and actions, the whole deal laid open (``reveal``), and the
    match's ``seeds`` (``fairness.match_fairness``, null for a daily) naming the game."""
    if seeds is not None:
        seeds["game"] = game.number
    return {"seed": game.seed, "actions": game.actions, "status": game.status,
            "winner": game.winner, "points": game.points, **revealed(game), "fairness": seeds}


def offer_output(seeds: SeedCommitment) -> dict[str, Any]:
    """What the player sees of the server seed offered for their next bot match: its
    commitment alone, until that match is over."""
    return fairness_services.seeds_output(seeds, revealed=False)


def bots_output(levels: Sequence[str], descriptions: dict[str, str],
                seen: list[dict[str, Any]], players: dict[Any, Player], rated: dict[Any, Any],
                house_rated: dict[str, Any], online_minutes: int) -> dict[str, Any]:
    """The house bot's ``levels`` in order, each with its description and rating (by level in
    ``house_rated``), and the bot accounts ``seen`` lately (rows of ``player_id`` and
    ``seen_at``; ``players`` and their ``rated`` ratings by id)."""
    online = []
    for row in seen:
        player = players[row["player_id"]]
        online.append({"player": player_ref(player, player.bot),
                       "rating": rated.get(row["player_id"]),
                       "seen_at": iso_datetime(row["seen_at"])})
    house = [{"level": level, "description": descriptions[level],
              "rating": house_rated.get(level)} for level in levels]
    return {"house": house, "online": online, "online_minutes": online_minutes}


# --- The account streams' payloads (``notify`` says who is told what, and when) --------------


def seated(match: Match, seat: int) -> Player | None:
    """The person in ``seat``, or None (the bot's seat, or nobody yet)."""
    if seat == match.bot_seat:
        return None
    return match.player0 if seat == 0 else match.player1


def _base(match: Match) -> dict[str, Any]:
    return {"game_name": GAME, "match": str(match.pk)}


def match_started_event(match: Match, seat: int, ratings: Ratings | None = None,
                        ) -> dict[str, Any]:
    """``match_started`` for ``seat``'s person of the ``match`` being played, as it stands:
    what a bot needs to take up the match (which seat, against whom, whose turn, the match's
    latest event number to read its events after). ``ratings``: the seats' ratings, if the
    caller read them already."""
    return {**_base(match), "game": match.game_number, "mode": match.mode, "seat": seat,
            "opponent": rated_player(seated(match, 1 - seat), ratings),
            "level": match.level or None if match.bot_seat is not None else None,
            "target": match.target, "turn_seconds": match.turn_seconds,
            "rated": match.rated, "your_turn": match.turn == seat,
            "deadline": iso_datetime(match.deadline), "event": match.event}


def your_turn_event(match: Match, seat: int, table: dict[str, Any] | None,
                    ratings: Ratings | None = None) -> dict[str, Any]:
    """``your_turn`` for ``seat``'s player of ``match`` as it stands: with the match's latest
    event number (``event``) and the seat's ``table`` as the turn's draw event carries it
    (``turn_table``; null when the request has none). ``ratings``: the seats' ratings, if the
    caller read them already."""
    return {**_base(match), "game": match.game_number,
            "deadline": iso_datetime(match.deadline),
            "opponent": rated_player(seated(match, 1 - seat), ratings),
            "event": match.event, "table": table}


def joined_event(match: Match, ratings: Ratings | None = None) -> dict[str, Any]:
    """``joined``, to an invitation's creator: who took seat 1 (``ratings``: as for
    ``match_started_event``)."""
    return {**_base(match), "player": rated_player(match.player1, ratings)}


def invitation_declined_event(match: Match) -> dict[str, Any]:
    """``invitation_declined``, to the creator: by whom, and their reason if they gave one."""
    return {**_base(match), "by": rated_player(match.invitee),
            "reason": getattr(match, "decline_reason", "") or None}


def invitation_cancelled_event(match: Match, reason: str) -> dict[str, Any]:
    """``invitation_cancelled``: why (withdrawn, expired), and from whom the invitation was."""
    return {**_base(match), "reason": reason, "from": rated_player(match.player0)}


def match_over_event(match: Match, seat: int) -> dict[str, Any]:
    """``match_over``, to ``seat``'s person: how the match ended."""
    return {**_base(match), "status": match.status, "winner": match.winner,
            "reason": match.reason, "scores": match.scores, "seat": seat}


def invitation_received_event(match: Match) -> dict[str, Any]:
    """``invitation_received``, to the invitee of the new waiting ``match``: from whom, on
    what terms."""
    return {**_base(match), "from": rated_player(match.player0), "target": match.target,
            "turn_seconds": match.turn_seconds, "rated": match.rated,
            "rematch_of": None if match.rematch_of_id is None else str(match.rematch_of_id)}
