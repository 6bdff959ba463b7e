"""The account stream's shapes: its query, its events (one component per kind, ``kind`` the
discriminator) and the JSON page of ``GET /stream/events``."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from server.api.fields import QueryIntegerField
from server.api.inputs import StrictQuery
from server.streams.selectors import MAX_AFTER


class StreamQuery(StrictQuery):
    after = QueryIntegerField(required=False, min_value=0, max_value=MAX_AFTER, default=None,
                              allow_null=True,
                              help_text="The last account event number you hold (default: "
                                        "0 for the page; for the stream, the Last-Event-ID "
                                        "header, else 0).")


class AccountEventPlayer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()


class _Base(serializers.Serializer):
    number = serializers.IntegerField(min_value=1,
                                      help_text="1, 2, 3, ... for each player, no gaps.")
    kind = serializers.CharField()
    created_at = serializers.DateTimeField()
    game = serializers.CharField(help_text="The game the event is about: `spite-malice`.")
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


class YourTurnEvent(_Base):
    game_number = serializers.IntegerField(help_text="The match's game being played.")
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
    from_ = AccountEventPlayer(help_text="Who invited you.")
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    rematch_of = serializers.UUIDField(allow_null=True)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class InvitationCancelledEvent(_Base):
    reason = serializers.CharField(help_text="`cancelled`: its creator withdrew it; "
                                             "`expired`: nobody joined it in time.")
    from_ = AccountEventPlayer(help_text="Who made the invitation.")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class InvitationDeclinedEvent(_Base):
    by = AccountEventPlayer(allow_null=True, help_text="The invitee, who declined.")
    reason = serializers.CharField(allow_null=True,
                                   help_text="The reason they gave, if any (null: none).")


class JoinedEvent(_Base):
    player = AccountEventPlayer(help_text="Who joined your invitation (seat 1).")


class MatchOverEvent(_Base):
    status = serializers.CharField(help_text="`finished`, or `aborted` (no result).")
    winner = serializers.IntegerField(allow_null=True, help_text="The winning seat, or null.")
    reason = serializers.CharField(help_text="As the match's `reason`.")
    scores = serializers.ListField(child=serializers.IntegerField())
    seat = serializers.IntegerField(help_text="Your seat in the match.")


EVENT_KINDS = {
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
