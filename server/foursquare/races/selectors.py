"""Reads on races: which races a player sees, and the race object each viewer is given.

What a viewer may see of the other racers' games is decided here and only here: counts
(``progress_of``) always; a board (the grid as ``player_view`` gives its own player) only to a
viewer who may watch (``may_watch``: their own game is over, or the race finished). All racers
share one card order, so before that nothing a racer receives names a card of another's game.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from foursquare import DECK_SIZE, player_view
from foursquare import Game as EngineGame
from foursquare.view import CellView
from server.api.formats import iso_datetime
from server.core.codes import code_normalise
from server.core.queries import one_or_none
from server.foursquare import fairness
from server.foursquare.engine import rebuild
from server.foursquare.models import Game, Race, RaceInvite, Racer
from server.foursquare.races.problems import RaceNotFound
from server.players.models import Player
from server.players.serializers import player_ref

OUT_OF_TIME = "out_of_time"
# The progress of a racer whose game is not dealt yet: nothing placed, the whole stock.
_NOT_DEALT = {"placed": 0, "stock": DECK_SIZE - 1, "face_down": 0, "status": "playing",
              "score": None, "seconds": None}


def join_link(race: Race) -> str:
    """The invitation's link: a path of the site (``core.views.invitation_link``) that opens
    the app's join screen, as a Spite & Malice invitation's does."""
    return reverse("race-join", kwargs={"code": race.code})


def progress_status(game: Game) -> str:
    """A race game's status as progress names it: ``unfinished`` is ``out_of_time``."""
    return OUT_OF_TIME if game.status == Game.Status.UNFINISHED else game.status


def game_seconds(game: Game) -> float | None:
    """Seconds from the race's start (the game's ``opens_at``) to the game's end; the whole
    limit for a game that ran out of time; None while it is played."""
    if not game.is_over or game.opens_at is None:
        return None
    end = game.closes_at if game.status == Game.Status.UNFINISHED else game.finished_at
    if end is None:  # an ended game has both; never None in practice
        return None
    return round(max((end - game.opens_at).total_seconds(), 0.0), 3)


def progress_of(game: Game | None, engine: EngineGame | None = None) -> dict[str, Any]:
    """A racer's progress: counts only, never a card. ``engine`` is the game's engine in its
    current position, if the caller holds it (the request that stored a move); else it is
    rebuilt."""
    if game is None:
        return dict(_NOT_DEALT)
    engine = engine if engine is not None else rebuild(game)
    return {
        "placed": engine.moves_played,
        "stock": engine.stock,
        "face_down": engine.face_down,
        "status": progress_status(game),
        "score": game.score,
        "seconds": game_seconds(game),
    }


def board_of(engine: EngineGame) -> list[CellView]:
    """A racer's grid, as ``player_view`` gives its own player (face-down ranks hidden)."""
    return player_view(engine)["grid"]


def _racers(race: Race) -> list[Racer]:
    cache = getattr(race, "_prefetched_objects_cache", {})
    if "racers" in cache:
        return list(cache["racers"])
    return list(Racer.objects.filter(race=race).select_related("player", "game", "game__deal")
                .order_by("joined_at", "id"))


def _invites(race: Race) -> list[RaceInvite]:
    cache = getattr(race, "_prefetched_objects_cache", {})
    if "invites" in cache:
        return list(cache["invites"])
    return list(RaceInvite.objects.filter(race=race).select_related("player")
                .order_by("created_at", "id"))


def may_watch(race: Race, own: Racer | None) -> bool:
    """Whether a viewer (``own``: their racer, if any) may see the other racers' boards: once
    the race finished, or once their own game is over. Never before a game was dealt."""
    if race.status == Race.Status.FINISHED:
        return True
    return own is not None and own.game is not None and own.game.is_over


def race_output(race: Race, viewer: Player | None) -> dict[str, Any]:
    """The race object as ``viewer`` (a player, or None) is given it."""
    now = timezone.now()
    racers = _racers(race)
    viewer_id = getattr(viewer, "pk", None)
    own = next((racer for racer in racers if racer.player_id == viewer_id), None)
    watch = may_watch(race, own)
    racer_ids = {racer.player_id for racer in racers}
    entries = []
    for racer in racers:
        game = racer.game
        engine = rebuild(game) if game is not None else None
        entry: dict[str, Any] = {"player": player_ref(racer.player), "place": racer.place,
                 "progress": progress_of(game, engine)}
        if watch and engine is not None:
            entry["board"] = board_of(engine)
        entries.append(entry)
    finished = race.status == Race.Status.FINISHED
    return {
        "id": str(race.pk),
        "code": race.code,
        "link": join_link(race),
        "host": player_ref(race.host),
        "players": race.size,
        "minutes": race.minutes,
        "status": race.status_at(now),
        "created_at": iso_datetime(race.created_at),
        "started_at": iso_datetime(race.started_at),
        "starts_at": iso_datetime(race.starts_at),
        "ends_at": iso_datetime(race.ends_at),
        "finished_at": iso_datetime(race.finished_at),
        "racers": entries,
        "invited": [player_ref(invite.player) for invite in _invites(race)
                    if invite.player_id not in racer_ids],
        "game": str(own.game_id) if own is not None and own.game_id is not None else None,
        "next_race": str(race.next_race_id) if race.next_race_id is not None else None,
        # The bot's reference is shown with the result: during the race it would tell the
        # racers whether the deal can be won.
        "bot": ({"status": race.bot_status, "score": race.bot_score}
                if finished and race.bot_status else None),
        # The commitment made at its creation; its seeds with the ranking (docs/FAIRNESS.md).
        "fairness": fairness.race_fairness(race),
    }


def _with_everything(races: QuerySet[Race]) -> QuerySet[Race]:
    return races.select_related("host").prefetch_related(
        "invites__player",
        _racers_prefetch(),
    )


def _racers_prefetch() -> Prefetch:
    return Prefetch("racers", queryset=Racer.objects.select_related("player", "game",
                                                                     "game__deal")
                    .order_by("joined_at", "id"))


def races_of(player: Player) -> QuerySet[Race]:
    """The races ``player`` is a racer of or invited to, newest first."""
    return _with_everything(Race.objects.filter(
        Q(pk__in=Racer.objects.filter(player=player).values("race_id"))
        | Q(pk__in=RaceInvite.objects.filter(player=player).values("race_id"))
    )).order_by("-created_at")


def is_racer(race: Race, player: Player | None) -> bool:
    return player is not None and Racer.objects.filter(race=race, player=player).exists()


def is_invited(race: Race, player: Player | None) -> bool:
    """An invitee, or a racer of a race whose ``next_race`` this is ("race again")."""
    if player is None:
        return False
    return (RaceInvite.objects.filter(race=race, player=player).exists()
            or Racer.objects.filter(race__next_race=race, player=player).exists())


def race_visible_to(race: Race, viewer: Player | None, code: str | None = None) -> bool:
    """Whether ``viewer`` may see ``race``: its racers and invitees, and anyone who names its
    code (the join screen)."""
    if code is not None and code_normalise(code) == race.code:
        return True
    return is_racer(race, viewer) or is_invited(race, viewer)


def race_for(viewer: Player | None, race_id: UUID | str, code: str | None = None) -> Race:
    """The race ``race_id`` as ``viewer`` may see it; 404 ``race_not_found`` for anyone else
    (never a 403 that tells it exists)."""
    race = one_or_none(_with_everything(Race.objects.filter(pk=race_id)))
    if race is None or not race_visible_to(race, viewer, code):
        raise RaceNotFound()
    return race


def race_seen(viewer: Player | None, race_id: UUID | str, code: str | None = None) -> Race:
    """``race_for``, with what the clock says applied first: a race whose time is up (or
    whose games are all over) is finished before it is shown. Not under a write's lock (it
    locks the race's games, then the race, as a finishing move does)."""
    from server.foursquare.races import services  # it reads through this module

    race = race_for(viewer, race_id, code=code)
    if services.is_due(race) and services.race_close_if_due(race.pk):
        race = race_for(viewer, race_id, code=code)
    return race


def races_seen(player: Player, races: list[Race]) -> list[Race]:
    """``races`` (a page of ``races_of(player)``) as they stand now: those due closed first
    (``race_seen``), then read again; no query when none is due."""
    from server.foursquare.races import services  # it reads through this module

    due = [race.pk for race in races if services.is_due(race)]
    if not due:
        return races
    for race_id in due:
        services.race_close_if_due(race_id)
    fresh = {race.pk: race for race in races_of(player).filter(pk__in=due)}
    return [fresh.get(race.pk, race) for race in races]


def race_id_with_code(code: str) -> UUID | None:
    """The id of the race with invitation code ``code`` (any case, spaces or dashes), or
    None."""
    normal = code_normalise(code)
    if normal is None:
        return None
    return one_or_none(Race.objects.filter(code=normal).values_list("pk", flat=True))


def racer_game_ids(race: Race) -> list[UUID]:
    return [racer.game_id for racer in _racers(race) if racer.game_id is not None]


def race_games_over(race: Race) -> bool:
    """Whether every game of the started ``race`` is over (from its racers as read)."""
    games = [racer.game for racer in _racers(race)]
    return all(game is not None and game.is_over for game in games)


def replays_output(race: Race) -> dict[str, Any]:
    """The finished ``race``'s deal and each racer's moves, in the order of their places."""
    deal = race.deal
    assert deal is not None  # a finished race was dealt when it started
    played = sorted(((racer, racer.game) for racer in _racers(race) if racer.game is not None),
                    key=lambda pair: (pair[0].place is None, pair[0].place or 0))
    return {
        "deck": deal.cards.split(),
        "racers": [{"player": player_ref(racer.player),
                    "moves": [list(move) for move in game.move_list],
                    "status": progress_status(game), "score": game.score}
                   for racer, game in played],
    }
