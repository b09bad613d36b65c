"""`make run`: migrate, then run Redis (embedded unless REDIS_URL is set), daphne, a Celery worker and
beat together in the foreground; Ctrl-C (or SIGTERM) stops every one of them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

from .embedded_redis import ping
from .embedded_redis import start as start_redis

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def main() -> int:
    env = dict(os.environ)
    port = env.get("PORT", "8000")
    procs: list[tuple[str, subprocess.Popen]] = []
    var = ROOT / "var"
    var.mkdir(exist_ok=True)

    def stop_all(*_: object) -> None:
        for _name, proc in reversed(procs):
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 10
        for _name, proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()

    def stop_and_exit(*_: object) -> NoReturn:
        stop_all()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop_and_exit)

    try:
        if not env.get("REDIS_URL"):
            redis_port = int(env.get("EMBEDDED_REDIS_PORT", "6391"))
            if ping(redis_port):
                print(f"Using the Redis already answering on 127.0.0.1:{redis_port}")
            else:
                procs.append(("redis", start_redis(redis_port, str(var))))
                print(f"Embedded Redis on 127.0.0.1:{redis_port}")
            env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"

        subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                       check=True)  # fmt: skip
        commands = {
            "daphne": [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", port, "ludopat.asgi:application"],
            # Twice the CPUs: a bot turn waits on the database lock as much as it computes, and
            # bench/timers.py measured p99 lateness over 1 s with one process per CPU.
            "worker": [str(BIN / "celery"), "-A", "ludopat", "worker", "--loglevel", "INFO",
                       "--concurrency", str(2 * (os.cpu_count() or 1))],
            "beat": [str(BIN / "celery"), "-A", "ludopat", "beat", "--loglevel", "INFO",
                     "--schedule", str(var / "celerybeat-schedule")],
        }  # fmt: skip
        for name, cmd in commands.items():
            procs.append((name, subprocess.Popen(cmd, cwd=ROOT, env=env)))
        print(f"\n  Ludopat is running at http://127.0.0.1:{port}/  (Ctrl-C stops everything)\n",
              flush=True)  # fmt: skip
        while True:
            for name, proc in procs:
                if proc.poll() is not None:
                    print(f"{name} exited with code {proc.returncode}; stopping.", file=sys.stderr)
                    return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        print("\nStopping...")
        return 0
    finally:
        stop_all()


if __name__ == "__main__":
    sys.exit(main())
