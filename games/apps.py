from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
