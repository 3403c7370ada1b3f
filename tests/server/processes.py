"""``meeplemind serve`` in a subprocess, for the tests of processes, signals and memory."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time


class Serve:
    """``meeplemind serve`` in a subprocess, its log lines read as they come."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "MEEPLEMIND_AUTH_TOKEN": ""}
        self.process = subprocess.Popen([sys.executable, "-m", "meeplemind", "serve", "--host", "127.0.0.1",
                                         *args], stderr=subprocess.PIPE, text=True, env=env)
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line)
        self.lines.put("")

    def until(self, pattern: str, timeout_s: float = 60.0) -> list[str]:
        """The lines logged up to the first that matches ``pattern``."""
        seen: list[str] = []
        end = time.monotonic() + timeout_s
        while not seen or not re.search(pattern, seen[-1]):
            try:
                line = self.lines.get(timeout=max(end - time.monotonic(), 0))
            except queue.Empty:
                line = ""
            assert line, f"no {pattern!r} in:\n{''.join(seen)}"
            seen.append(line)
        return seen

    def rest(self) -> str:
        """Every line logged after the process ended."""
        self.process.wait(timeout=30)
        return "".join(iter(self.lines.get, ""))

    def rss_mb(self, pid: int | None = None) -> float:
        """The resident memory of the server (or of process ``pid``), in MB."""
        with open(f"/proc/{pid or self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")
