"""Results you can share: SVG and text of what a command shows, and CSV of the roofline's
data."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest

from tests.helpers import run_drill


def svg_text(path) -> str:
    """Every text node of an SVG that an XML parser accepts (rich writes spaces as NBSP)."""
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return "".join(root.itertext()).replace("\xa0", " ")


def test_plot_writes_svg_text_and_csv(tmp_path):
    svg, txt, data = tmp_path / "out.svg", tmp_path / "out.txt", tmp_path / "out.csv"
    args = ("plot", "--gpu", "h100", "--dtype", "bf16", "--ai", "4", "--width", "90")
    result = run_drill(*args, "--svg", str(svg), "--txt", str(txt), "--csv", str(data))
    assert result.returncode == 0, result.stderr
    shown = svg_text(svg)
    for text in ("NVIDIA H100", "AI 4 on the roof", "ridge 295 FLOP/B"):
        assert text in shown, text
        assert text in txt.read_text(encoding="utf-8")
    rows = list(csv.DictReader(data.open(encoding="utf-8")))
    roofs = {r["label"]: r for r in rows if r["kind"] == "roof"}
    assert float(roofs["bf16"]["flops_per_s"]) == pytest.approx(989.4e12)
    assert float(roofs["bf16"]["bandwidth_b_per_s"]) == pytest.approx(3.352e12)
    ridge = next(r for r in rows if r["kind"] == "ridge" and r["label"] == "bf16")
    assert float(ridge["intensity_flop_per_b"]) == pytest.approx(989.4e12 / 3.352e12)
    (point,) = [r for r in rows if r["kind"] == "point"]
    assert float(point["intensity_flop_per_b"]) == 4
    assert float(point["flops_per_s"]) == pytest.approx(4 * 3.352e12)


def test_an_existing_file_is_kept_without_force(tmp_path):
    target = tmp_path / "out.svg"
    target.write_text("mine", encoding="utf-8")
    refused = run_drill("plot", "--gpu", "h100", "--svg", str(target))
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert target.read_text(encoding="utf-8") == "mine"
    forced = run_drill("plot", "--gpu", "h100", "--svg", str(target), "--force")
    assert forced.returncode == 0 and "NVIDIA H100" in svg_text(target)
    missing = run_drill("plot", "--gpu", "h100", "--svg", str(tmp_path / "no" / "x.svg"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_calc_plot_and_stats_export(tmp_path):
    svg, data = tmp_path / "calc.svg", tmp_path / "calc.csv"
    args = ("calc", "gemm", "--m", "4096", "--n", "4096", "--k", "4096", "--gpu", "a100")
    result = run_drill(*args, "--plot", "--svg", str(svg), "--csv", str(data))
    assert result.returncode == 0, result.stderr
    shown = svg_text(svg)
    assert "compute-bound" in shown and "A100" in shown
    assert any(r[0] == "point" for r in csv.reader(data.open(encoding="utf-8")))
    no_plot = run_drill(*args, "--csv", str(tmp_path / "x.csv"))
    assert no_plot.returncode == 2 and "--plot" in no_plot.stderr
    stats = tmp_path / "stats.txt"
    result = run_drill("stats", "--txt", str(stats))
    assert result.returncode == 0, result.stderr
    assert "Locked skills" in stats.read_text(encoding="utf-8")


def test_mock_scorecard_svg_and_the_report_links_it(tmp_path):
    svg, report = tmp_path / "mock.svg", tmp_path / "mock.md"
    result = run_drill(
        "mock", "--plain", "--seed", "3", "--svg", str(svg), "--report", str(report), input="1\n"
    )
    assert result.returncode == 0, result.stderr
    assert "Scorecard" in svg_text(svg)
    assert "![Scorecard and roofline](mock.svg)" in report.read_text(encoding="utf-8")
