from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The API's conventions, shared by every game: problems, idempotency, throttling, the
    schema. Its one model is the Idempotency-Key store."""

    name = "server.api"
    label = "api"
    verbose_name = "API"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.api import idempotency
        from server.jobs import background

        # Both games store responses here; the hourly housekeeping deletes the expired ones.
        background.register_periodic(
            "idempotency keys", idempotency.PRUNE_SECONDS, idempotency.records_prune, once=True,
            report="deleted {} expired Idempotency-Key responses")
