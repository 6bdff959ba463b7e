from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "server.players"
    label = "players"
    default_auto_field = "django.db.models.BigAutoField"
