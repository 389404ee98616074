"""Start-up cost of `drill --help` and `drill calc ... --json`, as ratios to `python -c pass`.

Targets: --help <= 3x, calc --json <= 6x. Medians of several runs, measured in the same
process one after another, because absolute times on shared machines are noise. Bytecode is
cached (in a temporary PYTHONPYCACHEPREFIX) as after ``pip install``; see tui_startup.py.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 15
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "drill --help": [sys.executable, "-m", "drill", "--help"],
    "drill calc gemm --json": [
        sys.executable,
        "-m",
        "drill",
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "a100",
        "--dtype",
        "fp16",
        "--json",
    ],
}
TARGETS = {"drill --help": 3.0, "drill calc gemm --json": 6.0}


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="drill-bench-pycache-")


def median_time(cmd: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    for cmd in COMMANDS.values():  # warm the file cache and write the bytecode
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV
        )
    base = median_time(COMMANDS["python -c pass"])
    print(f"{'python -c pass':28} {base * 1000:7.1f} ms   1.00x")
    for name, cmd in COMMANDS.items():
        if name == "python -c pass":
            continue
        t = median_time(cmd)
        ratio = t / base
        verdict = "ok" if ratio <= TARGETS[name] else "OVER TARGET"
        print(
            f"{name:28} {t * 1000:7.1f} ms  {ratio:5.2f}x  (target <= {TARGETS[name]:.0f}x) {verdict}"
        )


if __name__ == "__main__":
    main()
