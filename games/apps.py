from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from accounts.ledger.checks import also_check

        from .core.broadcast import before_push
        from .core.round_ends import Stage, on_round_end
        from .core.token_home_handlers import on_token_home
        from .staking import signals  # noqa: F401  (connects the receivers)
        from .staking.checks import staked_game_problems
        from .staking.commitments import also_refuse
        from .staking.settlement import settle
        from .tournaments.checks import tournament_problems
        from .tournaments.handlers import decide_match, score_moved
        from .tournaments.registration import commitment_refusal
        from .web.local_boards import render_boards

        # A staked round's coins, before the leaderboard records them (leaderboard/apps.py); once
        # the round is rated, a tournament's match is decided (its winner seated next, the next
        # room showing that rating, or the prizes paid after the final).
        on_round_end(Stage.SETTLE, settle)
        on_round_end(Stage.FOLLOW, decide_match)
        on_token_home(score_moved)  # a match's tokens home move on its bracket as they come
        also_check(staked_game_problems)
        also_check(tournament_problems)
        also_refuse(commitment_refusal)  # one commitment at a time: staking asks the tournaments
        before_push(render_boards)  # this process's game sockets' boards, rendered before a push

        if settings.BENCH_FLOOR:  # bench/live.py's web processes: count queries and round trips
            from .web.bench_floor import count_round_trips

            count_round_trips()
