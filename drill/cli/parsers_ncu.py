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
        action="append",
        metavar="[NAME=]MxNxK",
        help="FLOPs per counted tensor instruction from this MMA shape, for every kernel or, "
        "as NAME=MxNxK, for kernels whose name contains NAME (repeatable; default: the shape "
        "in the kernel's name, else the architecture's: 8x8x4 on Volta, 16x8x8 on Turing, "
        "16x8x16 on Ampere and later; none on Hopper and B200, use sm__ops_path_tensor_*)",
    )
    ncu.add_argument(
        "--peak",
        type=argtypes.flop_rate,
        metavar="RATE",
        help="place every kernel under this peak, e.g. 19.5T (no card needed with --bandwidth)",
    )
    ncu.add_argument(
        "--bandwidth",
        type=argtypes.byte_rate,
        metavar="RATE",
        help="the memory bandwidth to place them under, e.g. 1555GB/s",
    )
    ncu.add_argument(
        "--all",
        action="store_true",
        help="show every kernel (default: the 20 longest, with a count of the rest)",
    )
    ncu.add_argument("--json", action="store_true", help="the figures as JSON, in base units")
    ncu.add_argument("--plot", action="store_true", help="draw the kernels on the roofline")
    ncu.add_argument(
        "--quiz", action="store_true", help="drill on your own kernels (recorded in history)"
    )
    lang_flag(ncu)
