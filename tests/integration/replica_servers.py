"""A PostgreSQL primary and its streaming replica of the test's own, on free ports in a temporary folder.

The machine's PostgreSQL is left alone (its configuration may not allow replication): the primary is a
fresh `initdb` with wal_level=replica, the replica a `pg_basebackup -R` of it (standby.signal and
primary_conninfo written by pg_basebackup). PostgreSQL refuses to run as root, so every server binary
runs as the `postgres` OS user, which owns the folder. `stop()` ends both servers and deletes the folder.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from ludopat.embedded_redis import free_port

OS_USER = "postgres"


def server_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian's layout), or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3])
    )
    return Path(found[-1]).parent if found else None


def os_user_missing() -> bool:
    try:
        pwd.getpwnam(OS_USER)
    except KeyError:
        return True
    return False


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", OS_USER, "--", *command] if os.geteuid() == 0 else command


@dataclass
class ReplicaPair:
    bin: Path
    base: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ludopat-replica-")))
    primary_port: int = field(default_factory=free_port)
    replica_port: int = field(default_factory=free_port)
    started: list[Path] = field(default_factory=list)

    @property
    def primary_dir(self) -> Path:
        return self.base / "primary"

    @property
    def replica_dir(self) -> Path:
        return self.base / "replica"

    def url(self, port: int, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{port}/{database}"

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            _as_postgres([str(self.bin / command[0]), *command[1:]]),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode:
            raise RuntimeError(f"{command[0]} failed:\n{done.stdout}\n{done.stderr}")

    def _start(self, data: Path) -> None:
        self._run("pg_ctl", "-D", str(data), "-l", str(self.base / f"{data.name}.log"), "-w",
                  "-t", "30", "start")  # fmt: skip
        self.started.append(data)

    def start(self) -> None:
        """The primary, then the replica streaming from it (a few seconds)."""
        account = pwd.getpwnam(OS_USER)
        os.chown(self.base, account.pw_uid, account.pw_gid)
        self._run("initdb", "-D", str(self.primary_dir), "-U", "postgres", "-A", "trust",
                  "--no-sync", "--no-instructions")  # fmt: skip
        # Durability off (a throw-away cluster); replication on. initdb's trust pg_hba.conf already
        # lets 127.0.0.1 replicate.
        settings = (
            f"port = {self.primary_port}\nlisten_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{self.base}'\nwal_level = replica\nmax_wal_senders = 4\n"
            "fsync = off\nfull_page_writes = off\nshared_buffers = 16MB\nmax_connections = 40\n"
        )
        with (self.primary_dir / "postgresql.conf").open("a") as conf:
            conf.write(settings)
        self._start(self.primary_dir)
        self._run("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary_port), "-U",
                  "postgres", "-D", str(self.replica_dir), "-R", "-X", "stream",
                  "--checkpoint=fast", "--no-sync")  # fmt: skip
        with (self.replica_dir / "postgresql.conf").open("a") as conf:
            conf.write(f"port = {self.replica_port}\n")  # the last line wins
        self._start(self.replica_dir)

    def stop_replica(self) -> None:
        self._stop(self.replica_dir)

    def _stop(self, data: Path) -> None:
        if data in self.started:
            self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
            self.started.remove(data)

    def stop(self) -> None:
        """Both servers stopped, the folder gone: whatever state the test left them in."""
        try:
            for data in list(self.started):
                self._stop(data)
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def sql(self, port: int, query: str, database: str = "postgres") -> object:
        """The first column of the first row of `query` on one of the two servers (None: no rows)."""
        with psycopg.connect(self.url(port, database), autocommit=True) as connection:
            cursor = connection.execute(query)
            row = cursor.fetchone() if cursor.description else None
            return row[0] if row else None

    def replica_caught_up(self) -> bool:
        """Whether the replica has replayed everything the primary has written so far."""
        written = self.sql(self.primary_port, "SELECT pg_current_wal_lsn()::text")
        return bool(
            self.sql(self.replica_port, f"SELECT pg_last_wal_replay_lsn() >= '{written}'::pg_lsn")
        )
