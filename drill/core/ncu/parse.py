"""Read ``ncu --csv`` output: the details page (long: one row per metric) and the raw page
(wide: one row per kernel launch, metric names as columns, a row of units under them).

Whatever else the capture holds is skipped: ``==PROF==`` progress lines and the profiled
program's own output before, between and after the CSV rows. Values come back in base
units (byte, second, byte/second, %, counts).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field

from drill.core.ncu.values import AmbiguousNumbers, ValueProblem, decimal_comma, number, scale

LONG_COLUMNS = ("Section Name", "Metric Name", "Metric Unit", "Metric Value")
# Raw-page columns that describe the launch rather than measure it.
DESCRIPTIVE = (
    "ID",
    "Process ID",
    "Process Name",
    "Host Name",
    "Kernel Name",
    "Kernel Time",
    "Context",
    "Stream",
    "Block Size",
    "Grid Size",
    "Device",
    "CC",
    "Section Name",
    "Metric Name",
    "Metric Unit",
    "Metric Value",
)
MAX_LAUNCHES = 100_000


class ReportError(ValueError):
    """A file that is not an Nsight Compute report drill can read; the message is one line,
    in Chinese too where it is the first thing a user meets (what kind of file this is)."""

    def __init__(self, en: str, zh: str = "") -> None:
        super().__init__(en)
        self.en, self.zh = en, zh or en

    def message(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Metric:
    value: float | str  # base units (a string for text metrics such as the device name)
    unit: str  # the base unit: byte, second, byte/second, %, inst, ""
    section: str = ""
    where: str = ""  # "row 7 (gpu__time_duration.sum)", for messages about this value
    cell: str = ""  # the value as the file prints it, with its unit


@dataclass
class Launch:
    """One profiled kernel launch."""

    id: str
    kernel: str
    block: str = ""
    grid: str = ""
    device: str = ""
    cc: str = ""
    metrics: dict[str, Metric] = field(default_factory=dict)


@dataclass
class Report:
    format: str  # "details", "raw" or "ncu-rep"
    launches: list[Launch]


def _rows(text: str) -> tuple[list[str], list[list[str]]]:
    """The header and the CSV rows, other lines (==PROF==, program output) dropped. Rows
    shorter than the header are padded: ncu fills the rule columns (Rule Name … Estimated
    Speedup) only on a rule's own row."""
    lines = text.splitlines()
    start = next(
        (i for i, line in enumerate(lines) if line.startswith('"ID"') and '"Kernel Name"' in line),
        None,
    )
    if start is None:
        raise ReportError(*_not_a_report(lines))
    kept = [lines[start]] + [line for line in lines[start + 1 :] if line.startswith('"')]
    try:
        rows = list(csv.reader(io.StringIO("\n".join(kept))))
    except csv.Error as exc:
        raise ReportError(f"the CSV cannot be read: {exc}") from None
    header = [c.strip() for c in rows[0]]
    seen: dict[str, int] = {}
    for column, name in enumerate(header, start=1):
        if name in seen:
            raise ReportError(
                f"the column {name!r} appears twice (columns {seen[name]} and {column}): "
                "the file was edited or joined from two reports"
            )
        seen[name] = column
    width = len(header)
    details = all(column in header for column in LONG_COLUMNS)
    need = header.index("Metric Value") + 1 if details else width
    for number_, row in enumerate(rows[1:], start=2):
        if not need <= len(row) <= width:
            raise ReportError(
                f"row {number_} has {len(row)} fields, the header {width}: the file is "
                "truncated or was edited"
            )
        row.extend([""] * (width - len(row)))
    if len(rows) == 1:
        raise ReportError("the report has a header but no kernel rows (truncated?)")
    if len(rows) > MAX_LAUNCHES:
        raise ReportError(f"more than {MAX_LAUNCHES:,} rows; profile fewer launches")
    return header, rows[1:]


def _not_a_report(lines: list[str]) -> tuple[str, str]:
    """Why a file without ncu's header is not read, in English and Chinese: ncu profiled
    nothing (its own error line quoted), an Nsight Systems summary, or something else."""
    said = [
        line.strip()
        for line in lines
        if line.startswith("==ERROR==") or "No kernels were profiled" in line
    ]
    if said:
        quoted = said[0][:160]
        return (
            f"ncu profiled no kernel; it said: {quoted}",
            f"ncu 没有分析到任何 kernel；它的输出是：{quoted}",
        )
    first = next((line for line in lines if line.strip()), "")
    if '"Time (%)"' in first or "Time (%)" in first[:40]:
        return (
            "an Nsight Systems summary (nsys stats), not ncu output; profile the kernels with "
            "ncu --csv --page raw or --page details",
            "这是 Nsight Systems 的汇总（nsys stats），不是 ncu 的输出；请用 ncu --csv --page raw "
            "或 --page details 分析 kernel",
        )
    return (
        'not an Nsight Compute CSV: no "ID",…,"Kernel Name" header line (make it with '
        "ncu --csv --page raw or --page details)",
        '不是 Nsight Compute 的 CSV：没有 "ID",…,"Kernel Name" 表头行（请用 ncu --csv --page raw '
        "或 --page details 生成）",
    )


def _value(cell: str, unit: str, comma: bool, where: str) -> Metric:
    factor, base = scale(unit)
    shown = f"{cell.strip()} {unit}".strip()
    try:
        value = number(cell, comma) * factor
    except ValueProblem:
        if unit and unit not in ("", "n/a"):
            raise ReportError(f"{where}: {cell!r} is not a number in {unit}") from None
        return Metric(cell.strip(), "", where=where, cell=shown)
    if not math.isfinite(value):
        raise ReportError(f"{where}: {shown} is not finite once scaled to {base or 'a number'}")
    return Metric(value, base, where=where, cell=shown)


def _comma(cells: list[tuple[str, str]]) -> bool:
    try:
        return decimal_comma((c for c, _ in cells), (c for c, u in cells if u.strip() == "%"))
    except AmbiguousNumbers as exc:
        raise ReportError(str(exc)) from None


def _launch(row: dict[str, str]) -> Launch:
    return Launch(
        row.get("ID", ""),
        row.get("Kernel Name", ""),
        row.get("Block Size", ""),
        row.get("Grid Size", ""),
        row.get("Device", ""),
        row.get("CC", ""),
    )


def parse_csv(text: str) -> Report:
    """The launches in a ``ncu --csv`` capture, either page."""
    header, rows = _rows(text)
    if all(column in header for column in LONG_COLUMNS):
        return _details(header, rows)
    return _raw(header, rows)


def _details(header: list[str], rows: list[list[str]]) -> Report:
    records = [dict(zip(header, row, strict=True)) for row in rows]
    comma = _comma([(r["Metric Value"], r["Metric Unit"]) for r in records])
    launches: dict[str, Launch] = {}
    for line, r in enumerate(records, start=2):
        launch = launches.get(r["ID"])
        if launch is None:
            launch = launches[r["ID"]] = _launch(r)
        if not r["Metric Name"].strip():
            continue  # a rule's row: its message, no metric
        unit, name = r["Metric Unit"].strip(), r["Metric Name"].strip()
        value = _value(r["Metric Value"], unit, comma, f"row {line} ({name})")
        metric = Metric(value.value, value.unit, r["Section Name"].strip(), value.where, value.cell)
        launch.metrics.setdefault(name, metric)
        if metric.unit:  # "Memory Throughput" is a % in one section, byte/second in another
            launch.metrics.setdefault(f"{name} [{metric.unit}]", metric)
    return Report("details", list(launches.values()))


def _raw(header: list[str], rows: list[list[str]]) -> Report:
    metrics = [c for c in header if c not in DESCRIPTIVE]
    if not metrics:
        raise ReportError("a raw-page CSV without metric columns")
    units_row = rows[0] if not rows[0][header.index("ID")].strip() else None
    if units_row is None:
        raise ReportError("the raw page's units row (under the header) is missing")
    units = dict(zip(header, units_row, strict=True))
    data = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    if not data:
        raise ReportError("the report has a header but no kernel rows (truncated?)")
    comma = _comma([(r[m], units[m]) for r in data for m in metrics])
    launches = []
    for line, r in enumerate(data, start=3):
        launch = _launch(r)
        for name in metrics:
            if r[name].strip() in ("", "n/a"):
                continue
            launch.metrics[name] = _value(r[name], units[name], comma, f"row {line} ({name})")
        launches.append(launch)
    return Report("raw", launches)
