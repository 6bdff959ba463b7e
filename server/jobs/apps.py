from django.apps import AppConfig


class JobsConfig(AppConfig):
    """The job queue knows no game: each app registers its tasks and periodic checks with
    ``server.jobs.background`` from its own ``ready()``."""

    name = "server.jobs"
    label = "jobs"
    verbose_name = "Background jobs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.core.metrics import scrape_reader_register
        from server.jobs.background import queue_families

        scrape_reader_register("jobs", queue_families)
