from django.contrib import admin

from server.foursquare.models import Daily, Deal, Game, GameAnalysis, Move, Race, Racer


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
    raw_id_fields = ["player", "deal", "daily", "race"]
    readonly_fields = ["move_list", "moves_played", "status", "score", "finished_at"]
    inlines = [MoveInline]


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ["game", "seconds", "created_at"]
    raw_id_fields = ["game"]
    readonly_fields = ["result", "seconds", "created_at"]


class RacerInline(admin.TabularInline):
    model = Racer
    extra = 0
    can_delete = False
    raw_id_fields = ["player", "game"]
    readonly_fields = ["joined_at", "place"]


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):
    list_display = ["code", "host", "size", "minutes", "status", "created_at", "starts_at",
                    "finished_at", "bot_status", "bot_score"]
    list_filter = ["status", "minutes"]
    search_fields = ["code", "host__name"]
    raw_id_fields = ["host", "deal", "next_race"]
    readonly_fields = ["code", "deal", "started_at", "starts_at", "ends_at", "finished_at",
                       "bot_status", "bot_score"]
    inlines = [RacerInline]
