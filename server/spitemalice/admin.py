from django.contrib import admin

from server.spitemalice.models import Action, Daily, Match, MatchGame


class MatchGameInline(admin.TabularInline):
    model = MatchGame
    extra = 0
    can_delete = False
    readonly_fields = ["number", "seed", "status", "winner", "points", "turn_number",
                       "started_at", "finished_at"]
    exclude = ["actions"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "mode", "level", "player0", "status", "score0", "score1", "winner",
                    "reason", "daily", "created_at"]
    list_filter = ["mode", "status", "level"]
    readonly_fields = ["seed", "player0", "player1", "bot_seat", "score0", "score1", "winner",
                       "reason", "game_number", "turn", "actions_played", "event", "daily",
                       "ranked", "bot_pending", "finished_at"]
    inlines = [MatchGameInline]


# Shown and read only, named once (a tuple: the stubs type list_display's items wider than
# readonly_fields', which only an immutable sequence satisfies both of).
_ACTION_FIELDS = ("match", "game", "number", "seat", "source", "target", "card", "played_at")


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = _ACTION_FIELDS
    readonly_fields = _ACTION_FIELDS


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ["date", "created_at"]
    readonly_fields = ["date", "seed", "created_at"]
