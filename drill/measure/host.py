"""What the machine is: CPU name, vendor, clock, threads, caches, memory, and numpy's BLAS.

Read from /proc and /sys where they exist; every function degrades to a plain default
elsewhere rather than fail, since these figures only describe the measurement.
"""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path

from drill.measure.sizes import GIB, KIB, MIB


def _cpuinfo() -> dict[str, str]:
    """First value of each key in /proc/cpuinfo (empty off Linux)."""
    info: dict[str, str] = {}
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return info
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() not in info:
            info[key.strip()] = value.strip()
    return info


def cpu_name() -> str:
    info = _cpuinfo()
    name = info.get("model name") or info.get("Model") or platform.processor()
    return re.sub(r"\s+", " ", name).strip() or platform.machine() or "CPU"


def cpu_vendor() -> str:
    vendor = _cpuinfo().get("vendor_id", "")
    known = {"AuthenticAMD": "AMD", "GenuineIntel": "Intel", "HygonGenuine": "Hygon"}
    if vendor in known:
        return known[vendor]
    name = cpu_name()
    for word in ("AMD", "Intel", "Apple", "Ampere", "Qualcomm"):
        if word.lower() in name.lower():
            return word
    return vendor or "unknown"


def cpu_clock_mhz() -> float | None:
    """The highest clock the OS reports: cpufreq's maximum, else /proc/cpuinfo's current."""
    path = Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
    try:
        return int(path.read_text().strip()) / 1000
    except (OSError, ValueError):
        pass
    mhz = _cpuinfo().get("cpu MHz")
    try:
        return round(float(mhz), 1) if mhz else None
    except ValueError:
        return None


def cpu_threads() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cpu_caches() -> dict[int, int]:
    """Data/unified cache size per level in bytes, from sysfs (empty when unknown)."""
    sizes: dict[int, int] = {}
    root = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(root.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = int((index / "level").read_text().strip())
            text = (index / "size").read_text().strip().upper()
        except (OSError, ValueError):
            continue
        if kind == "Instruction":
            continue
        factor = {"K": KIB, "M": MIB, "G": GIB}.get(text[-1:], 1)
        digits = text.rstrip("KMG")
        if digits.isdigit():
            sizes[level] = int(digits) * factor
    return sizes


def physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def blas_info() -> str:
    """The BLAS numpy was built with, e.g. 'scipy-openblas 0.3.31' ('' when unknown)."""
    try:
        import numpy as np

        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        version = str(blas.get("version", "")).split(".")
        return f"{blas['name']} {'.'.join(version[:3])}".strip()
    except Exception:  # purely descriptive, never worth failing over
        return ""
