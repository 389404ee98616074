"""The ``drill ncu`` sub-parser (kept beside the others' module, which is near its size limit)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from drill.cli import argtypes


def add_ncu(sub: argparse._SubParsersAction, lang_flag: Callable) -> None:
    ncu = sub.add_parser(
        "ncu",
        help="read an Nsight Compute report: roofline placement and diagnosis per kernel",
        description="Read ncu --csv output (--page raw or --page details; .ncu-rep with NVIDIA's "
        "ncu_report module): per kernel the duration, DRAM bytes, FLOPs from the SASS "
        "counters, achieved FLOP/s and bandwidth, intensity, the roofline of the card and "
        "the Speed-of-Light reading. Make the CSV with: ncu --csv --page raw --metrics "
        "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum,... ./app > report.csv",
    )
    ncu.add_argument("file", type=argtypes.name, help="ncu --csv output, or a .ncu-rep file")
    ncu.add_argument(
        "--gpu",
        default=None,
        metavar="ID",
        type=argtypes.name,
        help="card to place the kernels on (default: matched from the report's device name)",
    )
    ncu.add_argument(
        "--mma",
        default=None,
        metavar="MxNxK",
        help="FLOPs per tensor instruction come from this MMA shape (default 16x8x16)",
    )
    ncu.add_argument("--json", action="store_true", help="the figures as JSON, in base units")
    ncu.add_argument("--plot", action="store_true", help="draw the kernels on the roofline")
    ncu.add_argument(
        "--quiz", action="store_true", help="drill on your own kernels (recorded in history)"
    )
    lang_flag(ncu)
