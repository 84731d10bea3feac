"""Round-trip cost of one hooks/run with one trivial command hook, from
Python, against what a Python host pays to spawn the same command itself with
subprocess. Run by BenchmarkPythonHost_* (go test -bench); prints the mean
nanoseconds per operation after a warm-up.

    python3 bench.py hookd|subprocess N      (HOOKD_BIN names hookd)
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from hookd import HookdClient  # noqa: E402

# The Stop input hookd writes to the hook's stdin, for the baseline.
INPUT = json.dumps({"session_id": "s", "turn_id": "t", "transcript_path": None, "cwd": tempfile.gettempdir(),
                    "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
                    "stop_hook_active": False, "last_assistant_message": None}).encode()


def measure(op, n):
    for _ in range(min(20, n)):
        op()
    start = time.perf_counter_ns()
    for _ in range(n):
        op()
    return (time.perf_counter_ns() - start) / n


def spawn_once():
    subprocess.run(["/bin/sh", "-c", "true"], input=INPUT, capture_output=True, check=True)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("hookd", "subprocess") or int(sys.argv[2]) <= 0:
        sys.exit("usage: python3 bench.py hookd|subprocess N")
    mode, n = sys.argv[1], int(sys.argv[2])
    if mode == "subprocess":
        print(measure(spawn_once, n))
        return
    home = tempfile.mkdtemp(prefix="hookd-bench-")
    try:
        with open(os.path.join(home, "hooks.json"), "w") as f:
            json.dump({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}, f)
        env = dict(os.environ, SHELL="/bin/sh")
        with HookdClient.start(None, "serve", "--log-level", "error", env=env) as hookd:
            hookd.initialize({"session": {"cwd": tempfile.gettempdir()}, "config": {"home": home, "bypassTrust": True}})
            print(measure(lambda: hookd.run("Stop", {}), n))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
