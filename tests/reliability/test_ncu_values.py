"""`drill ncu` on values a profile cannot hold (reliability review D3, D8, D9, D12, D13): each
case is the review's file, rebuilt from the raw-page fixture by changing the cells it names."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from drill.cli.main import main

DATA = Path(__file__).resolve().parent.parent / "data" / "ncu"
RAW = DATA / "four-kernels-raw.csv"
GERMAN = DATA / "tiny-kernel-de-locale.csv"
FLOPS = (
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "sm__sass_thread_inst_executed_op_hmul_pred_on.sum",
)


def edited(tmp_path: Path, name: str, changes: dict, units: dict | None = None) -> str:
    """RAW with cells replaced: ``changes`` maps (launch ID, column) to the new cell."""
    lines = RAW.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    for (launch, column), cell in changes.items():
        row = next(r for r in rows[2:] if r[0] == launch)
        row[header.index(column)] = cell
    for column, unit in (units or {}).items():
        rows[1][header.index(column)] = unit
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    path = tmp_path / name
    path.write_text("\n".join(lines[:start]) + "\n" + out.getvalue())
    return str(path)


def ncu(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["ncu", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def kernel(data: dict, prefix: str) -> dict:
    return next(k for k in data["kernels"] if k["kernel"].startswith(prefix))


def test_a_copy_kernel_without_flops_is_memory_bound_not_a_crash(tmp_path, capsys):
    # D3: the copy kernel with every FLOP counter 0, as ncu reports any copy or memset
    path = edited(tmp_path, "zero.csv", {(i, c): "0" for i in ("0", "4") for c in FLOPS})
    for extra in ((), ("--json",), ("--plot",)):
        code, out, err = ncu(capsys, path, *extra)
        assert code == 0 and "Traceback" not in err, err
    data = json.loads(ncu(capsys, path, "--json")[1])
    copy = kernel(data, "scale_copy")
    assert copy["flops"] == 0 and copy["intensity"] == 0
    assert copy["efficiency"] is None and copy["roofline_bound"] == "memory"
    assert copy["bound"] == "memory"  # ncu's Memory Throughput 82.41 %


@pytest.mark.parametrize(
    "column,cell,unit",
    [
        ("dram__bytes_read.sum", "1e308", "Mbyte"),  # overflows to inf once scaled
        ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "1e300", "Pinst"),
    ],
    ids=["inf-bytes", "inf-inst"],
)
def test_a_value_that_overflows_once_scaled_is_refused(tmp_path, capsys, column, cell, unit):
    path = edited(tmp_path, "inf.csv", {("1", column): cell}, {column: unit})
    code, _, err = ncu(capsys, path)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "not finite" in err and column in err


def test_inf_flops_from_a_doubled_fma_count_is_refused(tmp_path, capsys):
    column = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum"
    path = edited(tmp_path, "inf-flops.csv", {("1", column): "1e308"})
    code, out, err = ncu(capsys, path, "--json")
    if code == 0:  # read: 2·1e308 must not come out as inf FLOP/s or a compute verdict on it
        data = json.loads(out)
        sgemm = kernel(data, "void sgemm")
        assert sgemm["flops"] is None or sgemm["flops"] < 1e309
        assert sgemm["achieved_flops"] is None
    else:
        assert code == 2 and "Traceback" not in err


def test_negative_duration_and_counters_are_named_and_left_out(tmp_path, capsys):
    # D8: a duration of -9,500 µs and a negative FFMA count
    path = edited(
        tmp_path,
        "neg.csv",
        {
            ("1", "gpu__time_duration.sum"): "-9,500",
            ("1", "dram__bytes_read.sum"): "-160",
        },
    )
    code, out, err = ncu(capsys, path)
    assert code == 0, err
    out = " ".join(out.split())  # the lines are wrapped to the terminal
    assert "-9,500 usecond is negative; duration left out" in out
    assert "-160 Mbyte is negative; dram left out" in out
    shown = out[out.index("Kernel 1") :]  # the file's temporary folder may hold "-14"
    assert "-9.5 ms" not in shown and "-14" not in shown
    data = json.loads(ncu(capsys, path, "--json")[1])
    sgemm = kernel(data, "void sgemm")
    assert sgemm["duration_s"] is None and sgemm["dram_bytes"] is None
    assert sgemm["achieved_flops"] is None and sgemm["intensity"] is None
    assert len(sgemm["problems"]) == 2


def test_a_percentage_above_100_is_left_out(tmp_path, capsys):
    column = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
    path = edited(tmp_path, "pct.csv", {("1", column): "1000000"})
    code, out, err = ncu(capsys, path)
    assert code == 0, err
    out = " ".join(out.split())  # the lines are wrapped to the terminal
    assert "1000000 % is above 100 %" in out and "1000000 %," not in out.split("Left out")[0]
    data = json.loads(ncu(capsys, path, "--json")[1])
    sgemm = kernel(data, "void sgemm")
    assert sgemm["sol"]["compute_pct"] < 100  # derived from FLOP/s instead


def test_an_mma_count_past_the_roof_is_flagged(tmp_path, capsys):
    # D8: a huge MMA count: FLOP/s far above the card's peak is flagged, never a plain result
    path = edited(tmp_path, "mma.csv", {("2", "sm__inst_executed_pipe_tensor_op_hmma.sum"): "1e15"})
    code, out, err = ncu(capsys, path)
    assert code == 0, err
    assert "Above the card's roof (FLOP/s)" in out
    data = json.loads(ncu(capsys, path, "--json")[1])
    assert kernel(data, "ampere_h16816gemm")["above_roof"] == ["flops"]


def test_a_tiny_launch_above_the_bandwidth_roof_is_flagged(tmp_path, capsys):
    path = edited(tmp_path, "tiny.csv", {("3", "gpu__time_duration.sum"): "0.0000001"})
    code, out, err = ncu(capsys, path)
    assert code == 0, err
    assert "Above the card's roof (FLOP/s, DRAM B/s)" in out or "(DRAM B/s)" in out


def three_decimals(text: str) -> str:
    """Every decimal of the German-locale fixture written with three digits (3,20 → 3,200),
    as a German ncu prints the same numbers at another precision."""
    cells = {c for row in csv.reader(text.splitlines()) for c in row if "," in c}
    for cell in cells:
        head, _, tail = cell.partition(",")
        if head.isdigit() and tail.isdigit() and len(tail) < 3:
            text = text.replace(f'"{cell}"', f'"{head},{(tail + "000")[:3]}"')
    return text


def test_german_decimals_with_three_digits_are_read_by_the_percentages(tmp_path, capsys):
    # D8: only the decimal comma keeps the SOL percentages (1,230 %) under 100 %, so that
    # reading is taken; the duration stays 3.2 µs, not 3.2 ms
    text = GERMAN.read_text()
    path = tmp_path / "de3.csv"
    path.write_text(three_decimals(text))
    assert path.read_text() != text and '"3,200"' in path.read_text()
    data = json.loads(ncu(capsys, str(path), "--json")[1])
    tiny = data["kernels"][0]
    assert tiny["duration_s"] == pytest.approx(3.2e-6)
    assert tiny["bound"] == "latency"


def test_a_file_whose_decimal_mark_cannot_be_told_is_refused(tmp_path, capsys):
    # the same file with no percentage left to decide it: refused, with the way out
    only = three_decimals(GERMAN.read_text()).replace('"%"', '"inst"')
    path = tmp_path / "unclear.csv"
    path.write_text(only)
    code, _, err = ncu(capsys, str(path))
    assert code == 2 and err.count("\n") == 1
    assert "cannot tell the decimal mark" in err and "LC_ALL=C" in err


def test_one_decimal_comma_among_thousands_separators_names_both_cells(tmp_path, capsys):
    # D13: '9,5' used to switch the file to decimal commas and blame '64,000,000'
    path = edited(tmp_path, "mixed.csv", {("1", "gpu__time_duration.sum"): "9,5"})
    code, _, err = ncu(capsys, path)
    assert code == 2 and "'9,5'" in err and "mix two formats" in err
    assert "is not a number" not in err


def test_a_duplicated_column_is_refused(tmp_path, capsys):
    # D12: gpu__time_duration.sum twice; then a second Kernel Name column
    lines = RAW.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    for column in ("gpu__time_duration.sum", "Kernel Name"):
        at = rows[0].index(column)
        dup = [r + [r[at]] for r in rows]
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(dup)
        path = tmp_path / "dup.csv"
        path.write_text(out.getvalue())
        code, _, err = ncu(capsys, str(path))
        assert code == 2 and f"the column {column!r} appears twice" in err


def test_a_unit_drill_does_not_read_is_named_not_called_missing(tmp_path, capsys):
    # D13: a duration in 'parsecs' was reported as "collect gpu__time_duration.sum"
    path = edited(tmp_path, "unit.csv", {}, {"gpu__time_duration.sum": "parsecs"})
    code, out, err = ncu(capsys, path)
    assert code == 0, err
    assert "duration is in the report as 400 parsecs, a unit drill does not read" in out
    assert "No duration in this report" not in out


@pytest.mark.parametrize("flags", [["--mma", ""], ["--mma=-16x8x16"], ["--mma", "=16x8x8"]])
def test_an_empty_or_bad_mma_is_refused(capsys, flags):
    code, _, err = ncu(capsys, str(RAW), *flags)
    assert code == 2 and "--mma" in err and err.count("\n") == 1


def test_quiz_and_json_together_are_refused(capsys):
    code, _, err = ncu(capsys, str(RAW), "--quiz", "--json")
    assert code == 2 and "choose one" in err


def test_many_kernels_show_the_longest_and_count_the_rest(tmp_path, capsys):
    # D9: 3,000 distinct kernels; the text and the JSON hold the 20 longest, --all every one
    lines = RAW.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    body = rows[2]
    many = rows[:2]
    for n in range(3000):
        row = list(body)
        row[0], row[4] = str(n), f"k{n}(float *)"
        row[rows[0].index("gpu__time_duration.sum")] = str(n + 1)
        many.append(row)
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(many)
    path = tmp_path / "many.csv"
    path.write_text(out.getvalue())
    code, text, err = ncu(capsys, str(path))
    assert code == 0, err
    assert text.count("Kernel ") == 20 and "2980 more kernel(s) not shown" in text
    assert "--all shows every kernel" in text and "k2999(" in text and "k0(" not in text
    data = json.loads(ncu(capsys, str(path), "--json")[1])
    assert len(data["kernels"]) == 20 and data["kernels_total"] == 3000
    data = json.loads(ncu(capsys, str(path), "--json", "--all")[1])
    assert len(data["kernels"]) == 3000
