from django.contrib import admin

from server.boards.models import Board, ScoreCount, Standing


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["key", "kind", "players", "winners"]
    list_filter = ["kind"]
    search_fields = ["key"]
    readonly_fields = ["key", "kind", "players", "winners"]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["board", "player", "total", "wins", "games", "best", "reached_at"]
    list_select_related = ["board", "player"]
    search_fields = ["board__key", "player__name"]
    raw_id_fields = ["board", "player"]
    readonly_fields = ["games", "wins", "total", "best", "reached_at"]


@admin.register(ScoreCount)
class ScoreCountAdmin(admin.ModelAdmin):
    list_display = ["board", "total", "wins", "count"]
    list_select_related = ["board"]
    search_fields = ["board__key"]
    raw_id_fields = ["board"]
    readonly_fields = ["total", "wins", "count"]
