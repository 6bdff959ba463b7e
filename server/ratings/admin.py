from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from server.ratings import rings
from server.ratings.models import RatedMatch, Rating, Ring

# Shown and read only, named once (a tuple: the stubs type list_display's items wider than
# readonly_fields', which only an immutable sequence satisfies both of).
_RATING_FIELDS = ("player", "game", "rating", "deviation", "volatility", "matches",
                  "provisional", "held", "updated_at")
_RATED_MATCH_FIELDS = ("match_id", "game", "player_a", "player_b", "score_a", "rating_a_before",
                       "rating_a_after", "rating_b_before", "rating_b_after", "rated_at")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Read only: a rating is the result of its matches, changed by rating a match."""

    list_display = _RATING_FIELDS
    list_filter = ["game", "provisional", "held"]
    list_select_related = ["player"]
    readonly_fields = _RATING_FIELDS

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatedMatch)
class RatedMatchAdmin(admin.ModelAdmin):
    list_display = _RATED_MATCH_FIELDS
    list_filter = ["game"]
    list_select_related = ["player_a", "player_b"]
    readonly_fields = _RATED_MATCH_FIELDS

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Ring)
class RingAdmin(admin.ModelAdmin):
    """The closed clusters the periodic job found (``server.ratings.rings``), to review: clear
    one (not a ring: its accounts go back on the board) or remove it (its matches among
    themselves are struck and every rating of the game is computed again)."""

    list_display = ["id", "game", "status", "accounts", "matches", "closed_share",
                    "detected_at", "reviewed_at"]
    list_filter = ["status", "game"]
    readonly_fields = ["game", "status", "member_names", "matches", "closed_share",
                       "detected_at", "reviewed_at"]
    exclude = ["members"]
    actions = ["clear", "remove"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="accounts")
    def accounts(self, ring: Ring) -> int:
        return ring.members.count()

    @admin.display(description="members")
    def member_names(self, ring: Ring) -> str:
        return ", ".join(f"{player.name} ({player.pk})" for player in ring.members.all())

    @admin.action(description="Reviewed: not a ring (back on the board)")
    def clear(self, request: HttpRequest, queryset: QuerySet[Ring]) -> None:
        for ring in queryset.exclude(status=Ring.Status.REMOVED):
            rings.ring_clear(ring)
        self.message_user(request, "Cleared: the accounts are back on the board.")

    @admin.action(description="Reviewed: a ring (strike its matches, recompute the ratings)")
    def remove(self, request: HttpRequest, queryset: QuerySet[Ring]) -> None:
        struck = sum(rings.ring_remove(ring)
                     for ring in queryset.exclude(status=Ring.Status.REMOVED))
        self.message_user(request, f"Removed: {struck} matches struck, ratings recomputed.",
                          messages.WARNING)
