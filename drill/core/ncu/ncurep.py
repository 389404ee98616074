"""``.ncu-rep`` files through NVIDIA's ``ncu_report`` Python module, when it is importable.

The module ships with Nsight Compute (``extras/python``); it is an optional extra, never a
dependency. Without it, ``drill ncu`` says so and shows how to export a CSV instead.
"""

from __future__ import annotations

from drill.core.ncu.parse import Launch, Metric, Report, ReportError
from drill.core.ncu.values import scale

WITHOUT = (
    "reading .ncu-rep files needs NVIDIA's ncu_report module (Nsight Compute's "
    "extras/python on PYTHONPATH); or export a CSV: ncu --import FILE.ncu-rep --csv "
    "--page raw > report.csv"
)


def read_report(path: str) -> Report:
    try:
        import ncu_report  # type: ignore[import-not-found]  # optional, from Nsight Compute
    except ImportError:
        raise ReportError(WITHOUT) from None
    try:
        context = ncu_report.load_report(path)
    except Exception as exc:  # the module raises its own types
        raise ReportError(f"ncu_report cannot load it: {exc}") from None
    launches: list[Launch] = []
    for r in range(context.num_ranges()):
        rng = context.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            launch = Launch(str(len(launches)), action.name())
            for name in action.metric_names():
                metric = action.metric_by_name(name)
                unit = metric.unit() if hasattr(metric, "unit") else ""
                factor, base = scale(unit or "")
                where = f"launch {len(launches) + 1} ({name})"
                try:
                    raw = float(metric.as_double())
                    launch.metrics[name] = Metric(
                        raw * factor, base, where=where, cell=f"{raw:g} {unit or ''}".strip()
                    )
                except (TypeError, ValueError):
                    launch.metrics[name] = Metric(str(metric.as_string()), "")
            launches.append(launch)
    if not launches:
        raise ReportError("the report holds no kernel launches")
    return Report("ncu-rep", launches)
