from django.apps import AppConfig


class StreamsConfig(AppConfig):
    name = "server.streams"
    label = "streams"
    verbose_name = "Account streams"
    default_auto_field = "django.db.models.BigAutoField"
