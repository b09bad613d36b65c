from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from accounts.ledger.checks import also_check

        from .round_end_handlers import Stage, on_round_end
        from .staking import signals  # noqa: F401  (connects the receivers)
        from .staking.checks import staked_game_problems
        from .staking.settlement import settle

        # A staked round's coins, before the leaderboard records them (leaderboard/apps.py).
        on_round_end(Stage.SETTLE, settle)
        also_check(staked_game_problems)

        from . import bench_floor

        if bench_floor.enabled():  # bench/live.py's web processes: count queries and round trips
            bench_floor.count_round_trips()
