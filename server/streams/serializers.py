"""The account stream's shapes: its query, its events (one component per kind, ``kind`` the
discriminator) and the JSON page of ``GET /stream/events``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from server.api.fields import QueryIntegerField
from server.api.inputs import StrictQuery
from server.ratings.serializers import PlayerRatingOutput
from server.streams.selectors import MAX_AFTER


class StreamQuery(StrictQuery):
    after = QueryIntegerField(required=False, min_value=0, max_value=MAX_AFTER, default=None,
                              allow_null=True,
                              help_text="The last account event number you hold (default: "
                                        "0 for the page; for the stream, the Last-Event-ID "
                                        "header, else 0).")


class AccountEventPlayer(serializers.Serializer):
    """A player as account events name them."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    bot = serializers.BooleanField(help_text="A bot account: played by a program through the "
                                             "API.")
    rating = PlayerRatingOutput(
        allow_null=True, help_text="Their rating in the event's game when the event was "
                                   "stored; null while unrated (and on events stored before "
                                   "ratings were told).")


def _kind(value: str) -> serializers.ChoiceField:
    # A one-value enum: a generated client's union of the kinds narrows on it.
    return serializers.ChoiceField(choices=[value], help_text=f"Always `{value}`.")


# The values of Spite & Malice's enums that its account events carry, named here since a shared
# app imports no game (tests/server/streams/test_account_events.py checks them against its
# models).
MATCH_OVER_STATUSES = ("finished", "aborted")
MATCH_REASONS = ("target", "tied", "resigned", "unfinished", "timeout", "cancelled")
INVITATION_CANCEL_REASONS = ("cancelled", "expired")
DECLINE_REASONS = ("generic", "later", "too_fast", "too_slow", "too_long", "too_short",
                   "rated", "casual", "no_bot", "only_bot")
MODES = ("bot", "daily", "friend")
LEVELS = ("easy", "normal", "hard", "expert")
_SEAT: dict[str, Any] = {"min_value": 0, "max_value": 1}


class _Base(serializers.Serializer):
    number = serializers.IntegerField(min_value=1,
                                      help_text="1, 2, 3, ... for each player, no gaps.")
    created_at = serializers.DateTimeField()
    game_name = serializers.CharField(help_text="The game the event is about: `spite-malice`.")
    match = serializers.UUIDField(help_text="The match (or invitation) it is about.")


# The table a turn begins with is the game's own shape (Spite & Malice's ``TurnTableOutput``,
# the one its match socket's ``draw`` event carries): named here by its component, since a
# shared app imports no game.
TURN_TABLE_SCHEMA = {
    "allOf": [{"$ref": "#/components/schemas/TurnTableOutput"}], "nullable": True,
    "description": "What you act on, as the turn's `draw` event carries it in your copy: the "
                   "parts of the match the turn's start changed (`game` with your hand and "
                   "`legal_actions`, `deadline`, `abortable`, `your_turn`). Merge it into the "
                   "match you hold with `event`: `{...match, ...table, \"event\": event}`. "
                   "Null when the event was stored before tables were told (read the match)."}


@extend_schema_field(TURN_TABLE_SCHEMA)
class TurnTableField(serializers.JSONField):
    pass


class MatchStartedEvent(_Base):
    kind = _kind("match_started")
    number = serializers.IntegerField(
        min_value=1, allow_null=True,
        help_text="1, 2, 3, ... for each player, no gaps; null in the snapshot of active "
                  "matches a new connection sends first (an entry stored nowhere: resume "
                  "after the last numbered event).")
    game = serializers.IntegerField(min_value=1, help_text="The match's game being played "
                                                           "(its number, as in its events).")
    mode = serializers.ChoiceField(choices=MODES, help_text="`bot`, `daily` or `friend`.")
    seat = serializers.IntegerField(**_SEAT, help_text="Your seat.")
    opponent = AccountEventPlayer(allow_null=True, help_text="The other seat (null: the "
                                                             "house bot).")
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True,
                                    help_text="The house bot's level (null between people).")
    target = serializers.IntegerField(help_text="The points that win the match.")
    turn_seconds = serializers.IntegerField(allow_null=True,
                                            help_text="Each turn's time (null: no clock).")
    rated = serializers.BooleanField()
    your_turn = serializers.BooleanField(help_text="Whether the match waits for you now.")
    deadline = serializers.DateTimeField(allow_null=True,
                                         help_text="When the turn's clock runs out (null: no "
                                                   "clock).")
    event = serializers.IntegerField(
        min_value=0, help_text="The match's latest event number: read or follow its events "
                               "after it (`GET .../events?after=`, the match socket).")


class YourTurnEvent(_Base):
    kind = _kind("your_turn")
    game = serializers.IntegerField(min_value=1, help_text="The match's game being played "
                                                           "(its number, as in its events).")
    deadline = serializers.DateTimeField(allow_null=True,
                                         help_text="When the turn's clock runs out (null: no "
                                                   "clock).")
    opponent = AccountEventPlayer(allow_null=True, help_text="The other seat (null: the bot).")
    event = serializers.IntegerField(
        min_value=1, allow_null=True,
        help_text="The match's latest event number when your turn began: the match socket's "
                  "and the events feed's numbering (`GET .../events?after=`). Null on events "
                  "stored before it was told.")
    table = TurnTableField(allow_null=True)


class InvitationReceivedEvent(_Base):
    kind = _kind("invitation_received")
    from_ = AccountEventPlayer(help_text="Who invited you.")
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    rematch_of = serializers.UUIDField(allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class InvitationCancelledEvent(_Base):
    kind = _kind("invitation_cancelled")
    reason = serializers.ChoiceField(choices=INVITATION_CANCEL_REASONS,
                                     help_text="`cancelled`: its creator withdrew it; "
                                               "`expired`: nobody joined it in time.")
    from_ = AccountEventPlayer(help_text="Who made the invitation.")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class InvitationDeclinedEvent(_Base):
    kind = _kind("invitation_declined")
    by = AccountEventPlayer(help_text="The invitee, who declined.")
    reason = serializers.ChoiceField(choices=DECLINE_REASONS, allow_null=True,
                                     help_text="The reason they gave, if any (null: none).")


class JoinedEvent(_Base):
    kind = _kind("joined")
    player = AccountEventPlayer(help_text="Who joined your invitation (seat 1).")


class MatchOverEvent(_Base):
    kind = _kind("match_over")
    status = serializers.ChoiceField(choices=MATCH_OVER_STATUSES,
                                     help_text="`finished`, or `aborted` (no result).")
    winner = serializers.IntegerField(**_SEAT, allow_null=True,
                                      help_text="The winning seat, or null.")
    reason = serializers.ChoiceField(choices=MATCH_REASONS, help_text="As the match's `reason`.")
    scores = serializers.ListField(child=serializers.IntegerField(min_value=0))
    seat = serializers.IntegerField(**_SEAT, help_text="Your seat in the match.")


EVENT_KINDS: dict[str, serializers.Serializer | type[serializers.Serializer]] = {
    "match_started": MatchStartedEvent,
    "your_turn": YourTurnEvent,
    "invitation_received": InvitationReceivedEvent,
    "invitation_cancelled": InvitationCancelledEvent,
    "invitation_declined": InvitationDeclinedEvent,
    "joined": JoinedEvent,
    "match_over": MatchOverEvent,
}

AccountEventOutput = PolymorphicProxySerializer(
    component_name="AccountEvent", serializers=EVENT_KINDS, resource_type_field_name="kind",
    many=False)


class StreamPageOutput(serializers.Serializer):
    events = PolymorphicProxySerializer(
        component_name="AccountEvent", serializers=EVENT_KINDS,
        resource_type_field_name="kind", many=True)
    last = serializers.IntegerField(help_text="The number of the last event on this page (or "
                                              "`after` when it has none): the next `after`.")
    more = serializers.BooleanField(help_text="Whether more events follow this page.")
