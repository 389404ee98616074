"""Random ncu CSV rows and values (hypothesis): a report drill cannot read is refused in one
line; one it reads never shows a negative, infinite or above-100 % figure as a result."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill.cli.main import main
from tests.helpers import examples

RAW = Path(__file__).resolve().parent.parent / "data" / "ncu" / "four-kernels-raw.csv"
LINES = RAW.read_text().splitlines()
START = next(i for i, line in enumerate(LINES) if line.startswith('"ID"'))
ROWS = list(csv.reader(LINES[START:]))
METRICS = [i for i, name in enumerate(ROWS[0]) if "__" in name and "display_name" not in name]

CELLS = st.one_of(
    st.sampled_from(
        [
            "0",
            "-1",
            "-9,500",
            "1e308",
            "1e-300",
            "nan",
            "inf",
            "1,5",
            "9,5",
            "3,200",
            "1.234,5",
            "64,000,000",
            "100.5",
            "1000000",
            "",
            "n/a",
            "fast",
            "\x1b[2J",
            "１２",
            "0x10",
            "1e400",
        ]
    ),
    st.floats(allow_nan=True, allow_infinity=True).map(lambda f: f"{f:g}"),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=8),
)
UNITS = st.sampled_from(
    [
        "",
        "%",
        "byte",
        "Mbyte",
        "Pbyte",
        "ns",
        "usecond",
        "Ghz",
        "inst",
        "Pinst",
        "parsecs",
        "byte/s",
        "cycle",
    ]
)


def _finite_or_none(value) -> bool:
    return value is None or (isinstance(value, (int, float)) and math.isfinite(value))


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    changes=st.lists(
        st.tuples(st.integers(2, len(ROWS) - 1), st.sampled_from(METRICS), CELLS), max_size=6
    ),
    units=st.lists(st.tuples(st.sampled_from(METRICS), UNITS), max_size=2),
    cut=st.sampled_from([0, 0, 0, 0, 0, 1, 3]),
)
def test_random_cells_never_make_an_impossible_figure(
    tmp_path_factory, capsys, changes, units, cut
):
    rows = [list(r) for r in ROWS]
    for row, column, cell in changes:
        rows[row][column] = cell
    for column, unit in units:
        rows[1][column] = unit
    if cut:
        rows[-1] = rows[-1][: len(rows[-1]) - cut]
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    path = tmp_path_factory.mktemp("ncu") / "r.csv"
    path.write_text(out.getvalue())
    code = main(["ncu", str(path), "--json"])
    result = capsys.readouterr()
    if code != 0:
        assert code == 2 and result.err.startswith("drill: error: ")
        assert result.err.count("\n") == 1 and "Traceback" not in result.err
        return
    data = json.loads(result.out)
    for k in data["kernels"]:
        for key in (
            "duration_s",
            "dram_bytes",
            "flops",
            "achieved_flops",
            "achieved_bandwidth",
            "intensity",
            "efficiency",
        ):
            assert _finite_or_none(k[key]), (key, k[key])
            assert k[key] is None or k[key] >= 0, (key, k[key])
        for key in ("compute_pct", "memory_pct"):
            pct = k["sol"][key]
            assert pct is None or 0 <= pct <= 101 or k["sol"]["from_report"] is False, (key, pct)
        assert k["bound"] in (None, "memory", "compute", "latency")
        if k["efficiency"] is not None and k["efficiency"] > 1.02:
            assert k["above_roof"], k
