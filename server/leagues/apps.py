from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "server.leagues"
    label = "leagues"
    default_auto_field = "django.db.models.BigAutoField"
