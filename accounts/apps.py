from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from .ledger import signals  # noqa: F401  (every new account's wallet and grant)
        from .moderation.roles import ensure_roles
        from .web.log_ins import remember_address, remember_browser

        user_logged_in.connect(remember_address, dispatch_uid="accounts.remember_address")
        user_logged_in.connect(remember_browser, dispatch_uid="accounts.remember_browser")

        # Runs after every app's migrate (permissions are created by auth's own post_migrate handler,
        # which is connected first because django.contrib.auth is listed before accounts).
        post_migrate.connect(ensure_roles, dispatch_uid="accounts.ensure_roles")
