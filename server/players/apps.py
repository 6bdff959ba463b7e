from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "server.players"
    label = "players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.players import schema  # noqa: F401 - registers the OpenAPI auth scheme
