"""The calculator: card, precision, operator and shape in; analysis and roofline update live."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Label, OptionList, Select, Static

from drill.core.engine.calc_ops import OPERATORS
from drill.i18n import tr
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.paging import page
from drill.ui.tui.widgets.plot import PlotView
from drill.ui.tui.widgets.prose import Prose

# Example values the form opens with (the operators' own defaults fill the rest): a Mistral-7B
# shaped decoder for decode, 32 layers, 32 query heads sharing 8 KV heads of 128.
EXAMPLE = {
    "m": "4096",
    "n": "4096",
    "k": "4096",
    "heads": "32",
    "seq": "4096",
    "params": "7B",
    "tokens": "2048",
    "rows": "4096",
    "cols": "4096",
    "in_channels": "64",
    "height": "56",
    "width": "56",
    "out_channels": "64",
    "context": "4096",
    "layers": "32",
    "kv_heads": "8",
    "head_dim": "128",
}


NARROW = 100  # under this many columns the form stacks above the results


class CalculatorScreen(DrillScreen):
    BINDINGS = [
        # before the form's own scrolling: PageUp moves the results from any field
        Binding("pageup", "scroll_page(-1)", "scroll", key_display="PgUp/PgDn", priority=True),
        Binding("pagedown", "scroll_page(1)", "scroll", key_display="PgUp/PgDn", priority=True),
        Binding("escape", "back", "back", key_display="Esc"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.op = "gemm"  # the operator chosen
        self.shown_op: str | None = None  # the operator whose fields are mounted
        self.kept: dict = {}  # the card, precision, operator and fields it was left with

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        catalog = self.app.catalog
        default = (
            catalog.get(self.app.settings.gpu).id
            if self.app.settings.gpu in catalog.aliases or self.app.settings.gpu in catalog.cards
            else "a100-sxm4-40gb"
        )
        self.kept = dict(self.app.calculator_last)
        if self.kept.get("card") in catalog.cards and self.kept.get("op") in OPERATORS:
            default, self.op = self.kept["card"], self.kept["op"]
        dtypes = catalog.get(default).dtypes()
        dtype = self.kept.get("dtype") if self.kept.get("dtype") in dtypes else "fp16"
        dtype = dtype if dtype in dtypes else dtypes[0]
        yield Static(Text(tr("calc-title", lang), style="bold"), id="calc-title")
        yield Prose("", id="calc-verdict")  # stacked, the results are below the fold
        with Container(id="calc"):
            with VerticalScroll(id="calc-form"):
                yield Label(tr("calc-card", lang), classes="calc-label")
                yield Select(
                    [(c.id, c.id) for c in catalog],
                    value=default,
                    allow_blank=False,
                    id="calc-card",
                )
                yield Label(tr("calc-dtype", lang), classes="calc-label")
                yield Select(
                    [(d, d) for d in dtypes],
                    value=dtype,
                    allow_blank=False,
                    id="calc-dtype",
                )
                yield Label(tr("calc-op", lang), classes="calc-label")
                yield Select(
                    [(f"{s.name} — {s.label(lang)}", s.name) for s in OPERATORS.values()],
                    value=self.op,
                    allow_blank=False,
                    id="calc-op",
                )
                yield Vertical(id="calc-params")
                yield Label(tr("calc-measured", lang), classes="calc-label")
                yield Input(placeholder=tr("calc-measured-placeholder", lang), id="calc-measured")
            with VerticalScroll(id="calc-out"):
                yield Static("", id="calc-result")
                yield PlotView(id="calc-plot")
        yield KeyBar()

    async def on_mount(self) -> None:
        # Tab goes round the fields only: a scroll area with the focus would take what is
        # typed and show nothing (PageUp / PageDown scroll the results from any field)
        for area in self.query(VerticalScroll):
            area.can_focus = False
        self._layout()
        await self._build_params()
        self.query_one("#calc-op", Select).focus()

    def on_resize(self) -> None:
        self._layout()

    def _layout(self) -> None:
        """Side by side from 100 columns; the form above the results below that."""
        stacked = self.app.size.width < NARROW
        self.query_one("#calc").set_class(stacked, "-stacked")
        self.query_one("#calc-verdict").display = stacked

    async def _build_params(self) -> None:
        """The operator's fields. The old ones are removed, and the removal awaited, before
        the new are mounted: operators that share a parameter (gemm and gemv both have m)
        would otherwise collide on its id."""
        box = self.query_one("#calc-params", Vertical)
        self.shown_op = None
        await box.remove_children()
        lang = self.app.lang
        widgets = []
        for param in OPERATORS[self.op].params:
            # the label wraps over as many lines as it needs; the field comes below it
            widgets.append(Label(f"{param.flags[0]}  {param.label(lang)}", classes="calc-label"))
            if param.kind == "flag":
                widgets.append(Checkbox(param.flags[0], id=self._field(param.name)))
            else:
                value = EXAMPLE.get(
                    param.name, "" if param.default is None else f"{param.default:g}"
                )
                if self.kept.get("op") == self.op:  # as the user left it
                    value = self.kept.get("fields", {}).get(param.name, value)
                widgets.append(Input(value=value, id=self._field(param.name)))
        await box.mount_all(widgets)
        self.shown_op = self.op
        self.recalc()

    @staticmethod
    def _field(name: str) -> str:
        return f"p-{name}"

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focused field's label is marked (a bar and bold), not only its colour."""
        for label in self.query(".calc-label.-focus"):
            label.remove_class("-focus")
        label = self._label_of(event.widget)
        if label is not None:
            label.add_class("-focus")

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        label = self._label_of(event.widget)
        if label is not None:
            label.remove_class("-focus")

    @staticmethod
    def _label_of(widget) -> Label | None:
        """A form field's label: the Label just before it in its container."""
        parent = widget.parent
        if parent is None or parent.id not in ("calc-form", "calc-params"):
            return None
        siblings = list(parent.children)
        index = siblings.index(widget)
        before = siblings[index - 1] if index else None
        return before if isinstance(before, Label) else None

    @on(Select.Changed, "#calc-op")
    async def op_changed(self, event: Select.Changed) -> None:
        if event.value != self.op:
            self.op = str(event.value)
            await self._build_params()

    @on(Select.Changed, "#calc-card")
    def card_changed(self, event: Select.Changed) -> None:
        card = self.app.catalog.get(str(event.value))
        dtype_select = self.query_one("#calc-dtype", Select)
        current = dtype_select.value
        dtypes = card.dtypes()
        dtype_select.set_options([(d, d) for d in dtypes])
        dtype_select.value = current if current in dtypes else dtypes[0]
        self.recalc()

    @on(Select.Changed, "#calc-dtype")
    @on(Input.Changed)
    @on(Checkbox.Changed)
    def changed(self) -> None:
        self.recalc()

    def values(self) -> dict:
        """The typed parameters, parsed; raises ValueError with a message for the user."""
        from drill.core.units import UnitError, parse_count, parse_number

        values = {}
        for param in OPERATORS[self.op].params:
            widgets = self.query(f"#{self._field(param.name)}")
            if not widgets:
                continue
            widget = widgets.first()
            if param.kind == "flag":
                values[param.name] = bool(widget.value)
                continue
            text = widget.value.strip()
            if not text and param.default is None:
                what = param.label(self.app.lang)
                raise ValueError(tr("calc-needs", self.app.lang, flag=param.flags[0], what=what))
            if not text:
                values[param.name] = None
                continue
            try:
                values[param.name] = (
                    parse_count(text) if param.kind == "count" else parse_number(text)
                )
            except UnitError:
                flag = param.flags[0]
                raise ValueError(
                    tr("calc-not-number", self.app.lang, flag=flag, text=text[:40])
                ) from None
        return values

    def recalc(self) -> None:
        from drill.core.engine import ShapeError, analyze
        from drill.core.engine.calc_ops import check_values
        from drill.core.units import FLOP_RATE, UnitError, parse_rate
        from drill.ui.render.calc_plot import operator_figure
        from drill.ui.render.tables import steps_table, verdict

        out = self.query_one("#calc-result", Static)
        plot = self.query_one("#calc-plot", PlotView)
        lang = self.app.lang
        try:
            card = self.app.catalog.get(str(self.query_one("#calc-card", Select).value))
            dtype = str(self.query_one("#calc-dtype", Select).value)
            spec = OPERATORS[self.op]
            values = check_values(spec, self.values())
            measured_text = self.query_one("#calc-measured", Input).value.strip()
            measured = parse_rate(measured_text, FLOP_RATE) if measured_text else None
            peak = card.op_peak(dtype, self.op)
            analysis = analyze(
                spec.cost(values, dtype),
                peak.value,
                card.bandwidth,
                dtype,
                measured,
                card.id,
                peak.path,
            )
        except (ValueError, ShapeError, UnitError, LookupError) as exc:
            out.update(Text(str(exc), style="bold yellow"))
            self.query_one("#calc-verdict", Prose).show(Text(str(exc), style="bold yellow"))
            plot.show(None)
            return
        table = steps_table(analysis.steps, lang, breakable=True)
        roof = Text(roof_line(card, dtype, self.op, peak, lang), style="dim")
        out.update(Group(roof, table, verdict(analysis, lang)))
        self.query_one("#calc-verdict", Prose).show(verdict(analysis, lang))
        plot.show(operator_figure(analysis, card, lang))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        # an open list of choices pages through its choices
        return action != "scroll_page" or not isinstance(self.focused, OptionList)

    def action_scroll_page(self, pages: int) -> None:
        """PageUp / PageDown move through the results (or, stacked, the whole page)."""
        stacked = self.query_one("#calc").has_class("-stacked")
        page(self.query_one("#calc" if stacked else "#calc-out"), pages)

    def action_back(self) -> None:
        fields = {
            p.name: w.value
            for p in OPERATORS[self.op].params
            if p.kind != "flag"
            for w in self.query(f"#{self._field(p.name)}")
        }
        self.app.calculator_last = {
            "card": str(self.query_one("#calc-card", Select).value),
            "dtype": str(self.query_one("#calc-dtype", Select).value),
            "op": self.op,
            "fields": fields,
        }
        self.app.pop_screen()


def roof_line(card, dtype: str, op: str, peak, lang: str) -> str:
    """Which roof the result is worked against, as the CLI's header says it: a GEMV or an
    element-wise kernel runs on the non-tensor units even where the precision has tensor
    cores, and the line says so."""
    from drill.content.skills.context import unit_words
    from drill.core.units import format_si, math_units

    w = unit_words(card)
    zh = lang == "zh"
    tensor = peak.path.startswith("tensor")
    units = (w.matrix_zh if zh else w.matrix) if tensor else (w.cores_zh if zh else w.cores)
    line = tr(
        "calc-roof",
        lang,
        dtype=dtype,
        units=units,
        path=peak.path,
        peak=format_si(peak.value, math_units(dtype)[0]),
        bw=format_si(card.bandwidth, "B/s"),
    )
    if not tensor and card.peak(dtype).path.startswith("tensor"):
        line += tr(
            "calc-roof-vector", lang, op=op, units=units, matrix=w.matrix_zh if zh else w.matrix
        )
    return line
