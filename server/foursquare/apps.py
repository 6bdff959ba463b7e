from django.apps import AppConfig


class FoursquareConfig(AppConfig):
    """Foursquare's server app. Its label stays "games", the name it was first installed
    under: its tables (games_game, games_move, ...) and migrations keep that name."""

    name = "server.foursquare"
    label = "games"
    verbose_name = "Foursquare"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.foursquare import boards, fairness, tasks

        boards.register_boards()
        fairness.register()
        tasks.register()
