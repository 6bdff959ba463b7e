from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "server.games"
    label = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.games import tasks

        tasks.register()
