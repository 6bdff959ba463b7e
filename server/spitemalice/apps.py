from django.apps import AppConfig


class SpiteMaliceConfig(AppConfig):
    name = "server.spitemalice"
    label = "spitemalice"
    verbose_name = "Spite & Malice"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from server.spitemalice import boards, bot_accounts, fairness, tasks

        boards.register()
        fairness.register()
        tasks.register()
        bot_accounts.register_bot_rules()
