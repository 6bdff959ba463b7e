from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The API's conventions, shared by every game: problems, idempotency, throttling, the
    schema. Its one model is the Idempotency-Key store."""

    name = "server.api"
    label = "api"
    verbose_name = "API"
    default_auto_field = "django.db.models.BigAutoField"
