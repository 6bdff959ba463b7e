"""Input validation for the games' endpoints, and the documented shapes they return."""

from __future__ import annotations

from datetime import date

from django.core.validators import RegexValidator
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from server.api.fields import CanonicalDateField, StrictCharField, StrictIntegerField
from server.api.formats import iso_datetime
from server.api.inputs import StrictInput
from server.dailies.calendar import daily_number
from server.foursquare.models import Game


class DailyGameInput(StrictInput):
    mode = serializers.ChoiceField(choices=[Game.Mode.DAILY.value])
    date = CanonicalDateField(
        required=False,
        help_text="Your local date (default: today in UTC); it must be current somewhere on "
                  "Earth (UTC-12 to UTC+14).",
    )


class PracticeGameInput(StrictInput):
    mode = serializers.ChoiceField(choices=[Game.Mode.PRACTICE.value])
    deal = StrictCharField(required=False, max_length=16,
                           validators=[RegexValidator(r"^[a-z0-9]{1,16}$", "Not a deal id.")],
                           help_text="Replay this shared deal (a challenge link).")


class ArchiveGameInput(StrictInput):
    mode = serializers.ChoiceField(choices=[Game.Mode.ARCHIVE.value])
    date = CanonicalDateField(help_text="A past daily, no longer current anywhere.")


GAME_INPUTS: dict[str, type[StrictInput]] = {
    Game.Mode.DAILY.value: DailyGameInput,
    Game.Mode.PRACTICE.value: PracticeGameInput,
    Game.Mode.ARCHIVE.value: ArchiveGameInput,
}


class GameModeInput(serializers.Serializer):
    """Only to read ``mode`` first: it decides which of the inputs above applies."""

    mode = serializers.ChoiceField(choices=list(GAME_INPUTS))  # a race's games: POST /races


GameCreateInput = PolymorphicProxySerializer(
    component_name="GameCreateInput",
    serializers=dict(GAME_INPUTS),  # a copy the proxy's wider type can hold
    resource_type_field_name="mode",
)


def game_create_input(data) -> dict:
    """The validated body of POST /games, checked against the shape its ``mode`` asks for."""
    mode = GameModeInput(data=data)
    mode.is_valid(raise_exception=True)
    values = GAME_INPUTS[mode.validated_data["mode"]](data=data)
    values.is_valid(raise_exception=True)
    return values.validated_data


class MoveInput(StrictInput):
    row = StrictIntegerField(min_value=-1000, max_value=1000)
    col = StrictIntegerField(min_value=-1000, max_value=1000)
    move = StrictIntegerField(
        required=False, allow_null=True, min_value=0, max_value=1000,
        help_text="The number of moves already played, as you last saw it. If given it must "
                  "match, or the move is refused with 409 stale_move; null is the same as "
                  "leaving it out.",
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


class PreviewOutput(serializers.Serializer):
    at = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2,
                               help_text="The legal move this preview is for.")
    flipped = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="The piles that placing the current card there would turn over, sorted.")
    face_down = serializers.IntegerField(help_text="Piles face down after that placement.")
    status = serializers.ChoiceField(choices=["playing", "won", "lost"],
                                     help_text="The game's status after that placement.")


class GameOutput(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    date = serializers.DateField(allow_null=True, help_text="null for practice games.")
    number = serializers.IntegerField(allow_null=True, help_text="The daily's number.")
    deal = serializers.CharField(
        allow_null=True, help_text="Share it to challenge a friend (practice). null for a race "
                                   "game until its race has finished.")
    race = serializers.UUIDField(allow_null=True, help_text="The race of a `race` game; null "
                                                            "for every other mode.")
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
    previews = PreviewOutput(
        many=True,
        help_text="What each legal move would do, in the order of `legal_moves`; computed "
                  "only from what this object shows.")
    last_move = LastMoveOutput(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    ranked = serializers.BooleanField(
        help_text="A daily game that counts on the global boards: decided when it started, by "
                  "whether the account was claimed and created before the daily's date. Always "
                  "false for practice and archive games; league boards count every daily.")


# A page of ``GamePagination`` (games, or races): a subclass declares its ``results``. (No
# docstring: drf-spectacular would publish it as every page's description.)
class PageOutput(serializers.Serializer):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)


class GamePageOutput(PageOutput):
    results = GameOutput(many=True)


class RecordOutput(serializers.Serializer):
    deck = serializers.ListField(child=serializers.CharField(), min_length=40, max_length=40)
    moves = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    )
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField(allow_null=True)


def move_field(**options) -> serializers.ListField:
    """A placement ``[row, col]``. A new field each time: one field object shared by two
    attributes is bound to only one of their names, and the other vanishes from the schema."""
    return serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2,
                                 **options)


class EstimateOutput(serializers.Serializer):
    win_probability = serializers.FloatField(help_text="Share of the bot's play-outs won, 0-1.")
    expected_score = serializers.FloatField(help_text="Their mean score, a loss counting 0.")


class MoveAnalysisOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 for the first card.")
    card = serializers.CharField()
    played = move_field(help_text="Where the card was placed.")
    best = move_field(help_text="Where the bot would have placed it.")
    played_estimate = EstimateOutput()
    best_estimate = EstimateOutput()
    value_lost = serializers.FloatField(
        help_text="10 × P(win) + E[score] of the bot's choice minus that of the move played.")
    verdict = serializers.ChoiceField(choices=["best", "good", "inaccuracy", "mistake",
                                               "blunder"])
    forced = serializers.BooleanField(help_text="The card had a single legal place.")


class RatingOutput(serializers.Serializer):
    accuracy = serializers.IntegerField(help_text="0-100 over the moves that were a choice.")
    # Field.label to the checker only: DRF's metaclass takes declared fields off the class.
    label = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["excellent", "good", "fair", "poor"])


class BotResultOutput(serializers.Serializer):
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["won", "lost"])
    score = serializers.IntegerField(allow_null=True)


class AnalysisOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=["done"])
    moves = MoveAnalysisOutput(many=True)
    turning_points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Indexes of the moves that lost the most value, worst first (up to 3).")
    win_lost_at = serializers.IntegerField(
        allow_null=True, help_text="The move after which no win was left; null if won or "
                                   "never clear.")
    win_lost_at_proven = serializers.BooleanField(
        help_text="false: `win_lost_at` is the bot's estimate, not a proof.")
    rating = RatingOutput()
    bot = BotResultOutput(help_text="How the bot itself did on this deal.")


class AnalysisPendingOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=["pending"])


class HintEstimateOutput(EstimateOutput):
    move = move_field()


class HintOutput(serializers.Serializer):
    move = move_field()
    estimates = HintEstimateOutput(many=True, help_text="Every legal move, best first.")


class ChallengeOutput(serializers.Serializer):
    """What a challenge link's game shows anyone: its deal, how it ended and who played it."""

    game = serializers.UUIDField()
    deal = serializers.CharField()
    status = serializers.ChoiceField(choices=["won", "lost"])
    score = serializers.IntegerField(allow_null=True, min_value=0, max_value=40,
                                     help_text="Cards left in the stock on a win; null on a loss.")
    name = serializers.CharField(help_text="The challenger's display name, as it is now.")


def challenge_output(game) -> dict:
    return {"game": str(game.pk), "deal": game.deal_id, "status": game.status,
            "score": game.score if game.status == "won" else None, "name": game.player.name}


# --- The daily and the player's statistics (registered with the boards) ------------------------


class DailyOutput(serializers.Serializer):
    date = serializers.DateField()
    number = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Players who started this daily, as its "
                                                 "global board counts them (ranked games).")
    winners = serializers.IntegerField()
    your_game = GameOutput(allow_null=True, help_text="Your game of this daily; null if you "
                                                      "have not started it (or sent no token).")


class RecentResultOutput(serializers.Serializer):
    date = serializers.DateField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="On the daily's global board, "
                                                               "if won and ranked.")
    finished_at = serializers.DateTimeField(allow_null=True)
    ranked = serializers.BooleanField(help_text="The game counts on the global boards.")


class RaceStatsOutput(serializers.Serializer):
    played = serializers.IntegerField(help_text="Races finished with you in them.")
    won = serializers.IntegerField(help_text="Races you finished first in.")
    best = serializers.IntegerField(allow_null=True, help_text="Your best place; null before "
                                                               "your first race.")


class FoursquareStatsOutput(serializers.Serializer):
    """Foursquare's section of a player's statistics: the top level of ``StatsOutput``."""

    races = RaceStatsOutput(help_text="Foursquare races (never counted with the dailies).")
    played = serializers.IntegerField(help_text="Dailies started.")
    won = serializers.IntegerField()
    win_percent = serializers.IntegerField(allow_null=True, help_text="won / played, 0-100.")
    current_win_streak = serializers.IntegerField()
    longest_win_streak = serializers.IntegerField()
    current_played_streak = serializers.IntegerField()
    longest_played_streak = serializers.IntegerField()
    distribution = serializers.DictField(child=serializers.IntegerField(),
                                         help_text="Wins by score, every score 0-24.")
    recent = RecentResultOutput(many=True, help_text="The latest dailies, newest first.")


def stats_output(stats: dict) -> dict:
    return {
        **stats,
        "distribution": {str(score): count for score, count in stats["distribution"].items()},
        "recent": [
            {**result, "date": result["date"].isoformat(),
             "finished_at": iso_datetime(result["finished_at"])}
            for result in stats["recent"]
        ],
    }


def daily_output(day: date, players: int, winners: int, your_game: dict | None) -> dict:
    return {"date": day.isoformat(), "number": daily_number(day), "players": players,
            "winners": winners, "your_game": your_game}
