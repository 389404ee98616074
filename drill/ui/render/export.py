"""Saving what a command shows: SVG and text through rich's recording console, CSV for the
roofline's data.

The renderables are printed once more into a console that records (``Console(record=True)``)
and rich writes them out (``save_svg`` / ``export_text``), so a file holds what the terminal
shows. Every file is written whole or not at all (a temporary file renamed over the target),
and an existing file is replaced only with ``--force``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from drill.config.files import is_stream, write_atomic
from drill.errors import UsageError

if TYPE_CHECKING:
    from rich.console import RenderableType

EXPORT_WIDTH = 100


class Exporter:
    """The ``--svg``/``--txt``/``--csv`` targets of one command, checked before any work."""

    def __init__(
        self,
        svg: str | None = None,
        txt: str | None = None,
        csv_file: str | None = None,
        force: bool = False,
    ) -> None:
        self.svg = output_target(svg, force, "--svg")
        self.txt = output_target(txt, force, "--txt")
        self.csv = output_target(csv_file, force, "--csv")
        self.written: list[Path] = []

    @classmethod
    def of(cls, args) -> Exporter:
        """The targets named on a command line (the flags drill.cli.flags.export_flags adds)."""
        return cls(
            getattr(args, "svg", None),
            getattr(args, "txt", None),
            getattr(args, "csv", None),
            bool(getattr(args, "force", False)),
        )

    @property
    def wanted(self) -> bool:
        return bool(self.svg or self.txt)

    def save(self, renderables: Iterable[RenderableType], title: str, width: int = 0) -> None:
        """Print ``renderables`` into a recording console and write the SVG and text files."""
        if not self.wanted:
            return
        from rich.console import Console  # ~50 ms; only an export needs it here

        console = Console(
            record=True,
            file=io.StringIO(),
            width=width or EXPORT_WIDTH,
            force_terminal=True,
            color_system="truecolor",
            highlight=False,
        )
        for renderable in renderables:
            console.print(renderable)
        self.save_recorded(console, title)

    def save_recorded(self, console, title: str) -> None:
        """Write what a ``Console(record=True)`` has shown so far."""
        if self.svg:
            write_file(self.svg, console.export_svg(title=title, clear=False))
            self.written.append(self.svg)
        if self.txt:
            write_file(self.txt, console.export_text(clear=False))
            self.written.append(self.txt)

    def report(self, lang: str) -> None:
        """One line per file written, on standard error (standard output stays the view)."""
        import sys

        from drill.i18n import tr

        for path in self.written:
            print(tr("export-wrote", lang, file=path), file=sys.stderr)

    def save_csv(self, rows: list[list]) -> None:
        if self.csv is None:
            return
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        write_file(self.csv, buffer.getvalue())
        self.written.append(self.csv)


def output_target(name: str | None, force: bool, flag: str = "") -> Path | None:
    """Where an export may go, checked before any work: an existing file or link only with
    ``--force``; a device or a pipe (``/dev/stdout``, a FIFO) always, as it is written into."""
    if not name:
        return None
    path = Path(name).expanduser()
    where = f"{flag} {name}" if flag else name
    if path.is_dir():
        raise UsageError(f"{where}: is a folder; give a file name")
    if not path.parent.is_dir():
        raise UsageError(f"{where}: the folder {path.parent} does not exist")
    if (path.exists() or path.is_symlink()) and not force and not is_stream(path):
        raise UsageError(f"{where}: the file exists; add --force to replace it")
    return path


def write_file(target: Path, text: str) -> None:
    """The whole file or nothing (drill.config.files.write_atomic), a failure in one line."""
    existed = target.is_file() and not is_stream(target)
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as exc:
        kept = "; the file there was left as it was" if existed else ""
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}{kept}") from None


def roofline_rows(figure) -> list[list]:
    """A figure's data for re-plotting: each roof (peak, bandwidth, ridge) and each point.
    Base units: FLOP/s, B/s, FLOP/B."""
    rows: list[list] = [
        ["kind", "label", "intensity_flop_per_b", "flops_per_s", "bandwidth_b_per_s"]
    ]
    for roof in figure.roofs:
        rows.append(
            ["roof", roof.label, "", f"{float(roof.peak):.10g}", f"{float(roof.bandwidth):.10g}"]
        )
    for roof in figure.roofs:
        rows.append(
            ["ridge", roof.label, f"{float(roof.ridge):.10g}", f"{float(roof.peak):.10g}", ""]
        )
    for point in figure.points:
        rows.append(
            [
                "point",
                point.label,
                f"{float(point.intensity):.10g}",
                f"{float(point.rate):.10g}",
                "",
            ]
        )
    return rows


def mock_view(scorecard, catalog, lang: str, width: int = EXPORT_WIDTH) -> list:
    """The mock interview's scorecard and, below it, the case on its card's roofline (the
    true point and the candidate's answer), as the SVG and text exports show them."""
    from rich.text import Text

    from drill.ui.render.plot import Figure, Point, RoofLine, card_figure, render
    from drill.ui.render.plotpoints import plot_spec
    from drill.ui.render.scorecard import scorecard_view

    shown: list = [scorecard_view(scorecard, lang)]
    names = {"truth": "plot-on-roof", "measured": "plot-measured", "answer": "answer"}
    for item in scorecard.items:
        # the scorecard comes after the whole case: every step is answered
        spec = plot_spec(item.question, item.result if item.answered else None, complete=True)
        if spec is None:
            continue
        try:
            figure = card_figure(
                catalog.get(spec.gpu), spec.dtype, peak=spec.peak, bandwidth=spec.bandwidth
            )
        except LookupError:
            figure = Figure(spec.gpu, [RoofLine(spec.dtype, spec.peak, spec.bandwidth, True)])
        marks = {"truth": ("●", "green"), "measured": ("x", "red"), "answer": ("▲", "magenta")}
        for role, ai, rate in spec.points:
            from drill.i18n import tr

            figure.points.append(Point(tr(names[role], lang), ai, rate, *marks[role]))
        figure.lang = lang
        text = render(figure, width, 24, color=True)
        if text:
            shown.append(Text.from_ansi(text))
        break
    return shown
