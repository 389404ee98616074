"""The GPU catalog: a sortable table; a card opens with its details, sources and roofline."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from drill.core.units import sig
from drill.i18n import tr
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.plot import PlotView

COLUMNS = ("id", "GiB", "TB/s", "fp32", "tf32", "fp16", "fp8", "int8", "ridge fp16")


MISSING = "—"  # as the CLI shows a precision the card lacks


def column_label(name: str, lang: str, arrow: str = "") -> str:
    """The header shown for a column (only the ridge's is a word; the hint line says it is
    fp16's), with the sort arrow."""
    label = tr("catalog-ridge", lang) if name == "ridge fp16" else name
    return f"{label} {arrow}" if arrow else label


def figure(value: float | None) -> str:
    """3-4 significant figures (1.555, 208.3, 75.9), or a dash for a missing value."""
    return MISSING if value is None or value <= 0 else sig(value, 4)


def row(card) -> tuple:
    def peak(dtype: str):
        return figure(card.peak(dtype).value / 1e12) if dtype in card.dtypes() else MISSING

    ridges = card.ridges()
    return (
        card.id,
        figure(card.capacity_gib),
        figure(card.bandwidth / 1e12),
        peak("fp32"),
        peak("tf32"),
        peak("fp16"),
        peak("fp8"),
        peak("int8"),
        figure(ridges.get("fp16")),
    )


def sort_key(value):
    """Numbers sort as numbers, a dash below every number, ids as text."""
    try:
        return (1, float(value))
    except ValueError:
        return (0, 0.0) if value == MISSING else (2, str(value))


class CatalogScreen(DrillScreen):
    BINDINGS = [
        # before the table's own Enter, so the bar can offer it
        Binding("enter", "open", "open", key_display="Enter", priority=True),
        *(
            Binding(str(i + 1), f"sort({i})", "sort", key_display="1-9")
            for i, _ in enumerate(COLUMNS)
        ),
        Binding("escape,q", "back", "back", key_display="Esc"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sorted_by: tuple[int, bool] = (0, False)  # by id, A to Z
        self.rows: list[tuple] = []

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        hint = f"{tr('catalog-hint', lang)}\n{tr('catalog-units', lang)}"
        yield Static(hint, id="catalog-hint")
        yield DataTable(id="catalog", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        self.rows = [row(card) for card in self.app.catalog]
        self._fill()
        self.query_one(DataTable).focus()

    def action_sort(self, index: int) -> None:
        column, reverse = self.sorted_by
        reverse = not reverse if column == index else index != 0
        self.sorted_by = (index, reverse)
        self._fill()

    def _fill(self) -> None:
        """The rows in the sorted order, under headers with the arrow on the sorted column.
        The table is refilled rather than re-sorted: a column sizes itself to its header
        when added, and a header that grew an arrow later was cut to the old width."""
        table = self.query_one(DataTable)
        index, reverse = self.sorted_by
        rows = sorted(self.rows, key=lambda cells: sort_key(cells[index]), reverse=reverse)
        table.clear(columns=True)
        for i, name in enumerate(COLUMNS):
            arrow = ("▼" if reverse else "▲") if i == index else ""
            table.add_column(column_label(name, self.app.lang, arrow), key=str(i))
        for cells in rows:
            table.add_row(*cells, key=cells[0])  # the cursor starts on the new order's first

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        self.action_sort(int(event.column_key.value))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.app.push_screen(CardScreen(event.row_key.value))

    def action_open(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            table.action_select_cursor()  # as the table's own Enter: RowSelected opens it

    def action_back(self) -> None:
        self.app.pop_screen()


class CardScreen(DrillScreen):
    BINDINGS = [
        Binding("d", "next_dtype", "dtype", key_display="d"),
        Binding("escape,q", "back", "back", key_display="Esc"),
    ]

    def __init__(self, card_id: str) -> None:
        super().__init__()
        self.card = None
        self.card_id = card_id
        self.dtype = "fp16"

    def compose(self) -> ComposeResult:
        from drill.ui.render.cards import card_panel

        self.card = self.app.catalog.get(self.card_id)
        if self.dtype not in self.card.dtypes():
            self.dtype = self.card.dtypes()[0]
        with VerticalScroll(id="card-body"):
            yield Static(self._title(), id="card-title")
            yield PlotView(id="card-plot")
            yield Static(card_panel(self.card, self.app.lang), id="card-panel")
        yield KeyBar()

    def on_mount(self) -> None:
        self._plot()
        self.query_one("#card-body").focus()  # arrows and PageDown scroll at once

    def _title(self) -> str:
        return tr(
            "card-title",
            self.app.lang,
            name=self.card.name,
            dtype=self.dtype,
            ridge=sig(self.card.ridges()[self.dtype], 4),
        )

    def _plot(self) -> None:
        from drill.ui.render.plot import card_figure

        self.query_one("#card-title", Static).update(self._title())
        figure = card_figure(self.card, self.dtype)
        figure.lang = self.app.lang
        self.query_one("#card-plot", PlotView).show(figure)

    def action_next_dtype(self) -> None:
        dtypes = self.card.dtypes()
        self.dtype = dtypes[(dtypes.index(self.dtype) + 1) % len(dtypes)]
        self._plot()

    def action_back(self) -> None:
        self.app.pop_screen()
