from django.contrib import admin

from server.foursquare.models import Daily, Deal, Game, GameAnalysis, Move


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ["number", "date", "deal", "attempt", "proof_score", "proof_optimal",
                    "bot_status", "bot_score", "prepared_at"]
    readonly_fields = ["deal", "attempt", "proof_score", "proof_moves", "proof_optimal",
                       "bot_status", "bot_score", "prepared_at"]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at"]
    search_fields = ["id"]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ["number", "row", "col", "card", "played_at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "player", "mode", "daily", "status", "score", "moves_played",
                    "created_at"]
    list_filter = ["mode", "status"]
    search_fields = ["id", "player__name"]
    raw_id_fields = ["player", "deal", "daily"]
    readonly_fields = ["move_list", "moves_played", "status", "score", "finished_at"]
    inlines = [MoveInline]


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ["game", "seconds", "created_at"]
    raw_id_fields = ["game"]
    readonly_fields = ["result", "seconds", "created_at"]
