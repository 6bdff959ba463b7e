"""Input validation for the leagues' endpoints, and the documented shapes they return."""

from __future__ import annotations

from rest_framework import serializers

from server.api.fields import StrictCharField
from server.api.formats import iso_datetime
from server.api.inputs import StrictInput
from server.boards.games import FOURSQUARE
from server.boards.games import names as game_names
from server.boards.serializers import BoardQuery
from server.leagues import limits
from server.leagues.models import League, Membership
from server.players.serializers import NicknameField, PlayerOutput, player_ref


class LeagueNameInput(StrictInput):
    name = NicknameField(subject=limits.NAME_SUBJECT, min_length=limits.NAME_MIN_LENGTH,
                         max_length=limits.NAME_MAX_LENGTH)


class LeagueBoardQuery(BoardQuery):
    game = serializers.ChoiceField(choices=game_names(), default=FOURSQUARE,
                                   help_text="Whose dailies: foursquare (default) or "
                                             "spite-malice.")


class LeagueJoinInput(StrictInput):
    # Not trimmed here: league_join ignores every space itself, and a code of only spaces is
    # then simply no league's (404), as the schema allows.
    code = StrictCharField(max_length=50, trim_whitespace=False,
                           help_text="The league's code, e.g. K7QX2MPA.")


class LeagueOutput(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="Share it: whoever has it can join.")
    owner = PlayerOutput()
    member_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class MemberOutput(serializers.Serializer):
    player = PlayerOutput()
    owner = serializers.BooleanField()
    joined_at = serializers.DateTimeField()


class LeagueDetailOutput(LeagueOutput):
    members = MemberOutput(many=True)


def league_output(league: League, member_count: int | None = None) -> dict:
    # Without a count given, the league comes annotated with its member_count.
    count = member_count if member_count is not None else league.member_count  # type: ignore[attr-defined]
    return {
        "id": str(league.pk),
        "name": league.name,
        "code": league.code,
        "owner": player_ref(league.owner),
        "member_count": count,
        "created_at": iso_datetime(league.created_at),
    }


def league_detail_output(league: League, memberships: list[Membership]) -> dict:
    return {
        **league_output(league, member_count=len(memberships)),
        "members": [
            {"player": player_ref(membership.player),
             "owner": membership.player_id == league.owner_id,
             "joined_at": iso_datetime(membership.joined_at)}
            for membership in memberships
        ],
    }
