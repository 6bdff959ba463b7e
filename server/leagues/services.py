"""Writes on leagues: creating, joining, leaving, renaming, rotating the code, removing members.

Limits are checked under row locks, so two requests racing cannot pass one together: the
league's row serialises joins to it (members per league), the player's row serialises the
player's joins and creations (leagues per player). Locks are taken league first, then player.
"""

from __future__ import annotations

from uuid import UUID

from django.db import IntegrityError, transaction

from server.api.problems import InvalidRequest
from server.core.queries import one_or_none
from server.leagues import limits
from server.leagues.models import League, Membership, new_code
from server.leagues.problems import (
    AlreadyMember,
    LeagueFull,
    LeagueNotFound,
    NotOwner,
    TooManyLeagues,
)
from server.players.models import Player
from server.players.names import InvalidName

_CODE_ATTEMPTS = 5


def _clean_name(name: str) -> str:
    try:
        return limits.clean_league_name(name)
    except InvalidName as error:
        message = str(error)
        raise InvalidRequest(message, errors=[{"field": "name", "message": message}]) from None


def _lock_player_with_room(player: Player) -> None:
    one_or_none(Player.objects.select_for_update().filter(pk=player.pk))
    if Membership.objects.filter(player=player).count() >= limits.MAX_LEAGUES_PER_PLAYER:
        raise TooManyLeagues(
            f"A player may be in {limits.MAX_LEAGUES_PER_PLAYER} leagues at most; leave one "
            "first.")


def _lock_own_league(player: Player, league_id: UUID) -> League:
    """The league, locked, if ``player`` is a member; 404 for anyone else."""
    league = one_or_none(League.objects.select_for_update(of=("self",))
                         .filter(pk=league_id, memberships__player=player))
    if league is None:
        raise LeagueNotFound()
    return league


def _lock_owned_league(player: Player, league_id: UUID) -> League:
    league = _lock_own_league(player, league_id)
    if league.owner_id != player.pk:
        raise NotOwner()
    return league


def _save_with_fresh_code(league: League) -> None:
    for _ in range(_CODE_ATTEMPTS):
        league.code = new_code()
        try:
            with transaction.atomic():
                league.save()
            return
        except IntegrityError:
            continue
    raise IntegrityError("no free league code")  # 32^8 codes: a broken random source


@transaction.atomic
def league_create(*, player: Player, name: str) -> League:
    name = _clean_name(name)
    _lock_player_with_room(player)
    league = League(name=name, owner=player)
    _save_with_fresh_code(league)
    Membership.objects.create(league=league, player=player)
    return league


@transaction.atomic
def league_join(*, player: Player, code: str) -> League:
    """Join by code; case, spaces and dashes in the code do not matter."""
    code = "".join(code.split()).replace("-", "").upper()
    league = one_or_none(League.objects.select_for_update().filter(code=code))
    if league is None:
        raise LeagueNotFound("No league has that code; ask its owner for the current one.")
    if Membership.objects.filter(league=league, player=player).exists():
        raise AlreadyMember()
    if Membership.objects.filter(league=league).count() >= limits.MAX_MEMBERS:
        raise LeagueFull(f"A league has {limits.MAX_MEMBERS} members at most.")
    _lock_player_with_room(player)
    Membership.objects.create(league=league, player=player)
    return league


@transaction.atomic
def league_leave(*, player: Player, league_id: UUID) -> None:
    """Leave a league. An owner who leaves hands it to the longest-standing member; the last
    member to leave deletes it."""
    league = _lock_own_league(player, league_id)
    Membership.objects.filter(league=league, player=player).delete()
    if league.owner_id != player.pk:
        return
    successor = Membership.objects.filter(league=league).order_by("joined_at", "id").first()
    if successor is None:
        league.delete()
    else:
        league.owner_id = successor.player_id
        league.save(update_fields=["owner"])


@transaction.atomic
def league_update(*, player: Player, league_id: UUID, name: str | None = None) -> League:
    """The owner renames the league (nothing else can change; no name, no change)."""
    league = _lock_owned_league(player, league_id)
    if name is not None:
        league.name = _clean_name(name)
        league.save(update_fields=["name"])
    return league


@transaction.atomic
def league_code_rotate(*, player: Player, league_id: UUID) -> League:
    """A new code; the old one stops working."""
    league = _lock_owned_league(player, league_id)
    _save_with_fresh_code(league)
    return league


@transaction.atomic
def league_member_remove(*, player: Player, league_id: UUID, member_id: UUID) -> None:
    """The owner removes a member; removing yourself is leaving."""
    if member_id == player.pk:
        league_leave(player=player, league_id=league_id)
        return
    league = _lock_owned_league(player, league_id)
    deleted, _ = Membership.objects.filter(league=league, player_id=member_id).delete()
    if not deleted:
        raise LeagueNotFound("That player is not in this league.")
