"""Reads on leagues. A league is visible to its members only: to anyone else it is a 404."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict
from uuid import UUID

from django.db.models import Count, QuerySet

from server.core.queries import one_or_none
from server.leagues.models import League, Membership
from server.leagues.problems import LeagueNotFound
from server.players.models import Player


def leagues_of(player: Player) -> QuerySet[League]:
    mine = Membership.objects.filter(player=player).values("league_id")
    return (League.objects.filter(pk__in=mine).select_related("owner")
            .annotate(member_count=Count("memberships")).order_by("created_at"))


def league_of(player: Player, league_id: UUID) -> League:
    league = one_or_none(leagues_of(player).filter(pk=league_id))
    if league is None:
        raise LeagueNotFound()
    return league


def memberships_of(league: League) -> QuerySet[Membership]:
    return Membership.objects.filter(league=league).select_related("player")


class PlayerIdRow(TypedDict):
    player_id: UUID


def member_ids(league: League) -> QuerySet[Membership, PlayerIdRow]:
    return Membership.objects.filter(league=league).values("player_id")


def league_mates(player: Player, other: Player) -> bool:
    """Whether ``player`` and ``other`` are fellow members of a league."""
    leagues = Membership.objects.filter(player=player).values("league_id")
    return Membership.objects.filter(player=other, league_id__in=leagues).exists()


def league_mate_ids(player: Player, candidate_ids: Iterable[UUID]) -> set[UUID]:
    """Those of ``candidate_ids`` who share a league with ``player`` (in one query)."""
    leagues = Membership.objects.filter(player=player).values("league_id")
    return set(Membership.objects.filter(player_id__in=list(candidate_ids),
                                         league_id__in=leagues)
               .values_list("player_id", flat=True).distinct())
