from django.contrib import admin

from server.players.models import AccessToken, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "username", "is_staff", "created_at", "claimed_at"]
    search_fields = ["name", "username", "id"]
    list_filter = ["is_staff", "is_active"]
    readonly_fields = ["id", "name_key", "created_at", "claimed_at", "last_login"]
    exclude = ["password", "groups", "user_permissions"]


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ["id", "player", "label", "created_at", "last_used_at"]
    readonly_fields = ["key_hash"]
    raw_id_fields = ["player"]
