from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"

    def ready(self) -> None:
        from games.core.round_ends import Stage, on_round_end
        from games.core.round_start_handlers import on_round_start

        from .ratings.seats import note_seat_ratings
        from .results import record_ended_round

        # Every round's results, with the coins the settlement paid (games/apps.py).
        on_round_end(Stage.RECORD, record_ended_round)
        # The players' ratings on their seats, for the board to show.
        on_round_start(note_seat_ratings)
