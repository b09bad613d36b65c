"""Multiprocess mode (ludopat/metrics.py): with PROMETHEUS_MULTIPROC_DIR set, the metrics page of any
process shows every process's counts added up, and open sockets only of processes still alive (a daphne
that died must not be counted as holding its sockets). Real processes, each importing the site's
metrics module with the folder in its environment, as daphne and Celery workers do."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from prometheus_client.parser import text_string_to_metric_families

from ludopat import metrics

pytestmark = pytest.mark.integration

# A process that opens `sockets` game sockets and commits one roll, then exits or waits for its stdin.
CHILD = """
import sys
from ludopat import metrics
for _ in range(int(sys.argv[1])):
    metrics.OPEN_SOCKETS.inc()
metrics.action_committed("roll")
print("ready", flush=True)
if sys.argv[2] == "stay":
    sys.stdin.read()
"""


def child(folder, sockets: int, stay: bool) -> subprocess.Popen:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    args = [sys.executable, "-c", CHILD, str(sockets), "stay" if stay else "exit"]
    proc = subprocess.Popen(args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_the_page_adds_up_every_process_and_counts_sockets_of_live_ones_only(tmp_path, monkeypatch):
    gone = child(tmp_path, sockets=2, stay=False)
    assert gone.wait(timeout=30) == 0  # died without saying so: its two sockets closed with it
    alive = child(tmp_path, sockets=1, stay=True)
    try:
        monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
        body, content_type = metrics.exposition()
        found = samples(body.decode())
    finally:
        alive.communicate("", timeout=30)
    assert content_type.startswith("text/plain")
    assert found[("ludopat_open_game_sockets", ())] == 1
    assert found[("ludopat_actions_total", (("kind", "roll"),))] == 2  # the dead one's count stays
