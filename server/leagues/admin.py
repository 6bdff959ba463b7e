from django.contrib import admin

from server.leagues.models import League, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["joined_at"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "owner", "created_at"]
    search_fields = ["name", "code", "id"]
    raw_id_fields = ["owner"]
    readonly_fields = ["id", "created_at"]
    inlines = [MembershipInline]
