"""Writes on Spite & Malice matches: starting one, playing an action (and the bot's reply),
resigning, and the bot's turn continued in the background.

Every write runs on a match locked for update (``match_lock``) inside one transaction: the
actions, the events, the games' and the match's new state and (for a daily) the boards are
stored together or not at all, and the unique (match, game, number) constraint on actions
backs the lock: an action number can never be stored twice. Once stored events commit, the
live layer is told (``server.spitemalice.live.publish.events_stored``) so open sockets get them; a
friend match that finishes is rated in the same transaction.

Invitations, joining and cancelling live in ``invitations``; turn clocks in ``clocks``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
import uuid
from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from server.api.formats import iso_datetime
from server.api.idempotency import SettleFirst
from server.core.queries import one_or_none
from server.dailies import calendar
from server.fairness.models import SeedCommitment
from server.jobs.background import job_enqueue
from server.jobs.models import Job
from server.players.models import Player
from server.spitemalice import boards, bot_ratings, fairness, notify, rating_rules
from server.spitemalice.engine import Log, rebuild
from server.spitemalice.house_bot import TurnTimer, bot_actions
from server.spitemalice.live.publish import events_stored
from server.spitemalice.models import (
    DEFAULT_TURN_SECONDS,
    Action,
    BotSeedOffer,
    Daily,
    Event,
    Match,
    MatchGame,
)
from server.spitemalice.problems import (
    ClientSeedRequired,
    CommitmentUnavailable,
    DailyUnavailable,
    DeadlinePassed,
    GameOver,
    IllegalAction,
    MatchNotFound,
    MatchNotStarted,
    NotYourTurn,
    StaleAction,
    TooManyMatches,
)
from server.spitemalice.shapes import game_points, turn_table
from server.spitemalice.statements import GAME_FIELDS, MATCH_FIELDS
from server.streams.services import account_events_add, notices_of
from spitemalice import PLAYING, WON, Game, game_seed, player_view, unseen_cards

logger = logging.getLogger(__name__)

DAILY_LEVEL = "normal"
# The levels whose turns may search longest (docs/SPITE_MALICE_BOT.md; a budget of a second):
# always played by the background job, so that no request waits on them.
BACKGROUND_LEVELS = frozenset({"expert"})
BOT_JOB = "sm_bot_turn"  # the background job that finishes a long bot turn (key: match id)
# A player's matches against the bot and between people, waiting or playing, at most (dailies
# are one a day and never count). Invitations addressed to you count once you join them.
ACTIVE_MATCHES = 20


def daily_seed(day: date) -> bytes:
    """The match seed of the Spite & Malice daily of ``day``: HMAC of the server's secret and
    the date, so nobody without the secret can deal a future daily."""
    message = f"spite-malice-daily/{day.isoformat()}".encode()
    return hmac.new(settings.SPITE_MALICE_DAILY_SECRET.encode(), message,
                    hashlib.sha256).digest()


def daily_get_or_create(day: date) -> Daily:
    """The daily of ``day``, dealt and committed (server.spitemalice.fairness) on first use,
    or ahead by the housekeeping (safe when two requests race to deal it)."""
    daily = one_or_none(Daily.objects.filter(date=day))
    if daily is not None:
        return daily
    try:
        with transaction.atomic():
            daily = Daily.objects.create(date=day, seed=daily_seed(day).hex())
            fairness.daily_commit(daily)
            return daily
    except IntegrityError:
        return Daily.objects.get(date=day)


# --- Starting ----------------------------------------------------------------------------------


def _match_create(*, player: Player, mode: str, level: str, target: int, seed: bytes | None,
                  day: date | None = None, ranked: bool = False,
                  opponent: Player | None = None,
                  client_seed: str | None = None, offer: BotSeedOffer | None = None) -> Match:
    """A match dealt and started: ``player`` in seat 0, ``opponent`` (a player) or the bot in
    seat 1; the bot's first turn is played if it starts. Without a ``seed`` (a daily's), a
    server seed is mixed with the player's ``client_seed``: the ``offer``'s, committed before
    the player sent it, else one committed now."""
    match = Match(mode=mode, level=level, target=target, player0=player, player1=opponent,
                  bot_seat=None if opponent is not None else 1, daily=day, ranked=ranked,
                  player0_bot=player.bot, player1_bot=opponent is not None and opponent.bot)
    if offer is not None:
        assert client_seed is not None  # match_start_bot takes an offer only with one
        match.pk = offer.match_id
        seeds = SeedCommitment.objects.select_for_update().get(entry=offer.entry)
        offer.delete()
        seed = fairness.offer_take(seeds, client_seed)
    elif seed is None:  # the bot's seat gives no client seed
        seed = fairness.match_seed(fairness.match_commit(match, [client_seed, None]))
    match.seed = seed.hex()
    match.save(force_insert=True)
    _first_game_deal(match=match, log=Log(match, by=0))
    return match


def _first_game_deal(*, match: Match, log: Log) -> None:
    """The match's first game dealt from its seed, played on to a person's turn (the bot's
    opening turn, if the bot starts), and stored with ``log``'s events."""
    game = MatchGame(match=match, number=1, seed=game_seed(bytes.fromhex(match.seed), 0).hex())
    engine = Game(bytes.fromhex(game.seed))
    match.started_at = log.now
    log.dealt(engine, 1)
    new_games = [game]
    advance(match=match, game=game, engine=engine, log=log, new_games=new_games)
    _store(match=match, game=None, new_games=new_games, log=log)


def player_lock(*players: Player | None) -> None:
    """Lock the players' rows until the transaction ends, in id order (two requests locking
    the same two never deadlock): their requests that start or join matches then run one
    after the other. FOR NO KEY UPDATE, not FOR UPDATE: a row stored meanwhile that refers to
    one of these players (an account event, by its foreign key) takes a KEY SHARE lock on it,
    which FOR UPDATE would block, so a writer holding that player's event counter and a join
    waiting for it deadlocked."""
    ids = sorted({player.pk for player in players if player is not None}, key=str)
    list(Player.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
         .values_list("pk", flat=True))


def active_matches_check(player: Player, *, locked: bool = False) -> None:
    """Refuse a new match (409 ``too_many_matches``) to a player with ``ACTIVE_MATCHES``
    already; the player's row stays locked until the transaction ends, so two requests racing
    cannot both take the last place. ``locked``: the caller locked the row already, in this
    transaction and outside any savepoint it may still roll back (not locked again: a round
    trip saved)."""
    if not locked:
        player_lock(player)
    active = Match.objects.filter(
        Q(player0=player) | Q(player1=player), mode__in=[Match.Mode.BOT, Match.Mode.FRIEND],
        status__in=[Match.Status.WAITING, Match.Status.PLAYING]).count()
    if active >= ACTIVE_MATCHES:
        raise TooManyMatches(
            f"You have {active} matches waiting or being played, the most a player may have: "
            "finish, resign or cancel one first.")


def bot_seed_offer(*, player: Player) -> SeedCommitment:
    """The server seed of ``player``'s next match against the bot, committed now, before the
    player chooses the client seed to mix with it (the one already offered, until a match
    takes it): so the server cannot choose a deal for its bot after seeing the player's."""
    with transaction.atomic():
        player_lock(player)
        offer = one_or_none(BotSeedOffer.objects.filter(player=player).select_related("entry"))
        if offer is not None:
            return SeedCommitment.objects.select_related("entry").get(entry=offer.entry)
        match_id = uuid.uuid4()
        seeds = fairness.offer_commit(match_id)
        BotSeedOffer.objects.create(player=player, match_id=match_id, entry=seeds.entry)
        return seeds


def match_start_bot(*, player: Player, level: str, target: int, client_seed: str | None = None,
                    commitment: str | None = None) -> Match:
    """A match against the bot; if the bot starts, its turn is played. With ``commitment``
    (that of ``bot_seed_offer``, which the player saw before choosing ``client_seed``), on
    the server seed offered; without it, on a fresh server seed committed before the deal."""
    with transaction.atomic():
        active_matches_check(player)
        offer = None
        if commitment is not None and client_seed is None:
            raise ClientSeedRequired("Send your client seed (client_seed) with the commitment "
                                     "it is mixed with.")
        if commitment is not None:
            offer = one_or_none(BotSeedOffer.objects.select_for_update().select_related("entry")
                                .filter(player=player, entry__commitment=commitment))
            if offer is None:
                raise CommitmentUnavailable(
                    f"No server seed committed as {commitment[:16]}… waits for your next "
                    "match against the bot: ask for one (POST /spite-malice/bot-commitment).")
        return _match_create(player=player, mode=Match.Mode.BOT, level=level, target=target,
                             seed=None, client_seed=client_seed, offer=offer)


def match_start_friend(*, player: Player, opponent: Player, target: int,
                       turn_seconds: int = DEFAULT_TURN_SECONDS, rated: bool = True) -> Match:
    """A match between two people dealt at once, both seated (the tests' shortcut past the
    invitation; the API's way is ``invitations``); rated as the rules allow."""
    with transaction.atomic():
        match = Match(mode=Match.Mode.FRIEND, target=target,
                      seed=secrets.token_bytes(32).hex(), player0=player,
                      status=Match.Status.WAITING, turn_seconds=turn_seconds,
                      player0_bot=player.bot)
        rating_rules.rating_decide(match, requested=rated, players=[player],
                                   now=timezone.now())
        match.save()
        return match_deal(match=match, opponent=opponent)


def match_deal(*, match: Match, opponent: Player, client_seed: str | None = None,
               locked: bool = False) -> Match:
    """``opponent`` takes seat 1 of the locked waiting ``match``: a ``joined`` event, whether
    it stays rated decided, the first game dealt, and the first turn's clock started.
    ``locked``: the caller holds both players' rows already (as ``active_matches_check``)."""
    if not locked:  # the pair's allowance of rated matches, raced safely
        player_lock(match.player0, opponent)
    rating_rules.rating_at_join(match, opponent, timezone.now())
    match.player1 = opponent
    match.player1_bot = opponent.bot
    match.status = Match.Status.PLAYING
    match.save(update_fields=["player1", "player1_bot", "status", "rated", "unrated_reason"])
    seed = fairness.match_join(match, client_seed)  # its server seed's, mixed with both
    if seed is not None:
        match.seed = seed.hex()
        match.save(update_fields=["seed"])
    log = Log(match, by=1)  # the joiner's request
    log.event("joined", {"seat": 1, "player": {"id": str(opponent.pk), "name": opponent.name}})
    _first_game_deal(match=match, log=log)
    return match


def match_start_daily(*, player: Player, day: date | None) -> tuple[Match, bool]:
    """The player's Spite & Malice daily of ``day`` (default: today in UTC), created the first
    time. Returns (match, created); the one-per-date constraint decides a race."""
    day = day or calendar.utc_today()
    if not calendar.is_playable(day):
        first, last = calendar.current_dates()
        raise DailyUnavailable(
            f"The Spite & Malice daily of {day.isoformat()} is not being played now: dailies "
            f"from {first.isoformat()} to {last.isoformat()} are current somewhere on Earth.")
    existing = one_or_none(Match.objects.filter(player0=player, mode=Match.Mode.DAILY,
                                               daily=day))
    if existing is not None:
        return existing, False
    seed = bytes.fromhex(daily_get_or_create(day).seed)
    try:
        with transaction.atomic():
            ranked = boards.player_ranked_on(player, day)
            match = _match_create(player=player, mode=Match.Mode.DAILY, level=DAILY_LEVEL,
                                  target=1, seed=seed, day=day, ranked=ranked)
            boards.daily_start_record(match)
            if match.is_over:  # the bot won the whole game in its first turn
                boards.daily_result_record(match)
        return match, True
    except IntegrityError:
        return Match.objects.get(player0=player, mode=Match.Mode.DAILY, daily=day), False


# --- Locking and storing -----------------------------------------------------------------------


def match_lock(*, player: Player, match_id: uuid.UUID | str) -> tuple[Match, MatchGame | None]:
    """The player's match (or the invitation addressed to them) and its current game (None
    before anyone joined), the match locked for update until the transaction ends; 404 for a
    match that is not theirs.

    The match's clock is applied here, so no write can act on a match whose clock has
    something due: a turn past its deadline (the write is refused, ``DeadlinePassed``, and
    the timeout stored) or an invitation past its days (it expires, then the write runs on
    the cancelled match). Storing either must outlive the refused write's transaction, so the
    lock raises ``SettleFirst`` before anything is written and ``idempotency`` applies it in
    a transaction of its own."""
    match = one_or_none(Match.objects.select_for_update(of=("self",))
                        .select_related("player0", "player1", "invitee").filter(pk=match_id))
    if match is None or not match.may_view(player):
        raise MatchNotFound()
    now = timezone.now()
    if match.is_overdue(now):
        raise deadline_due(match)
    if match.is_expired(now):
        raise SettleFirst(lambda: _invitation_expire(match.pk))
    game = one_or_none(MatchGame.objects.filter(match=match, number=match.game_number))
    return match, game


def _invitation_expire(match_id: uuid.UUID) -> bool:
    from server.spitemalice import invitations  # it writes through this module: imported late

    return invitations.expire_if_due(match_id)


def deadline_due(match: Match) -> SettleFirst:
    """What a write on ``match`` after its turn's deadline raises: refused with
    ``DeadlinePassed``, the timeout stored in a transaction of its own (``clocks``) - unless
    the clocks stood still meanwhile (an outage), when the deadline moves on instead and the
    write is tried again, once."""
    from server.spitemalice import clocks  # it writes through this module: imported late

    match_id = match.pk
    return SettleFirst(lambda: clocks.time_out_if_due(match_id), refusal=DeadlinePassed(
        f"Seat {match.turn}'s turn ended at its deadline, "
        f"{iso_datetime(match.deadline)}: the match is lost on time."))


def _store(*, match: Match, game: MatchGame | None, new_games: list[MatchGame],
           log: Log) -> None:
    """Write what ``log`` holds: the games, actions, events and the match's new state. A
    stored ``game`` is updated; ``new_games`` are created."""
    if game is not None:
        game.save(update_fields=GAME_FIELDS)
    if new_games:
        MatchGame.objects.bulk_create(new_games)
    if log.actions:
        Action.objects.bulk_create(log.actions)
    if log.events:
        Event.objects.bulk_create(log.events)
    match.updated_at = log.now
    match.save(update_fields=MATCH_FIELDS)
    if match.is_over:  # the same transaction: a finished match is rated with it
        if match.mode == Match.Mode.FRIEND:
            rating_rules.match_rate(match)
        bot_ratings.match_rate_bots(match)  # its bot, if one played (their board of their own)
    # The players' account events (their turn, the match over, ...) in the same transaction.
    stored = account_events_add(notify.drafts_of(match, log), now=log.now, publish=False)
    if log.events or stored:
        match_id, events, also = match.pk, log.events, tuple(notices_of(stored))
        transaction.on_commit(lambda: events_stored(match_id, events, also=also))


# --- Playing -----------------------------------------------------------------------------------


def _sync(match: Match, game: MatchGame, engine: Game) -> None:
    # The stored list is a prefix of the engine's: add what was played since, as a new list
    # (a kept position may share the old one, so it is never changed in place).
    played = len(game.actions)
    game.actions = (game.actions + [list(action) for action in engine.actions_since(played)]
                    if played <= engine.actions_played
                    else [list(action) for action in engine.actions])
    game.turn_number = engine.turn_number
    match.actions_played = len(game.actions)
    match.turn = engine.turn
    if engine.status != PLAYING and game.status == MatchGame.Status.PLAYING:
        game.status = engine.status
        game.winner = engine.winner
        game.points = engine.points


def _labelled_seed(secret: bytes, label: str) -> bytes:
    """A one-way value of ``secret`` for one use (``label``): whoever uses it learns nothing of
    the deal that ``secret`` determines, whatever they do with it."""
    return hmac.new(secret, f"spite-malice/{label}".encode(), hashlib.sha256).digest()


def _bot_seed(match: Match, game: MatchGame) -> bytes:
    """The bot's randomness for ``game`` of ``match``: never the deal's seed itself, so no
    change to the bot can let it read the hidden cards through its random numbers."""
    return _labelled_seed(bytes.fromhex(match.seed), f"bot/{game.number}")


def _hint_seed(game: MatchGame) -> bytes:
    return _labelled_seed(bytes.fromhex(game.seed), "hint")


def _match_close(*, match: Match, log: Log, status: str, winner: int | None,
                 reason: str) -> None:
    """The match over now: nobody to play, no clock, no bot turn pending."""
    match.status = status
    match.winner = winner
    match.reason = reason
    match.turn = None
    match.bot_pending = False
    match.finished_at = log.now
    match.clock_stop()


def _match_end(*, match: Match, log: Log, winner: int | None, reason: str) -> None:
    _match_close(match=match, log=log, status=Match.Status.FINISHED, winner=winner,
                 reason=reason)
    log.event("match_over", {"winner": winner, "reason": reason, "scores": match.scores})


class TurnOutlastsRequest(Exception):
    """The bot's turn needs longer than the request may take, and the caller asked not to
    leave it to the background (the action's fast path, which then hands the request over)."""


def advance(*, match: Match, game: MatchGame, engine: Game, log: Log,
            new_games: list[MatchGame], budget: float | None = None,
            fallback: bool = False, background: bool = True) -> MatchGame:
    """Carry the match on after ``engine`` changed: end the game (and the match, or deal the
    next game), and play the bot's turns, for at most ``budget`` seconds (default
    ``SPITE_MALICE_BOT_SECONDS``; None: no limit) before leaving the rest of a turn to the
    background. With ``fallback`` the bot's turns are played by ``_fallback_action``, not
    the bot (``bot_turn_give_up``). Returns the match's current game. Without
    ``background``, a bot turn over its budget raises ``TurnOutlastsRequest`` instead of
    queueing its job. A level of ``BACKGROUND_LEVELS`` is never played within a request's
    budget: its turns go to the background job at once (which plays with no limit).

    Between people, a turn that began here (the other seat's, or a new game's first) starts
    its clock now. A person whose turn began here finds in their copy of the turn's draw
    event what they need to act on (``Log.turn_began``), so nobody reads the match to play."""
    before = (game.number, game.turn_number, match.turn)
    current, engine = _advance(match=match, game=game, engine=engine, log=log,
                               new_games=new_games, budget=budget, fallback=fallback,
                               background=background)
    began = (match.status == Match.Status.PLAYING
             and (current.number, current.turn_number, match.turn) != before)
    if began and match.turn_seconds is not None:
        # Turns 1 and 2 of the first game are each seat's first: their grace.
        match.clock_start(log.now, first_turn=current.number == 1 and current.turn_number <= 2)
    if began and match.turn is not None and match.turn != match.bot_seat:  # playing: a turn
        log.turn_began(match.turn, turn_table(match, current, engine, match.turn))
        log.turn_for = match.turn
    return current


def _advance(*, match: Match, game: MatchGame, engine: Game, log: Log,
             new_games: list[MatchGame], budget: float | None, fallback: bool,
             background: bool) -> tuple[MatchGame, Game]:
    budget = settings.SPITE_MALICE_BOT_SECONDS if budget is None else budget
    # Only the background job plays without a limit (bot_turn_job, bot_turn_give_up).
    timer = (TurnTimer(match.level, "job" if budget == float("inf") else "request")
             if match.bot_seat is not None and not fallback else None)
    current, engine = _play_on(match=match, game=game, engine=engine, log=log,
                               new_games=new_games, budget=budget, fallback=fallback,
                               background=background, timer=timer)
    if timer is not None:
        timer.done()
    return current, engine


def _play_on(*, match: Match, game: MatchGame, engine: Game, log: Log,
             new_games: list[MatchGame], budget: float, fallback: bool, background: bool,
             timer: TurnTimer | None) -> tuple[MatchGame, Game]:
    """``_advance``'s loop: the games' ends and the bot's turns (``timer`` times the bot's
    searches; None only where no search is made: no bot seat, or the fallback)."""
    started = time.monotonic()
    while True:
        _sync(match, game, engine)
        if game.status != MatchGame.Status.PLAYING:
            game.finished_at = log.now
            if game.status == WON and game.points is not None:  # a won game has its points
                if game.winner == 0:
                    match.score0 += game.points
                else:
                    match.score1 += game.points
            log.event("game_over", {"game": game.number, "status": game.status,
                                    "winner": game.winner, "points": game.points,
                                    "scores": match.scores})
            if max(match.scores) >= match.target:
                _match_end(match=match, log=log, winner=0 if match.score0 >= match.target
                           else 1, reason=Match.Reason.TARGET)
                return game, engine
            if match.target == 1:  # a single game, tied
                _match_end(match=match, log=log, winner=None, reason=Match.Reason.TIED)
                return game, engine
            number = game.number + 1
            game = MatchGame(match=match, number=number,
                             seed=game_seed(bytes.fromhex(match.seed), number - 1).hex())
            new_games.append(game)
            match.game_number = number
            engine = Game(bytes.fromhex(game.seed))
            log.dealt(engine, number)
            continue
        if match.bot_seat is None or engine.turn != match.bot_seat:
            match.bot_pending = False
            return game, engine
        if time.monotonic() - started > budget or (match.level in BACKGROUND_LEVELS
                                                   and budget != float("inf")):
            if not background:
                raise TurnOutlastsRequest()
            match.bot_pending = True
            _bot_job_enqueue(match)
            return game, engine
        if fallback:
            log.play(engine, _fallback_action(engine), game.number)
            continue
        assert timer is not None  # made whenever a bot has a seat and the fallback is off
        view = player_view(engine, match.bot_seat, since=engine.actions_played)
        with timer.turn((game.number, game.turn_number)):
            actions = bot_actions(view, unseen_cards(view), match.level, _bot_seed(match, game))
        for action in actions:
            log.play(engine, action, game.number)


def _fallback_action(engine: Game) -> tuple[str, str]:
    """The bot's move when the bot itself cannot be asked: the engine's first legal discard.
    There always is one (a hand that empties is refilled at once, or the game ends), and a
    discard ends the turn, so the fallback plays each turn in one action, without a search."""
    return next(action for action in engine.legal_actions() if action.is_discard)


def _bot_job_enqueue(match: Match) -> None:
    """Leave the rest of the bot's turn to a background job (one per match: the job of an
    earlier long turn runs again, or once more if it is still running: the person may have
    answered between its storing the bot's moves and its end)."""
    job_enqueue(kind=BOT_JOB, key=str(match.pk), fresh=True)


def bot_turn_resume(match: Match) -> bool:
    """Make sure a bot turn left to the background is on its way: a job abandoned by a process
    that died is queued again, and one that failed for good whose repair could not be stored
    then (``bot_turn_give_up``, say during a database outage) is repaired now. Whether
    ``match`` changed (read it again)."""
    if not match.bot_pending or match.is_over:
        return False
    with transaction.atomic():
        job = job_enqueue(kind=BOT_JOB, key=str(match.pk))
    if job.status != Job.Status.FAILED:
        return False
    bot_turn_give_up(str(match.pk))
    return True


def _check_playable(match: Match) -> None:
    _check_started(match)
    if match.is_over:
        raise GameOver(f"The match is over ({match.reason}); no action can be played.")
    _check_clock(match)
    day = match.daily  # a daily's date (None for no other mode's match)
    if match.mode == Match.Mode.DAILY and day is not None and not calendar.is_playable(day):
        raise GameOver(
            f"The Spite & Malice daily of {day.isoformat()} closed unfinished at "
            f"{iso_datetime(calendar.closes_at(day))}; no action "
            "can be played.")


def _check_started(match: Match) -> None:
    if match.status == Match.Status.WAITING:
        raise MatchNotStarted("Nobody has joined this match yet: there is nothing to play. "
                              "Cancel it instead if you no longer want it.")
    if match.status == Match.Status.CANCELLED:
        raise GameOver(f"The match was cancelled ({match.reason}) before it began.")


def _check_clock(match: Match) -> None:
    """Refuse a write after the turn's deadline (one that passed since ``match_lock`` looked):
    the timeout is then applied in a transaction of its own, since this refusal rolls its own
    back (``deadline_due``)."""
    if match.is_overdue(timezone.now()):
        raise deadline_due(match)


def action_unlimited(match: Match) -> bool:
    """Whether an action on its player's own turn of ``match`` is exempt from the rate limit:
    in a match being played on a turn clock (between people), where a wait for the limit
    could lose the match on time. One turn's actions, however many, are the game's own pace;
    out of turn an action is refused (409) and counted as any other request. Against the bot
    (no clock) the limit stands: its Retry-After delays a turn, never loses one."""
    return match.status == Match.Status.PLAYING and match.turn_seconds is not None


def action_play(*, match: Match, game: MatchGame, player: Player, action: list[str],
                expected_game: int | None, expected_actions: int | None) -> MatchGame:
    """Play ``action`` for ``player`` on their locked match, then the bot's reply; store it
    all. Returns the match's current game. A refused action raises a problem and changes
    nothing."""
    engine, log = action_apply(match=match, game=game, player=player, action=action,
                               expected_game=expected_game, expected_actions=expected_actions)
    return _advance_and_store(match=match, game=game, engine=engine, log=log)


def action_apply(*, match: Match, game: MatchGame, player: Player, action: list[str],
                 expected_game: int | None, expected_actions: int | None,
                 ) -> tuple[Game, Log]:
    """Play ``action`` for ``player`` in memory: the engine after it, and the log of what it
    did. Nothing is stored and the bot has not replied yet (``advance``). A refused action
    raises a problem."""
    seat = match.seat_of(player)
    _check_playable(match)
    if expected_game is not None and expected_game != match.game_number:
        raise StaleAction(f"You sent game {expected_game}, but game {match.game_number} is "
                          "being played.", **position_of(match))
    if expected_actions is not None and expected_actions != match.actions_played:
        raise StaleAction(f"You sent {expected_actions} actions, but {match.actions_played} "
                          f"have been played in game {match.game_number}.",
                          **position_of(match))
    if seat is None or match.turn != seat:
        raise not_your_turn(match)
    engine = rebuild(game)
    log = Log(match, by=seat)
    try:
        log.play(engine, action, game.number)
    except ValueError as error:  # IllegalActionError or ParseError: the engine's message
        # What the seat may play instead, as its view lists it: its own cards only.
        legal = player_view(engine, seat, since=engine.actions_played)["legal_actions"]
        raise IllegalAction(str(error), legal_actions=legal) from None
    return engine, log


def position_of(match: Match) -> dict[str, int]:
    """Where the match stands, as a refused action's problem tells it: the game being
    played and the actions played in it (what a client sends as ``game`` and ``actions``)."""
    return {"game": match.game_number, "actions": match.actions_played}


def not_your_turn(match: Match, detail: str | None = None) -> NotYourTurn:
    """The problem for a seat that is not to act: whose turn it is, and where the game
    stands."""
    if detail is None:
        detail = ("It is the bot's turn." if match.bot_seat == match.turn
                  else "It is your opponent's turn.")
    return NotYourTurn(detail, turn=match.turn, **position_of(match))


def _advance_and_store(*, match: Match, game: MatchGame, engine: Game, log: Log,
                       budget: float | None = None, fallback: bool = False) -> MatchGame:
    new_games: list[MatchGame] = []
    current = advance(match=match, game=game, engine=engine, log=log, new_games=new_games,
                      budget=budget, fallback=fallback)
    _store(match=match, game=game, new_games=new_games, log=log)
    if match.mode == Match.Mode.DAILY and match.is_over:
        boards.daily_result_record(match)  # same transaction: ranks never lag the game
    return current


def match_resign(*, match: Match, game: MatchGame, player: Player) -> MatchGame:
    """End ``player``'s locked match: the other seat wins."""
    _check_started(match)
    if match.is_over:
        raise GameOver(f"The match is over ({match.reason}); there is nothing to resign.")
    _check_clock(match)
    seat = match.seat_of(player)
    if seat is None:  # an invitee is seated once the match has started: never so
        raise MatchNotFound()
    _seat_resigns(match=match, game=game, seat=seat)
    return game


def _seat_resigns(*, match: Match, game: MatchGame, seat: int) -> None:
    """``seat`` leaves the locked ``match``: the other seat wins (before the first turns, it
    is aborted instead: nobody does)."""
    if match.is_abortable(game):
        match_abort(match=match, game=game, seat=seat, reason=Match.Reason.RESIGNED)
        return
    log = Log(match)
    game.status = MatchGame.Status.RESIGNED
    game.winner = 1 - seat
    game.finished_at = log.now
    log.event("resigned", {"game": game.number, "seat": seat})
    log.event("game_over", {"game": game.number, "status": game.status, "winner": game.winner,
                            "points": game_points(game), "scores": match.scores})
    _match_end(match=match, log=log, winner=1 - seat, reason=Match.Reason.RESIGNED)
    _store(match=match, game=game, new_games=[], log=log)
    if match.mode == Match.Mode.DAILY:
        boards.daily_result_record(match)


def match_time_out(*, match: Match, game: MatchGame) -> None:
    """The seat to play in the locked ``match`` let its turn's deadline pass: it loses."""
    log = Log(match)
    seat, deadline = match.turn, match.deadline
    assert seat is not None  # a deadline passes only on a match being played, on a turn
    game.status = MatchGame.Status.TIMEOUT
    game.winner = 1 - seat
    game.finished_at = log.now
    log.event("timeout", {"game": game.number, "seat": seat,
                          "deadline": iso_datetime(deadline)})
    log.event("game_over", {"game": game.number, "status": game.status,
                            "winner": game.winner, "points": game_points(game),
                            "scores": match.scores})
    _match_end(match=match, log=log, winner=1 - seat, reason=Match.Reason.TIMEOUT)
    _store(match=match, game=game, new_games=[], log=log)


def match_abort(*, match: Match, game: MatchGame | None, seat: int | None,
                reason: str) -> None:
    """End the locked ``match`` without a result, before each seat completed its first turn
    (``Match.is_abortable``): ``seat`` left it by ``reason`` (resigned, timeout, cancelled).
    An ``aborted`` event and nothing else: no winner, no points, never rated."""
    log = Log(match)
    if game is not None and not game.is_over:
        game.status = MatchGame.Status.ABORTED
        game.finished_at = log.now
    _match_close(match=match, log=log, status=Match.Status.ABORTED, winner=None, reason=reason)
    log.event("aborted", {"game": match.game_number, "seat": seat, "reason": reason})
    _store(match=match, game=game, new_games=[], log=log)


def dailies_close(*, player: Player | None = None) -> int:
    """End the Spite & Malice dailies left unfinished when their date closed
    (``calendar.closes_at``): all of them, or ``player``'s. Returns how many.

    Whether a daily can still be played never depends on this having run (``action_play``
    checks the date); it makes what the matches say agree with that, with a ``match_over``
    event (``reason: "unfinished"``, no winner), before the reads that show a player's matches
    (``selectors``) and, for everyone, in the worker's housekeeping. Nobody wins it and it
    holds no rank.
    """
    first_open, _ = calendar.current_dates()
    matches = Match.objects.filter(mode=Match.Mode.DAILY, daily__lt=first_open).exclude(
        status=Match.Status.FINISHED)
    if player is not None:
        matches = matches.filter(player0=player)
    return sum(daily_close_if_due(match_id)
               for match_id in matches.values_list("pk", flat=True))


def daily_is_due(match: Match) -> bool:
    """Whether ``match`` (as read) is a daily still open whose date has closed."""
    return (match.mode == Match.Mode.DAILY and match.daily is not None and not match.is_over
            and match.daily < calendar.current_dates()[0])


def daily_close_if_due(match_id: uuid.UUID) -> bool:
    """End the daily ``match_id`` unfinished if its date closed while it was open; exactly
    once, under its lock. Whether it did."""
    with transaction.atomic():
        match = one_or_none(Match.objects.select_for_update().filter(pk=match_id))
        if match is None or match.daily is None or not daily_is_due(match):
            return False
        log = Log(match)
        _match_end(match=match, log=log, winner=None, reason=Match.Reason.UNFINISHED)
        match.finished_at = calendar.closes_at(match.daily)
        _store(match=match, game=None, new_games=[], log=log)
        return True


def _bot_pending_lock(key: str) -> Match | None:
    """Match ``key`` locked for update, if the bot still has a turn to finish there."""
    match = one_or_none(Match.objects.select_for_update().filter(pk=key))
    if match is None or not match.bot_pending or match.is_over:
        return None
    return match


def bot_turn_job(key: str) -> None:
    """The background job: play the rest of the bot's turn(s) in match ``key``."""
    with transaction.atomic():
        match = _bot_pending_lock(key)
        if match is None:
            return
        game = MatchGame.objects.get(match=match, number=match.game_number)
        _advance_and_store(match=match, game=game, engine=rebuild(game), log=Log(match),
                           budget=float("inf"))


def bot_turn_give_up(key: str) -> None:
    """Repair match ``key`` after its bot-turn job failed for good (``MAX_ATTEMPTS`` attempts
    that raised or whose process died), so that no player is left with a bot that never moves.

    Trying the bot again (an easier level, a smaller budget) could fail the same way: the
    same search code, the same CPU that a killed process ran out of. So the rest of the turn
    is played without the bot: ``_fallback_action``, the engine's first legal discard, once
    per bot turn, until the person is to move. It is a weak move, but legal, instant and
    replayable like any other. If even that fails (the match's actions no longer replay),
    the bot resigns: the match ends, the person wins it (a daily holds no rank then)."""
    try:
        with transaction.atomic():
            match = _bot_pending_lock(key)
            if match is None:
                return
            game = MatchGame.objects.get(match=match, number=match.game_number)
            _advance_and_store(match=match, game=game, engine=rebuild(game), log=Log(match),
                               budget=float("inf"), fallback=True)
        logger.warning("match %s: the bot's turn failed in every attempt; played by the "
                       "fallback (first legal discard)", key)
    except Exception:
        logger.exception("match %s: the fallback bot turn failed too; the bot resigns", key)
        with transaction.atomic():
            match = _bot_pending_lock(key)
            if match is None or match.bot_seat is None:  # a bot's turn pending: it has a seat
                return
            game = MatchGame.objects.get(match=match, number=match.game_number)
            _seat_resigns(match=match, game=game, seat=match.bot_seat)


def hint_of(*, match: Match, game: MatchGame, seat: int) -> list[str]:
    """The ``hard`` bot's suggestion for ``seat``'s next action, from that seat's view."""
    engine = rebuild(game)
    view = player_view(engine, seat, since=engine.actions_played)
    source, target = bot_actions(view, unseen_cards(view), "hard", _hint_seed(game))[0]
    return [source, target]
