"""Query parameters of the boards' endpoints, and the documented shapes they return."""

from __future__ import annotations

import copy
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param

from server.api.fields import CanonicalDateField, QueryIntegerField
from server.api.formats import iso_datetime
from server.api.inputs import StrictQuery
from server.boards.games import board_game, names
from server.boards.periods import BoardRef, Period
from server.boards.ranking import DEFAULT_LIMIT, MAX_LIMIT, BoardPage, Cursor, Entry, Standing
from server.dailies.calendar import daily_number
from server.players.models import Player
from server.players.serializers import PlayerOutput, PlayerRef, player_ref


class DateQuery(StrictQuery):
    date = CanonicalDateField(required=False, help_text="YYYY-MM-DD; default: today in UTC.")


class PageQuery(StrictQuery):
    limit = QueryIntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT,
                                     help_text=f"Entries per page, 1-{MAX_LIMIT}.")
    cursor = serializers.CharField(required=False, max_length=100,
                                   help_text="From a previous page's `next`.")
    around = serializers.ChoiceField(
        choices=["me"], required=False,
        help_text="`me`: the entries just above and below you instead of the top (needs a "
                  "token); the last ranked entries if you hold no rank. Ignored with a cursor.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "cursor" in attrs:
            attrs["cursor"] = Cursor.decode(attrs["cursor"])
            attrs.pop("around", None)  # a `next` link continues after an around page
        return attrs


class BoardQuery(PageQuery, DateQuery):
    period = serializers.ChoiceField(choices=[period.value for period in Period],
                                     default=Period.DAY.value,
                                     help_text="day (a daily), week (its ISO week) or all.")


class EntryOutput(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Competition ranking: 1, 2, 2, 4.")
    player = PlayerRef()
    score = serializers.IntegerField(help_text="The daily's score; on week and all-time "
                                               "boards the sum of the winning scores.")
    wins = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Dailies started in the period.")
    best = serializers.IntegerField(allow_null=True)
    finished_at = serializers.DateTimeField(help_text="When this result was reached; earlier "
                                                      "is listed first within a tie.")


class StandingOutput(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["won", "lost", "playing", "unfinished", "played", "not_started"],
        help_text="Day boards: won, lost, playing, unfinished (the date closed before the game "
                  "was finished) or not_started. Week and all-time boards: "
                  "won (a daily of the period won), played or not_started.")
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    ahead = serializers.IntegerField(help_text="Players ranked above you.")
    behind = serializers.IntegerField(help_text="Players who started and did worse than you.")
    better_than_percent = serializers.IntegerField(
        allow_null=True, help_text="`behind` as a share of the other players (0-100); null "
                                   "when nobody else started, or when you are not ranked here.")
    ranked = serializers.BooleanField(
        allow_null=True,
        help_text="Whether your dailies of the period count on this board; null if you have "
                  "not played in it. false on a global board: none of them is ranked, because "
                  "your account was not trusted when you started them (a guest, or created on "
                  "the daily's date). Claimed accounts rank from the next daily after the day "
                  "they were created. League boards count every member's dailies.")
    would_rank = serializers.IntegerField(
        allow_null=True,
        help_text="Day boards, for an unranked win (`ranked` false): the rank its score would "
                  "have among the ranked players (after every better score, level with an equal "
                  "one); null otherwise.")
    would_better_than_percent = serializers.IntegerField(
        allow_null=True,
        help_text="With `would_rank`: the share of the ranked players (0-100) that score would "
                  "be ahead of; null otherwise, or when no ranked player started.")


class ReferenceOutput(serializers.Serializer):
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["won", "lost"], allow_null=True,
                                     help_text="null until the bot has played the deal.")
    score = serializers.IntegerField(allow_null=True)


class BoardOutput(serializers.Serializer):
    period = serializers.ChoiceField(choices=[period.value for period in Period])
    date = serializers.DateField(help_text="The date asked for.")
    number = serializers.IntegerField(allow_null=True, help_text="The daily's number (day "
                                                                 "boards).")
    start = serializers.DateField()
    end = serializers.DateField(allow_null=True, help_text="null for all time.")
    players = serializers.IntegerField(
        help_text="Players who started a daily of the period: on the global boards, only "
                  "ranked dailies count; on a league's, every member's.")
    winners = serializers.IntegerField()
    distribution = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Winners by score (day boards list every score 0-24) or by total score.")
    entries = EntryOutput(many=True)
    me = EntryOutput(allow_null=True, help_text="Your entry, if you hold a rank.")
    standing = StandingOutput(allow_null=True, help_text="Where you stand, ranked or not; "
                                                         "null without a token.")
    next = serializers.URLField(allow_null=True)
    reference = ReferenceOutput(
        allow_null=True, help_text="Day boards: the bot's own result on the deal, a reference "
                                   "line that holds no rank and counts nowhere; null on other "
                                   "boards.")


def stats_serializer() -> type[serializers.Serializer[Any]]:
    """The player's statistics (``players/me/stats``, ``players/{id}``): the player, and each
    registered game's section (``BoardGame.stats_output``) - at the top level or under its
    ``stats_field``. Built once, when the API's views are first loaded (every app has
    registered its game by then)."""
    global _STATS_OUTPUT
    if _STATS_OUTPUT is None:
        fields: dict[str, serializers.Field[Any, Any, Any, Any]] = {"player": PlayerOutput()}
        for name in names():
            game = board_game(name)
            if game.stats_output is None:
                continue
            if game.stats_field is None:
                fields.update({key: copy.deepcopy(field) for key, field
                               in game.stats_output._declared_fields.items()})
            else:
                fields[game.stats_field] = game.stats_output(help_text=game.stats_help)
        _STATS_OUTPUT = type("StatsOutput", (serializers.Serializer,), fields)
    return _STATS_OUTPUT


_STATS_OUTPUT: type[serializers.Serializer[Any]] | None = None


def stats_output(player: Player) -> dict[str, Any]:
    """The player's statistics: each registered game's section, as ``stats_serializer``."""
    stats: dict[str, Any] = {"player": player_ref(player)}
    for name in names():
        game = board_game(name)
        if game.stats is None:
            continue
        section = game.stats(player)
        if game.stats_field is None:
            stats.update(section)
        else:
            stats[game.stats_field] = section
    return stats


def entry_output(entry: Entry | None) -> dict | None:
    if entry is None:
        return None
    return {
        "rank": entry.rank,
        "player": {"id": str(entry.player_id), "name": entry.player_name},
        "score": entry.score,
        "wins": entry.wins,
        "games": entry.games,
        "best": entry.best,
        "finished_at": iso_datetime(entry.finished_at),
    }


def standing_output(standing: Standing | None) -> dict | None:
    return None if standing is None else dict(vars(standing))


def next_url(request: Request, cursor: Cursor | None) -> str | None:
    if cursor is None:
        return None
    url = remove_query_param(request.build_absolute_uri(), "around")
    return replace_query_param(url, "cursor", cursor.encode())


def board_output(request: Request, ref: BoardRef, page: BoardPage,
                 reference: dict | None = None) -> dict:
    return {
        "period": ref.period.value,
        "date": ref.day.isoformat(),
        "number": daily_number(ref.day) if ref.period is Period.DAY else None,
        "start": ref.start.isoformat(),
        "end": ref.end.isoformat() if ref.end else None,
        "players": page.players,
        "winners": page.winners,
        "distribution": {str(score): count for score, count in page.distribution.items()},
        "entries": [entry_output(entry) for entry in page.entries],
        "me": entry_output(page.me),
        "standing": standing_output(page.standing),
        "next": next_url(request, page.next),
        "reference": reference,
    }
