from django.contrib import admin

from server.ratings.models import RatedMatch, Rating


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Read only: a rating is the result of its matches, changed by rating a match."""

    list_display = ["player", "game", "rating", "deviation", "volatility", "matches",
                    "provisional", "updated_at"]
    list_filter = ["game", "provisional"]
    list_select_related = ["player"]
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False


@admin.register(RatedMatch)
class RatedMatchAdmin(admin.ModelAdmin):
    list_display = ["match_id", "game", "player_a", "player_b", "score_a", "rating_a_before",
                    "rating_a_after", "rating_b_before", "rating_b_after", "rated_at"]
    list_filter = ["game"]
    list_select_related = ["player_a", "player_b"]
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False
