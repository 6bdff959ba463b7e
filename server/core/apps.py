from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "server.core"
    label = "core"
    verbose_name = "Foursquare Daily core"

    def ready(self) -> None:
        from server.core import metrics, replicas

        # With a read replica, /metrics' replica_lag_seconds is read from it at each scrape;
        # without one it stays 0.
        if replicas.configured():
            metrics.replica_lag_reader_set(replicas.replica_lag_seconds)
