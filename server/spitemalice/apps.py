from django.apps import AppConfig


class SpiteMaliceConfig(AppConfig):
    name = "server.spitemalice"
    label = "spitemalice"
    verbose_name = "Spite & Malice"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.core.metrics import scrape_reader_register
        from server.ratings.rings import rings_skip
        from server.spitemalice import (
            boards,
            bot_accounts,
            bot_ratings,
            fairness,
            metrics,
            notify,
            tasks,
        )
        from server.streams.services import active_source_register

        boards.register()
        fairness.register()
        scrape_reader_register("spite_malice_clocks", metrics.clock_sweep_families)
        tasks.register()
        bot_accounts.register_bot_rules()
        active_source_register(notify.active_matches)
        # The bots' board holds the house levels, who rate only one another: a closed group by
        # design, never a ring (docs/RATINGS.md, "Bots").
        rings_skip(bot_ratings.BOTS_GAME)
