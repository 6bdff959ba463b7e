from django.apps import AppConfig


class FairnessConfig(AppConfig):
    """The log knows no game: each game registers its dailies from its own ``ready()``."""

    name = "server.fairness"
    label = "fairness"
    verbose_name = "Fairness log"
    default_auto_field = "django.db.models.BigAutoField"
