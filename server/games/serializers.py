"""Input validation for the games' endpoints, and the documented shapes they return."""

from __future__ import annotations

from rest_framework import serializers

from server.api.fields import StrictCharField, StrictIntegerField
from server.games.models import Game


class GameCreateInput(serializers.Serializer):
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    date = serializers.DateField(
        required=False, input_formats=["%Y-%m-%d"],
        help_text="daily: your local date (default: today in UTC); archive: a past daily.",
    )
    deal = StrictCharField(required=False, max_length=16,
                                 help_text="practice: replay this shared deal.")

    def validate(self, attrs):
        mode = attrs["mode"]
        if "deal" in attrs and mode != Game.Mode.PRACTICE:
            raise serializers.ValidationError({"deal": "Only a practice game takes a deal."})
        if "date" in attrs and mode == Game.Mode.PRACTICE:
            raise serializers.ValidationError(
                {"date": "A practice game takes no date; use mode \"archive\" for a past daily."}
            )
        if mode == Game.Mode.ARCHIVE and "date" not in attrs:
            raise serializers.ValidationError({"date": "An archive game needs the daily's date."})
        return attrs


class MoveInput(serializers.Serializer):
    row = StrictIntegerField(min_value=-1000, max_value=1000)
    col = StrictIntegerField(min_value=-1000, max_value=1000)
    move = StrictIntegerField(
        required=False, min_value=0, max_value=1000,
        help_text="The number of moves already played, as you last saw it. If given it must "
                  "match, or the move is refused with 409 stale_move.",
    )


class CellOutput(serializers.Serializer):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    height = serializers.IntegerField(help_text="Cards in the pile, 1-4.")
    face_up = serializers.BooleanField()
    card = serializers.CharField(allow_null=True, help_text="Top card; null when face down.")


class LastMoveOutput(serializers.Serializer):
    card = serializers.CharField()
    at = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    flipped = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    )


class GameOutput(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    date = serializers.DateField(allow_null=True, help_text="null for practice games.")
    number = serializers.IntegerField(allow_null=True, help_text="The daily's number.")
    deal = serializers.CharField(help_text="Share it to challenge a friend (practice).")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField(allow_null=True, help_text="Cards left; only when won.")
    moves_played = serializers.IntegerField()
    current_card = serializers.CharField(allow_null=True, help_text="null when over.")
    stock = serializers.IntegerField(help_text="Cards left, not counting the current card.")
    face_down = serializers.IntegerField()
    grid = CellOutput(many=True)
    legal_moves = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    )
    last_move = LastMoveOutput(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class GamePageOutput(serializers.Serializer):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameOutput(many=True)


class RecordOutput(serializers.Serializer):
    deck = serializers.ListField(child=serializers.CharField(), min_length=40, max_length=40)
    moves = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    )
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField(allow_null=True)
