from django.contrib import admin

from server.jobs.models import Job, Lease


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["kind", "key", "status", "attempts", "created_at", "started_at",
                    "finished_at"]
    list_filter = ["kind", "status"]
    search_fields = ["key"]
    readonly_fields = ["kind", "key", "attempts", "error", "created_at", "started_at",
                       "finished_at", "run_after"]


@admin.register(Lease)
class LeaseAdmin(admin.ModelAdmin):
    list_display = ["name", "holder", "expires_at"]
    readonly_fields = ["name", "holder", "expires_at"]
