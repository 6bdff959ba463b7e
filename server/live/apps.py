from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "server.live"
    label = "live"
    verbose_name = "Live updates"
