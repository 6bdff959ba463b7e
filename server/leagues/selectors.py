"""Reads on leagues. A league is visible to its members only: to anyone else it is a 404."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from server.leagues.models import League, Membership
from server.leagues.problems import LeagueNotFound


def leagues_of(player) -> QuerySet[League]:
    mine = Membership.objects.filter(player=player).values("league_id")
    return (League.objects.filter(pk__in=mine).select_related("owner")
            .annotate(member_count=Count("memberships")).order_by("created_at"))


def league_of(player, league_id) -> League:
    league = leagues_of(player).filter(pk=league_id).first()
    if league is None:
        raise LeagueNotFound()
    return league


def memberships_of(league: League) -> QuerySet[Membership]:
    return Membership.objects.filter(league=league).select_related("player")


def member_ids(league: League) -> QuerySet:
    return Membership.objects.filter(league=league).values("player_id")
