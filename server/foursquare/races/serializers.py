"""Input validation for the races' endpoints, and the documented shapes they return (the race
object itself is built by ``selectors.race_output``)."""

from __future__ import annotations

from rest_framework import serializers

from server.api.fields import StrictCharField, StrictIntegerField, StrictUUIDField
from server.api.inputs import StrictInput, StrictQuery
from server.fairness.fields import ClientSeedField
from server.fairness.serializers import SeedsOutput
from server.foursquare.models import RACE_MINUTES, RACE_SIZES, Race
from server.foursquare.serializers import CellOutput, PageOutput
from server.players.serializers import PlayerOutput

MAX_INVITES = 7  # every seat but the host's


class RaceCreateInput(StrictInput):
    players = StrictIntegerField(min_value=RACE_SIZES.start, max_value=RACE_SIZES.stop - 1,
                                 help_text="Seats, the host's included: 2-8.")
    minutes = serializers.ChoiceField(choices=list(RACE_MINUTES),
                                      help_text="The time limit: 3, 5 or 10 minutes.")
    invite = serializers.ListField(
        child=StrictUUIDField(), required=False, max_length=MAX_INVITES,
        help_text="Ids of league mates invited directly (each must share a league with you).")
    client_seed = ClientSeedField()

    def validate_minutes(self, value):
        # ChoiceField would take "3" for 3: a JSON number is asked for.
        if isinstance(self.initial_data.get("minutes"), bool | str):
            raise serializers.ValidationError("A number: 3, 5 or 10.")
        return value


class RaceJoinInput(StrictInput):
    # Untrimmed: whatever was sent is looked up as it is, as Spite & Malice's joins do.
    code = StrictCharField(max_length=32, trim_whitespace=False,
                           help_text="The race's code: any case; spaces and dashes ignored.")
    client_seed = ClientSeedField()


class RaceQuery(StrictQuery):
    code = serializers.CharField(required=False, max_length=32, trim_whitespace=False)


class RaceProgressOutput(serializers.Serializer):
    """A racer's progress: counts only, never a card."""

    placed = serializers.IntegerField(help_text="Cards placed.")
    stock = serializers.IntegerField(help_text="Cards left in the stock (not counting the "
                                               "current card).")
    face_down = serializers.IntegerField(help_text="Piles whose top card is face down.")
    status = serializers.ChoiceField(choices=["playing", "won", "lost", "out_of_time"])
    score = serializers.IntegerField(allow_null=True, help_text="Cards left; only when won.")
    seconds = serializers.FloatField(
        allow_null=True, help_text="From the race's `starts_at` to the game's end (the whole "
                                   "limit when out of time); null while playing.")


class RacerOutput(serializers.Serializer):
    player = PlayerOutput()
    place = serializers.IntegerField(allow_null=True, help_text="1..n once the race finished.")
    progress = RaceProgressOutput()
    board = CellOutput(
        many=True, required=False,
        help_text="The racer's grid as they see it (face-down ranks hidden). Present only "
                  "where you may watch: your own game is over, or the race finished.")


class RaceBotOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=["won", "lost"])
    score = serializers.IntegerField(allow_null=True)


class RaceOutput(serializers.Serializer):
    id = serializers.UUIDField()
    fairness = SeedsOutput(required=False, allow_null=True, help_text=(
        "The commitment to its server seed, made at its creation before any card was dealt; "
        "its seeds with the ranking, once it has finished (docs/FAIRNESS.md)."))
    code = serializers.CharField(help_text="The invitation code (8 characters).")
    link = serializers.CharField(help_text="The join screen's path: /races/join/<CODE>.")
    host = PlayerOutput()
    players = serializers.IntegerField(help_text="Seats, 2-8.")
    minutes = serializers.ChoiceField(choices=list(RACE_MINUTES))
    status = serializers.ChoiceField(choices=Race.Status.choices)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True, help_text="Moves from then.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="No move from then.")
    finished_at = serializers.DateTimeField(allow_null=True)
    racers = RacerOutput(many=True, help_text="In the order they joined.")
    invited = PlayerOutput(many=True, help_text="League mates invited who have not joined.")
    game = serializers.UUIDField(allow_null=True, help_text="Your own game in this race.")
    next_race = serializers.UUIDField(allow_null=True, help_text="Race again: its next race.")
    bot = RaceBotOutput(allow_null=True, help_text="The bot's result on the same deal, shown "
                                                   "once the race finished (null before, or "
                                                   "until it has played).")


class RacePageOutput(PageOutput):
    results = RaceOutput(many=True)


class ReplayRacerOutput(serializers.Serializer):
    player = PlayerOutput()
    moves = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[[row, col], ...] in order.")
    status = serializers.ChoiceField(choices=["won", "lost", "out_of_time"])
    score = serializers.IntegerField(allow_null=True)


class ReplaysOutput(serializers.Serializer):
    fairness = SeedsOutput(required=False, allow_null=True, help_text=(
        "The commitment made at the race's creation, and its seeds: the deck is "
        "deal(HMAC(server seed, client seeds)) (`python -m foursquare verify --record`)."))
    deck = serializers.ListField(child=serializers.CharField(), min_length=40, max_length=40,
                                 help_text="The deal, first drawn first.")
    racers = ReplayRacerOutput(many=True, help_text="In the order of their places.")

