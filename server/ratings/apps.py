from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "server.ratings"
    label = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.jobs.background import register_periodic
        from server.ratings import rings

        # One process an hour looks for closed clusters on every board (docs/RATINGS.md).
        register_periodic("ratings_rings", rings.DETECT_SECONDS, rings.rings_detect_all,
                          once=True, report="rings held: {}")
