"""What the Spite & Malice endpoints return: the documented shapes of their answers, and of
the events their feed and sockets send."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, inline_serializer
from rest_framework import serializers

from server.fairness.serializers import SeedsOutput
from server.players.serializers import PlayerOutput, PlayerRef
from server.ratings.serializers import PlayerRatingOutput
from server.spitemalice.models import INVITE_DAYS, LEVELS, Match, MatchGame
from server.spitemalice.selectors import EVENTS_PER_PAGE


class CentreStackOutput(serializers.Serializer):
    size = serializers.IntegerField(help_text="Cards on the stack, 0-11.")
    top = serializers.CharField(allow_null=True)
    next = serializers.CharField(help_text="The rank it takes next: A, 2, ... Q (or a King).")


class TableSeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    payoff = serializers.IntegerField(help_text="Cards left in the pay-off pile.")
    payoff_top = serializers.CharField(allow_null=True, help_text="Its face-up top card.")
    hand = serializers.IntegerField(help_text="How many cards the seat holds.")
    sides = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), min_length=4,
        max_length=4, help_text="The four side stacks, each bottom to top.")


class GameViewOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 for the match's first game.")
    status = serializers.ChoiceField(choices=MatchGame.Status.choices)
    turn = serializers.IntegerField(allow_null=True, help_text="The seat to act.")
    turn_number = serializers.IntegerField()
    actions = serializers.IntegerField(help_text="Actions played in this game.")
    stock = serializers.IntegerField(help_text="Cards in the stock.")
    centre = CentreStackOutput(many=True)
    seats = TableSeatOutput(many=True)
    hand = serializers.ListField(child=serializers.CharField(), help_text="Your cards.")
    legal_actions = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2),
        help_text="Your legal actions; empty unless it is your turn.")
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True,
                                      help_text="The winner's points; 0 for a tie.")


class MatchSeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerOutput(allow_null=True, help_text="Its `bot` says whether a bot account "
                                                      "holds the seat (not the house bot).")
    bot = serializers.ChoiceField(choices=list(LEVELS), allow_null=True,
                                  help_text="The bot's level if the bot holds this seat.")
    score = serializers.IntegerField()
    connected = serializers.BooleanField(
        help_text="Whether the seat's player has the match open live now (the bot always).")


class InviteOutput(serializers.Serializer):
    code = serializers.CharField(help_text="8 characters of Crockford base32: give it to your "
                                           "opponent, who joins with it.")
    url = serializers.URLField(help_text="The browser app's join screen for this code.")
    expires_at = serializers.DateTimeField(
        help_text=f"The invitation's end: {INVITE_DAYS} days after it was made.")


class MatchOutput(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=Match.Mode.choices)
    level = serializers.ChoiceField(choices=list(LEVELS), allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    target = serializers.IntegerField(help_text="Points to win; 1 for a daily.")
    date = serializers.DateField(allow_null=True, help_text="A daily's date.")
    seats = MatchSeatOutput(many=True)
    your_turn = serializers.BooleanField(
        help_text="Whether the match waits for your action: your turn in a match being played, "
                  "or an invitation to you not joined yet (what `?turn=me` lists).")
    you = serializers.IntegerField(help_text="Your seat (1 for the invitee of a match not "
                                             "joined yet).")
    winner = serializers.IntegerField(allow_null=True)
    reason = serializers.ChoiceField(
        choices=Match.Reason.values, allow_null=True,
        help_text="How it ended: target, tied, resigned, unfinished (a daily whose date "
                  "closed), timeout (the seat to play let its deadline pass), cancelled "
                  "(by its maker before anyone joined), declined (by its invitee) or expired "
                  "(nobody joined in time). An aborted "
                  "match's reason is how a seat left it: resigned, timeout or cancelled.")
    event = serializers.IntegerField(help_text="The latest event's number.")
    rated = serializers.BooleanField(
        help_text="Whether the match counts on the ratings board (docs/RATINGS.md). An open "
                  "invitation's may still turn false when someone joins it.")
    unrated_reason = serializers.ChoiceField(
        choices=Match.Unrated.values, allow_null=True,
        help_text="Null when rated; else why not: bot (the house bot or a daily), casual "
                  "(asked for), new_account (an account claimed less than 24 h before the "
                  "match was created), pair_limit (the two players' rated matches of the "
                  "last 24 hours are used) or daily_limit (either player's rated matches of "
                  "the last 24 hours are used).")
    abortable = serializers.BooleanField(
        help_text="A match between people whose seats have not both completed their first "
                  "turn (a rated match: their first three turns each): resigning, cancelling "
                  "or a timeout now aborts it (no winner, not rated).")
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Between people: how long each turn may take (seconds).")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the current turn ends: the seat to play loses the "
                                   "match if it passes. Null when no turn runs.")
    invite = InviteOutput(allow_null=True, help_text="While the match waits for its second "
                                                     "player: how to join it.")
    invitee = PlayerOutput(allow_null=True, help_text="The player invited directly, if any.")
    seek = serializers.BooleanField(
        help_text="An open seek (POST /seeks): anyone but its maker may take it, until then "
                  "`invite` is null (it has no code to share).")
    decline_reason = serializers.ChoiceField(
        choices=Match.DeclineReason.values, allow_null=True,
        help_text="Why the invitee declined (POST /matches/{id}/decline): "
                  + ", ".join(f"{value} ({label})" for value, label
                              in Match.DeclineReason.choices)
                  + ". Null unless declined with a reason (a decline by `cancel` gives none).")
    rematch = serializers.UUIDField(allow_null=True,
                                    help_text="The rematch offered after this match, if any.")
    rematch_status = serializers.ChoiceField(
        choices=["waiting", "playing", "finished", "aborted", "cancelled", "declined",
                 "expired"], allow_null=True,
        help_text="Where the rematch offered stands: its status, except that an invitation "
                  "that closed unjoined says how (cancelled by its maker, declined by its "
                  "invitee, or expired). Null without a rematch.")
    rematch_of = serializers.UUIDField(allow_null=True,
                                       help_text="The match this one is the rematch of.")
    game = GameViewOutput(allow_null=True)


class InvitationOutput(serializers.Serializer):
    code = serializers.CharField()
    from_ = PlayerOutput(help_text="Who invites you.")
    invitee = PlayerOutput(allow_null=True, help_text="The player invited directly, if any.")
    target = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    expires_at = serializers.DateTimeField()
    rated = serializers.BooleanField(
        help_text="Whether the match would be rated if you joined it now.")
    unrated_reason = serializers.ChoiceField(choices=Match.Unrated.values, allow_null=True,
                                             help_text="Why not, as on a match.")

    def get_fields(self):
        # "from" is a Python keyword: the field is declared as from_ and named in the output.
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class SeekOutput(serializers.Serializer):
    id = serializers.UUIDField(help_text="The seek's match: take it with POST "
                                         "/seeks/{id}/accept.")
    from_ = PlayerOutput(help_text="Who seeks an opponent (`bot`: a bot account).")
    rating = PlayerRatingOutput(allow_null=True,
                                help_text="Their Spite & Malice rating, if a match of theirs "
                                          "was rated.")
    turn_seconds = serializers.IntegerField()
    target = serializers.IntegerField()
    rated = serializers.BooleanField(
        help_text="Whether the match would be rated if you took it now.")
    unrated_reason = serializers.ChoiceField(choices=Match.Unrated.values, allow_null=True,
                                             help_text="Why not, as on a match.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(
        help_text=f"{INVITE_DAYS} days after it was posted, as an invitation's.")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class SeekPageOutput(serializers.Serializer):
    next = serializers.URLField(allow_null=True,
                                help_text="The page after this one (a `cursor`), or null.")
    results = SeekOutput(many=True)


class MatchPageOutput(serializers.Serializer):
    count = serializers.IntegerField(help_text="All your matches, on every page.")
    next = serializers.URLField(allow_null=True,
                                help_text="The page after this one (a `cursor`), or null.")
    previous = serializers.URLField(allow_null=True,
                                    help_text="The page before this one, or null.")
    results = MatchOutput(many=True)


# --- Events: one shape per kind, told apart by `kind` ---------------------------------------


# What every event has: its number in the match and its kind. Members that are Python keywords
# are declared with a trailing underscore (``from_``, ``as_``) and named without it.
class EventOutput(serializers.Serializer):

    number = serializers.IntegerField(min_value=1, help_text="1 for the match's first event.")

    def get_fields(self):
        fields = super().get_fields()
        return {name.rstrip("_"): field for name, field in fields.items()}


def _kind(value: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[value], help_text=f"Always `{value}`.")


_SEAT: dict[str, Any] = {"min_value": 0, "max_value": 1}
def _scores(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2,
                                 max_length=2, **kwargs)


def _game() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, help_text="The game's number in the match.")


class SpiteMaliceJoinedEvent(EventOutput):
    kind = _kind("joined")
    seat = serializers.IntegerField(**_SEAT, help_text="The seat taken: always 1.")
    player = PlayerRef(help_text="Who took it.")


class SpiteMaliceDealtEvent(EventOutput):
    kind = _kind("dealt")
    game = _game()
    starts = serializers.IntegerField(**_SEAT, help_text="The seat that plays first.")
    payoff = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2,
                                   max_length=2, help_text="Each seat's pay-off pile size.")
    payoff_tops = serializers.ListField(
        child=serializers.CharField(allow_null=True), min_length=2, max_length=2,
        help_text="Each seat's pay-off top card, face up (by seat).")


class TurnTableOutput(serializers.Serializer):
    game = GameViewOutput(help_text="The game as your match object shows it now, with your "
                                    "hand and `legal_actions`.")
    deadline = serializers.DateTimeField(allow_null=True,
                                         help_text="The match's `deadline` now.")
    abortable = serializers.BooleanField(help_text="The match's `abortable` now.")
    your_turn = serializers.BooleanField(help_text="The match's `your_turn` now (true: the "
                                                   "turn that began is yours).")


class SpiteMaliceDrawEvent(EventOutput):
    kind = _kind("draw")
    game = _game()
    seat = serializers.IntegerField(**_SEAT, help_text="Who drew.")
    count = serializers.IntegerField(min_value=1, help_text="Cards drawn.")
    stock = serializers.IntegerField(min_value=0, help_text="Cards left in the stock.")
    cards = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="The cards drawn: only in the drawer's copy.")
    table = TurnTableOutput(required=False, help_text=(
        "Only in your copy of the draw that began your turn: the parts of the match object "
        "the turn's start changed (merge them into the match you hold)."))


class SpiteMalicePlayEvent(EventOutput):
    kind = _kind("play")
    game = _game()
    action = serializers.IntegerField(min_value=0, help_text="The action's number in the game.")
    seat = serializers.IntegerField(**_SEAT)
    card = serializers.CharField()
    from_ = serializers.CharField(help_text="P, S0-S3 or the card (from the hand).")
    to = serializers.CharField(help_text="The centre stack, C0-C2.")
    as_ = serializers.CharField(help_text="The rank it counts as (a King's too).")
    payoff_top = serializers.CharField(
        allow_null=True, required=False,
        help_text="After a play from the pay-off pile (`from` P) only: its new top card, as a "
                  "seat's `payoff_top` in the match; null when the pile is empty.")


class SpiteMaliceCompletedEvent(EventOutput):
    kind = _kind("completed")
    game = _game()
    stack = serializers.CharField(help_text="The centre stack that reached Queen and was "
                                            "shuffled into the stock.")
    stock = serializers.IntegerField(min_value=0)


class SpiteMaliceDiscardEvent(EventOutput):
    kind = _kind("discard")
    game = _game()
    action = serializers.IntegerField(min_value=0)
    seat = serializers.IntegerField(**_SEAT)
    card = serializers.CharField()
    from_ = serializers.CharField(help_text="The card (from the hand).")
    to = serializers.CharField(help_text="The side stack, S0-S3: the turn ends.")


class SpiteMaliceResignedEvent(EventOutput):
    kind = _kind("resigned")
    game = _game()
    seat = serializers.IntegerField(**_SEAT, help_text="Who resigned.")


class SpiteMaliceTimeoutEvent(EventOutput):
    kind = _kind("timeout")
    game = _game()
    seat = serializers.IntegerField(**_SEAT, help_text="Who let the turn's deadline pass.")
    deadline = serializers.DateTimeField(help_text="The deadline that passed.")


class SpiteMaliceAbortedEvent(EventOutput):
    kind = _kind("aborted")
    game = _game()
    seat = serializers.IntegerField(**_SEAT, help_text="Who left.")
    reason = serializers.ChoiceField(
        choices=[Match.Reason.RESIGNED.value, Match.Reason.TIMEOUT.value,
                 Match.Reason.CANCELLED.value],
        help_text="How the seat left, before each seat completed its first turn.")


class SpiteMaliceGameOverEvent(EventOutput):
    kind = _kind("game_over")
    game = _game()
    status = serializers.ChoiceField(
        choices=[MatchGame.Status.WON.value, MatchGame.Status.TIED.value,
                 MatchGame.Status.RESIGNED.value, MatchGame.Status.TIMEOUT.value])
    winner = serializers.IntegerField(**_SEAT, allow_null=True, help_text="Null for a tie.")
    points = serializers.IntegerField(
        min_value=0, help_text="What the game scored for its winner: the cards left in the "
                               "loser's pay-off pile when won; 0 for a tie, a resignation or "
                               "a timeout (the rules score only a won game).")
    scores = _scores(help_text="The match's scores after it.")


class SpiteMaliceMatchOverEvent(EventOutput):
    kind = _kind("match_over")
    winner = serializers.IntegerField(**_SEAT, allow_null=True,
                                      help_text="Null for a tied or unfinished match.")
    reason = serializers.ChoiceField(choices=[
        Match.Reason.TARGET.value, Match.Reason.TIED.value, Match.Reason.RESIGNED.value,
        Match.Reason.TIMEOUT.value, Match.Reason.UNFINISHED.value])
    scores = _scores(help_text="The match's scores.")


class SpiteMaliceCancelledEvent(EventOutput):
    kind = _kind("cancelled")
    reason = serializers.ChoiceField(choices=[
        Match.Reason.CANCELLED.value, Match.Reason.DECLINED.value, Match.Reason.EXPIRED.value])
    by = serializers.IntegerField(**_SEAT, allow_null=True, help_text=(
        "0 the creator cancelling, 1 the invitee declining; null when it expired."))
    decline_reason = serializers.ChoiceField(
        choices=Match.DeclineReason.choices, allow_null=True,
        help_text="Why the invitee declined, if they said (as the match's `decline_reason`); "
                  "null otherwise.")


# Typed as PolymorphicProxySerializer takes it (a dict's value type does not widen).
EVENT_SERIALIZERS: dict[str, serializers.Serializer | type[serializers.Serializer]] = {
    "joined": SpiteMaliceJoinedEvent, "dealt": SpiteMaliceDealtEvent,
    "draw": SpiteMaliceDrawEvent, "play": SpiteMalicePlayEvent,
    "completed": SpiteMaliceCompletedEvent, "discard": SpiteMaliceDiscardEvent,
    "resigned": SpiteMaliceResignedEvent, "timeout": SpiteMaliceTimeoutEvent,
    "aborted": SpiteMaliceAbortedEvent, "game_over": SpiteMaliceGameOverEvent,
    "match_over": SpiteMaliceMatchOverEvent, "cancelled": SpiteMaliceCancelledEvent,
}


def event_output(**kwargs) -> PolymorphicProxySerializer:
    """An event of any kind: a ``oneOf`` of the kinds' shapes, ``kind`` its discriminator
    (the component ``SpiteMaliceEvent``, shared by the feed and the socket's messages)."""
    return PolymorphicProxySerializer(
        component_name="SpiteMaliceEvent", serializers=EVENT_SERIALIZERS,
        resource_type_field_name="kind", **kwargs)


class EventsOutput(serializers.Serializer):
    events = event_output(many=True, help_text=(
        "In order, each as your seat may see it: one shape per `kind` (docs/API.md)."))
    last = serializers.IntegerField(help_text="The number of the last event sent (or the "
                                              "latest, if none was new): send it as `after`.")
    more = serializers.BooleanField(
        help_text=f"Whether more events follow these (a page holds at most {EVENTS_PER_PAGE}): "
                  "ask again with `after=last` while it is true.")


class RevealedPosition(serializers.Serializer):
    payoff = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                   min_length=2, max_length=2)
    stock = serializers.ListField(child=serializers.CharField())
    hands = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                  min_length=2, max_length=2)


# "as" is a Python keyword, so a step's fields are a dict (a serializer made by inline_serializer).
REVEALED_STEP_FIELDS: dict[str, serializers.Field] = {
    "seat": serializers.IntegerField(),
    "card": serializers.CharField(),
    "as": serializers.CharField(
        allow_null=True, help_text="The rank it counted as on a centre stack; null for a discard."),
    "completed": serializers.BooleanField(),
    "payoff_missed": serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2),
        help_text="For a discard (which ends the turn): the pay-off plays its seat could still "
                  "have made, each a [\"P\", centre] action; empty otherwise."),
    "drawn": serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), min_length=2, max_length=2,
        help_text="The cards each seat drew right after the action."),
}


class MatchRecordOutput(serializers.Serializer):
    seed = serializers.CharField(help_text="The game's seed (hex): the whole deal.")
    fairness = SeedsOutput(required=False, allow_null=True, help_text=(
        "Its match's commitment, and once the match is over the seeds this game's seed "
        "derives from (`python -m spitemalice verify --record`)."))
    actions = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2))
    status = serializers.ChoiceField(choices=MatchGame.Status.choices)
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    deal = RevealedPosition(help_text="Both pay-off piles and the stock, top first, and both "
                                      "hands once the starter has drawn.")
    steps = inline_serializer("RevealedStep", fields=REVEALED_STEP_FIELDS, many=True,
                              help_text="What each action moved and drew.")
    final = RevealedPosition(help_text="Both hands, pay-off piles and the stock at the end.")


class MatchHintOutput(serializers.Serializer):
    action = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2,
                                   help_text="The hard bot's choice for your next action.")


class SpiteMaliceDailyOutput(serializers.Serializer):
    date = serializers.DateField()
    number = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Players who started this daily, as its "
                                                 "global board counts them (ranked games).")
    winners = serializers.IntegerField()
    your_match = MatchOutput(allow_null=True, help_text="Your match of this daily; null if "
                                                        "you have not started it.")



class ResultTallyOutput(serializers.Serializer):
    played = serializers.IntegerField(help_text="Finished.")
    won = serializers.IntegerField()
    lost = serializers.IntegerField(help_text="A resignation counts as a loss.")
    tied = serializers.IntegerField()


class BestDailyOutput(serializers.Serializer):
    date = serializers.DateField()
    number = serializers.IntegerField()
    points = serializers.IntegerField()


class SpiteMaliceStatsOutput(serializers.Serializer):
    matches = ResultTallyOutput(help_text="Every match (against the bot and dailies).")
    games = ResultTallyOutput(help_text="Every game of those matches.")
    dailies_played = serializers.IntegerField(help_text="Spite & Malice dailies started.")
    dailies_won = serializers.IntegerField()
    current_win_streak = serializers.IntegerField(help_text="Dailies won in a row, by number.")
    longest_win_streak = serializers.IntegerField()
    distribution = serializers.DictField(child=serializers.IntegerField(),
                                         help_text="Dailies won by points, every points 1-20.")
    best_daily = BestDailyOutput(allow_null=True, help_text="The won daily with the most "
                                                            "points (the earliest of equals).")
    rating = PlayerRatingOutput(allow_null=True, help_text="The Glicko-2 rating from matches "
                                                           "between people; null before the "
                                                           "first one is rated.")


class HouseBotOutput(serializers.Serializer):
    level = serializers.ChoiceField(choices=list(LEVELS), help_text="Play it with "
                                    "`POST /matches {\"opponent\": \"bot\", \"level\": ...}`.")
    description = serializers.CharField()
    rating = PlayerRatingOutput(allow_null=True, help_text=(
        "The level's rating on the people's scale (its matches against established people, "
        "who are not rated by them, and against the other levels: docs/RATINGS.md, \"Bots\"), "
        "or null before its first rated result."))


class OnlineBotOutput(serializers.Serializer):
    player = PlayerOutput(help_text="The bot account (`bot` always true); challenge it by "
                                    "its `id` (`invitee`).")
    rating = PlayerRatingOutput(allow_null=True, help_text=(
        "Its Spite & Malice rating on the people's scale, from its matches against established "
        "people (whose ratings they never move) and other bot accounts, or null while it has "
        "none (see Ratings, \"Bots\")."))
    seen_at = serializers.DateTimeField(help_text="When it last used the API (a request, or "
                                                  "a stream or socket opened), to 5 minutes.")


class BotsOutput(serializers.Serializer):
    house = HouseBotOutput(many=True, help_text="The house bot's levels, always there.")
    online = OnlineBotOutput(many=True, help_text=(
        "Bot accounts seen in the last minutes (`online_minutes`), the most recently seen "
        "first, at most `limit` (one page: no paging)."))
    online_minutes = serializers.IntegerField(help_text="How recent `seen_at` is to count as "
                                                        "online.")
