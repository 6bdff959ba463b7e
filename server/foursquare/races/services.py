"""Writes on races: create, invite, join, leave, start, finish, close on time, race again, and
the bot's reference on the race's deal.

Locks: a race's row (``_race_lock``) serialises everything done to the race itself. Where a
game is locked too, the game's lock comes first (a move locks its game, then, finishing it,
the race; the close on time locks the games still playing, then the race), so that no two
requests can wait on each other.

Each change a racer's socket must hear of is told through ``live.race_changed`` (a notice that
leaves when the transaction commits); each move through ``live.progress_published``.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from foursquare import deal
from server.api.idempotency import SettleFirst
from server.core.codes import new_code
from server.core.queries import one_or_none
from server.foursquare import fairness
from server.foursquare.models import RACE_MINUTES, Deal, Game, Race, RaceInvite, Racer
from server.foursquare.races import live, ranking
from server.foursquare.races.problems import (
    NotRaceHost,
    RaceFull,
    RaceNotFinished,
    RaceNotFound,
    RaceNotReady,
    RaceStarted,
)
from server.foursquare.races.selectors import (
    game_seconds,
    is_invited,
    is_racer,
    progress_status,
    race_games_over,
    race_id_with_code,
)
from server.jobs.background import job_enqueue
from server.leagues.problems import NotALeagueMate
from server.leagues.selectors import league_mate_ids
from server.players.models import Player

log = logging.getLogger(__name__)

RACE_BOT = "race_bot"  # the job playing the bot on a race's deal; key: the race's id
_CODE_TRIES = 5  # 32^8 codes: a collision is rare; a second one in a row rarer still


def _changed(race_id: UUID) -> None:
    live.race_changed(race_id)


def _race_lock(race_id: UUID | str) -> Race:
    race = one_or_none(Race.objects.select_for_update().filter(pk=race_id))
    if race is None:
        raise RaceNotFound()
    return race


def _invitees(player: Player, invite: list[UUID]) -> list[Player]:
    """The players of ``invite`` (ids), each a league mate of ``player``; 422
    ``not_a_league_mate`` naming those who are not (or are no player, or are ``player``)."""
    wanted = list(dict.fromkeys(invite))
    found = {p.pk: p for p in Player.objects.filter(pk__in=wanted, is_active=True)}
    mates = league_mate_ids(player, found) if found else set()
    refused = [str(pk) for pk in wanted if pk == player.pk or pk not in mates]
    if refused:
        raise NotALeagueMate(
            "Invite directly only fellow members of your leagues (not yourself); send anyone "
            "else the race's code. Not league mates of yours: " + ", ".join(refused) + ".")
    return [found[pk] for pk in wanted]


def _waiting_create(*, host: Player, size: int, minutes: int,
                    client_seed: str | None = None) -> Race:
    for attempt in range(_CODE_TRIES):
        try:
            with transaction.atomic():  # a savepoint: a taken code rolls back only this try
                race = Race.objects.create(code=new_code(), host=host, size=size,
                                           minutes=minutes)
                Racer.objects.create(race=race, player=host)
                fairness.race_commit(race, client_seed)  # before anything is dealt
                return race
        except IntegrityError:
            if attempt == _CODE_TRIES - 1:
                raise
    raise AssertionError("unreachable")


def race_create(*, host: Player, size: int, minutes: int, invite: list[UUID] | None = None,
                client_seed: str | None = None) -> Race:
    """A waiting race of ``size`` seats and ``minutes`` minutes; ``host`` is its first racer.
    ``invite``: ids of league mates invited directly."""
    if size not in range(2, 9) or minutes not in RACE_MINUTES:
        raise ValueError(f"a race has 2-8 players and 3, 5 or 10 minutes, not {size}/{minutes}")
    with transaction.atomic():
        invitees = _invitees(host, invite or [])
        race = _waiting_create(host=host, size=size, minutes=minutes, client_seed=client_seed)
        RaceInvite.objects.bulk_create([RaceInvite(race=race, player=p) for p in invitees])
    return race


def race_lock_by_code(code: str) -> Race:
    """The race with invitation ``code``, locked; 404 ``race_not_found`` if there is none."""
    race_id = race_id_with_code(code)
    if race_id is None:
        raise RaceNotFound("No race has this code.")
    return _race_lock(race_id)


def race_lock_for(player: Player, race_id: UUID | str) -> Race:
    """The race ``race_id``, locked, if ``player`` may act on it (a racer or an invitee);
    404 ``race_not_found`` for anyone else."""
    race = _race_lock(race_id)
    if not (is_racer(race, player) or is_invited(race, player)):
        raise RaceNotFound()
    if _is_overtime(race, timezone.now()):
        # Finished on time first, in a transaction of its own: it locks the race's games
        # before the race, as a finishing move does, which this lock's holder may not.
        raise SettleFirst(lambda: race_close_if_due(race.pk))
    return race


def _is_overtime(race: Race, now: datetime) -> bool:
    return (race.status in (Race.Status.COUNTDOWN, Race.Status.PLAYING)
            and race.ends_at is not None and now >= race.ends_at)


def race_join(*, race: Race, player: Player, client_seed: str | None = None) -> Race:
    """``player`` takes a seat of the locked ``race``; joining twice changes nothing. A race
    that fills starts itself."""
    if Racer.objects.filter(race=race, player=player).exists():
        return race  # idempotent: already in it
    seated = Racer.objects.filter(race=race).count()
    if race.status != Race.Status.WAITING:
        if race.status == Race.Status.CANCELLED:
            raise RaceStarted("The race was cancelled by its host.")
        if seated >= race.size:
            raise RaceFull(f"All {race.size} seats of this race were taken; it has started.")
        raise RaceStarted(f"The race is {race.status_at(timezone.now())}: it started without "
                          "you.")
    if seated >= race.size:
        raise RaceFull(f"All {race.size} seats of this race are taken.")
    Racer.objects.create(race=race, player=player)
    fairness.race_client_seed_add(race, player, client_seed)
    if seated + 1 >= race.size:
        return _start(race)  # full: it starts itself (and tells the sockets so)
    _changed(race.pk)
    return race


def race_leave(*, race: Race, player: Player) -> Race:
    """``player`` leaves the locked waiting ``race``; the host leaving cancels it."""
    racer = one_or_none(Racer.objects.filter(race=race, player=player))
    if racer is None:
        return race  # an invitee who never joined: nothing to leave
    if race.status != Race.Status.WAITING:
        raise RaceStarted("The race has started: a racer can no longer leave it."
                          if race.status != Race.Status.CANCELLED
                          else "The race was cancelled.")
    racer.delete()
    if race.host_id == player.pk:
        race.status = Race.Status.CANCELLED
        race.finished_at = timezone.now()
        race.save(update_fields=["status", "finished_at"])
    _changed(race.pk)
    return race


def race_start(*, race: Race, player: Player) -> Race:
    """The host starts the locked waiting ``race``: 403 for anyone else, 409 with fewer than
    two racers or once it has started."""
    if race.host_id != player.pk:
        raise NotRaceHost("Only the race's host may start it.")
    if race.status != Race.Status.WAITING:
        raise RaceStarted(f"The race is {race.status_at(timezone.now())} already.")
    if Racer.objects.filter(race=race).count() < 2:
        raise RaceNotReady("Wait until at least one more racer has joined.")
    return _start(race)


def _deal_seed(race: Race, player_ids: list[UUID]) -> bytes:
    """HMAC(the server seed committed at creation, the racers' client seeds in seat order);
    a fresh random seed for a race made before seeds were committed."""
    seed = fairness.race_deal_seed(race, player_ids)
    return seed if seed is not None else secrets.token_bytes(32)


def _start(race: Race) -> Race:
    """Deal the locked ``race`` a fresh deal, one game per racer, and set its clock."""
    now = timezone.now()
    racers = list(Racer.objects.filter(race=race).order_by("joined_at", "id"))
    dealt = Deal.from_deck(deal(_deal_seed(race, [racer.player_id for racer in racers])))
    dealt.save()
    race.deal = dealt
    race.status = Race.Status.COUNTDOWN
    race.started_at = now
    race.starts_at = now + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    race.ends_at = race.starts_at + timedelta(minutes=race.minutes)
    race.save(update_fields=["deal", "status", "started_at", "starts_at", "ends_at"])
    games = Game.objects.bulk_create([
        Game(player_id=racer.player_id, mode=Game.Mode.RACE, race=race, deal=dealt,
             opens_at=race.starts_at, closes_at=race.ends_at)
        for racer in racers
    ])
    for racer, game in zip(racers, games, strict=True):
        racer.game = game
    Racer.objects.bulk_update(racers, ["game"])
    job_enqueue(kind=RACE_BOT, key=str(race.pk))
    _changed(race.pk)
    return race


def _finish(race: Race, *, at: datetime) -> None:
    """Set the places of the locked ``race``, whose games are all over, and finish it."""
    racers = list(Racer.objects.filter(race=race).select_related("game")
                  .order_by("joined_at", "id"))
    standings = [
        ranking.Standing(key=racer.pk, status=progress_status(racer.game),
                         score=racer.game.score, placed=racer.game.moves_played,
                         seconds=game_seconds(racer.game) or 0.0, joined=index)
        for index, racer in enumerate(racers) if racer.game is not None
    ]
    places = ranking.places(standings)
    for racer in racers:
        racer.place = places.get(racer.pk)
    Racer.objects.bulk_update(racers, ["place"])
    race.status = Race.Status.FINISHED
    race.finished_at = at
    race.save(update_fields=["status", "finished_at"])
    _changed(race.pk)


def race_finish_if_done(race_id: UUID) -> bool:
    """In the transaction of a move that ended a race game (its game locked): finish the race
    if every game of it is over. Whether it finished."""
    race = _race_lock(race_id)
    if race.status not in (Race.Status.COUNTDOWN, Race.Status.PLAYING):
        return False
    if Game.objects.filter(race=race, status=Game.Status.PLAYING).exists():
        return False
    _finish(race, at=timezone.now())
    return True


def is_due(race: Race, now: datetime | None = None) -> bool:
    """Whether the started ``race`` (as read, with its racers) should be closed now."""
    if race.status not in (Race.Status.COUNTDOWN, Race.Status.PLAYING):
        return False
    return _is_overtime(race, now or timezone.now()) or race_games_over(race)


def race_close_if_due(race_id: UUID) -> bool:
    """Finish the race ``race_id`` if it is due: every game over, or its ``ends_at`` passed
    (the games still playing become ``unfinished`` at ``closes_at``, out of time). Exactly
    once, under its lock; lazy, so any read or sweep may call it. Whether it finished now."""
    now = timezone.now()
    with transaction.atomic():
        # The games first, then the race: the order a finishing move takes them in.
        playing = list(Game.objects.select_for_update().filter(
            race_id=race_id, status=Game.Status.PLAYING).order_by("pk")
            .values_list("pk", flat=True))
        race = one_or_none(Race.objects.select_for_update().filter(pk=race_id))
        if race is None or race.status not in (Race.Status.COUNTDOWN, Race.Status.PLAYING):
            return False
        ends_at = race.ends_at
        timed_out = ends_at is not None and now >= ends_at  # a started race has its end
        if playing and not timed_out:
            return False
        if playing and ends_at is not None:  # so timed out: they end when it did
            Game.objects.filter(pk__in=playing).update(
                status=Game.Status.UNFINISHED, finished_at=ends_at, updated_at=now)
            _finish(race, at=ends_at)
        else:
            _finish(race, at=now)
        return True


def races_close_due(*, now: datetime | None = None) -> int:
    """The worker's sweep: close every race past its ``ends_at`` still open. How many."""
    now = now or timezone.now()
    due = list(Race.objects.filter(status__in=[Race.Status.COUNTDOWN, Race.Status.PLAYING],
                                   ends_at__lte=now).values_list("pk", flat=True))
    return sum(race_close_if_due(race_id) for race_id in due)


def player_races_close_due(player: Player) -> int:
    """Close the races whose time is up in which ``player`` still has a game being played
    (before the reads that show their games). How many."""
    due = (Game.objects.filter(player=player, mode=Game.Mode.RACE, status=Game.Status.PLAYING,
                               closes_at__lte=timezone.now())
           .values_list("race_id", flat=True).distinct())
    return sum(race_close_if_due(race_id) for race_id in list(due))


def game_race_close_if_due(game: Game) -> bool:
    """Close ``game``'s race if ``game`` is a race game still being played past its time."""
    if (game.mode != Game.Mode.RACE or game.race_id is None or game.is_over
            or game.closes_at is None or timezone.now() < game.closes_at):
        return False
    return race_close_if_due(game.race_id)


def race_again(*, race: Race, player: Player) -> Race:
    """The locked finished ``race``'s next race: created by the first racer to ask (same size
    and minutes, that racer its host, the others invited), joined by each later one."""
    if not is_racer(race, player):
        raise RaceNotFound()
    if race.status != Race.Status.FINISHED:
        raise RaceNotFinished("Race again once this race has finished.")
    if race.next_race_id is None:
        again = _waiting_create(host=player, size=race.size, minutes=race.minutes)
        others = (Racer.objects.filter(race=race).exclude(player=player)
                  .values_list("player_id", flat=True))
        RaceInvite.objects.bulk_create([RaceInvite(race=again, player_id=pk) for pk in others])
        race.next_race = again
        race.save(update_fields=["next_race"])
        _changed(race.pk)
        _changed(again.pk)
        return again
    return race_join(race=_race_lock(race.next_race_id), player=player)


# --- The bot's reference on the race's deal ----------------------------------------------------


def race_bot_job(key: str) -> None:
    """The background job: the bot plays the race's deal, seeing only what a player sees; its
    result is shown with the race's result."""
    from foursquare.bot import play_deal

    race = one_or_none(Race.objects.select_related("deal").filter(pk=key))
    if race is None or race.deal is None or race.bot_status:
        return
    bot = play_deal(race.deal.deck, **dict(settings.FOURSQUARE_PREPARE_BOT))
    Race.objects.filter(pk=race.pk, bot_status="").update(bot_status=bot.status,
                                                         bot_score=bot.score)
