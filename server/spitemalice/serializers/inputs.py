"""What the Spite & Malice endpoints take: the bodies and queries they validate."""

from __future__ import annotations

from django.core.validators import RegexValidator
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from server.api.fields import (
    CanonicalDateField,
    QueryIntegerField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictUUIDField,
)
from server.api.inputs import StrictInput, StrictQuery
from server.fairness.fields import ClientSeedField
from server.spitemalice.models import (
    DEFAULT_TURN_SECONDS,
    LEVELS,
    TARGETS,
    TURN_SECONDS,
    Match,
)
from server.spitemalice.selectors import MATCH_KEYSET, SEEK_KEYSET

# Each part of an action is one of these; which parts make an action (a card or pile onto a
# stack) is the engine's to say, as 422 illegal_action, like any other action the rules refuse.
PART_PATTERN = r"^(P|S[0-3]|C[0-2]|[A2-9TJQK][CDHS])$"


class BotMatchInput(StrictInput):
    opponent = serializers.ChoiceField(choices=["bot"])
    client_seed = ClientSeedField()
    commitment = serializers.RegexField(
        r"^[0-9a-f]{64}$", required=False,
        help_text="The commitment of `POST /spite-malice/bot-commitment`, seen before choosing "
                  "`client_seed` (required with it): the match is dealt from that server seed, "
                  "which the server fixed before it saw your client seed.")
    level = serializers.ChoiceField(choices=list(LEVELS), help_text="The bot's level.")
    target = serializers.ChoiceField(
        choices=list(TARGETS), required=False, default=50,
        help_text="Points to win the match: 50 (the rules' match, default), 25, or 1 (a "
                  "single game).")

    integer_choices = ("target",)
    integer_message = "Not an integer: 50, 25 or 1."


class FriendMatchInput(StrictInput):
    opponent = serializers.ChoiceField(choices=["friend"])
    client_seed = ClientSeedField()
    turn_seconds = serializers.ChoiceField(
        choices=list(TURN_SECONDS), required=False, default=DEFAULT_TURN_SECONDS,
        help_text="How long each turn may take, in seconds: 60, 3600, 86400 (a day, default) "
                  "or 259200 (three days). Letting it pass loses the match.")
    target = serializers.ChoiceField(
        choices=list(TARGETS), required=False, default=50,
        help_text="Points to win the match: 50 (default), 25, or 1 (a single game: the one "
                  "to suggest with a slow clock, as a match to 50 takes many turns).")
    invitee = StrictUUIDField(
        required=False,
        help_text="Invite this fellow league member directly (their player id, a UUID "
                  "string): the invitation appears in their match list and only they may "
                  "join it.")
    rated = StrictBooleanField(
        required=False, default=True,
        help_text="true (default): a rated match, if both accounts are established and the "
                  "pair's daily allowance is not used (docs/RATINGS.md); false: a casual "
                  "match, never rated. The answer's `rated` says which it is.")

    integer_choices = ("target", "turn_seconds")


class DailyMatchInput(StrictInput):
    mode = serializers.ChoiceField(choices=[Match.Mode.DAILY.value])
    date = CanonicalDateField(
        required=False,
        help_text="Your local date (default: today in UTC); it must be current somewhere on "
                  "Earth (UTC-12 to UTC+14).")


MatchCreateInput = PolymorphicProxySerializer(
    component_name="MatchCreateInput",
    serializers=[BotMatchInput, FriendMatchInput, DailyMatchInput],
    resource_type_field_name=None,
)


def match_create_input(data) -> dict:
    """The validated body of POST /matches: a bot match or a friend match (``opponent``) or
    a daily (``mode``)."""
    values: serializers.Serializer
    if isinstance(data, dict) and "mode" in data and "opponent" not in data:
        values = DailyMatchInput(data=data)
    elif isinstance(data, dict) and data.get("opponent") == "friend":
        values = FriendMatchInput(data=data)
    else:
        values = BotMatchInput(data=data)
    values.is_valid(raise_exception=True)
    return dict(values.validated_data)


def action_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=StrictCharField(max_length=2, validators=[RegexValidator(
            PART_PATTERN, "Not a source or target: P, S0-S3, C0-C2 or a card code.")]),
        min_length=2, max_length=2, **kwargs)


class ActionInput(StrictInput):
    action = action_field(
        help_text="[source, target]: source P (your pay-off top), S0-S3 (a side stack's top) "
                  "or a card of your hand; target C0-C2 (a centre stack) or S0-S3 (a discard).")
    game = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=10_000,
        help_text="The game's number as you last saw it; if given it must match, or 409 "
                  "stale_action.")
    actions = StrictIntegerField(
        required=False, allow_null=True, min_value=0, max_value=100_000,
        help_text="The actions already played in the game, as you last saw them; if given it "
                  "must match, or 409 stale_action.")


class JoinInput(StrictInput):
    # Untrimmed: whatever was sent is looked up as it is (a code of only spaces names no
    # invitation: 404), rather than trimmed into a blank that schema-valid input cannot be.
    code = StrictCharField(
        max_length=32, trim_whitespace=False,
        help_text="The invitation's code: any case; spaces and dashes ignored.")
    client_seed = ClientSeedField()


class MatchListQuery(StrictQuery):
    limit = QueryIntegerField(required=False, min_value=1, max_value=100, default=20)
    cursor = serializers.CharField(required=False, max_length=100, trim_whitespace=False)
    # Before cursors the list paged by offset; a client that counts its own offsets still may
    # (with a cursor it is ignored, as a board's ``around`` is).
    offset = QueryIntegerField(required=False, min_value=0, max_value=1_000_000, default=0)
    turn = serializers.ChoiceField(["me"], required=False,
                                   help_text="`me`: only the matches waiting for your action.")
    status = serializers.CharField(required=False, max_length=200, trim_whitespace=False,
                                   help_text="Only matches in these statuses.")

    def validate(self, attrs):
        if "cursor" in attrs:
            attrs["cursor"] = MATCH_KEYSET.decode(attrs["cursor"])
        if "status" in attrs:
            # Comma-separated (?status=a,b): a parameter is given once, as every one is.
            wanted = attrs["status"].split(",")
            unknown = sorted({part for part in wanted if part not in Match.Status.values})
            if unknown:
                raise serializers.ValidationError({"status": [
                    f"Unknown status {part!r}: one of {', '.join(Match.Status.values)}."
                    for part in unknown]})
            attrs["status"] = sorted(set(wanted))
        return attrs


class DeclineInput(StrictInput):
    reason = serializers.ChoiceField(
        choices=Match.DeclineReason.choices, required=False,
        default=Match.DeclineReason.GENERIC.value,
        help_text="Why you decline, shown to the challenger as the match's `decline_reason`: "
                  + ", ".join(f"`{value}` ({label})" for value, label
                              in Match.DeclineReason.choices)
                  + ". Default `generic`.")


class SeekInput(StrictInput):
    turn_seconds = serializers.ChoiceField(
        choices=list(TURN_SECONDS), required=False, default=DEFAULT_TURN_SECONDS,
        help_text="How long each turn may take, in seconds: 60, 3600, 86400 (a day, default) "
                  "or 259200 (three days).")
    target = serializers.ChoiceField(
        choices=list(TARGETS), required=False, default=50,
        help_text="Points to win the match: 50 (default), 25, or 1 (a single game).")
    rated = StrictBooleanField(
        required=False, default=True,
        help_text="true (default): rated if the rules allow when it is taken (docs/RATINGS.md); "
                  "false: casual.")

    integer_choices = ("target", "turn_seconds")


class SeekListQuery(StrictQuery):
    limit = QueryIntegerField(required=False, min_value=1, max_value=100, default=20)
    cursor = serializers.CharField(required=False, max_length=100, trim_whitespace=False)

    def validate(self, attrs):
        if "cursor" in attrs:
            attrs["cursor"] = SEEK_KEYSET.decode(attrs["cursor"])
        return attrs


class EventsQuery(StrictQuery):
    after = QueryIntegerField(required=False, min_value=0, max_value=10**9, default=0,
                              help_text="The last event number you hold (default 0: all).")
    # Honoured in front of the view (server.spitemalice.live.longpoll), which holds the
    # request until an event after ``after`` is stored or the seconds pass; checked here.
    wait = QueryIntegerField(required=False, min_value=0, max_value=60, default=0,
                             help_text="Seconds to wait for an event after `after` when none "
                                       "is stored yet, 1-60 (default 0: answer at once).")


class BotsQuery(StrictQuery):
    limit = QueryIntegerField(min_value=1, max_value=100, default=100,
                              help_text="The most bot accounts online to list, 1-100.")

