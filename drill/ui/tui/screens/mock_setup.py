"""The mock interview's set-up from the home screen: how long, which case, which card, as
``drill mock --minutes --case --gpu`` would choose them. Enter in any list starts."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from drill.i18n import tr
from drill.runs.options import MockOptions

LENGTHS = (10, 20, 30, 45)
CASES = ("kernel", "serving", "random")
ANY_CARD = "any"


MARK, UNMARKED = "▸ ", "  "  # the entry each list holds, said in its text


def mock_cards(case: str = "kernel") -> list:
    """The cards ``drill mock --case CASE --gpu`` accepts, in catalog order: the serving case
    needs a node that holds its model."""
    from drill.content.catalog import load_catalog
    from drill.runs.factory import mock_can_serve, mock_can_use

    cards = [card for card in load_catalog() if mock_can_use(card)]
    return [card for card in cards if mock_can_serve(card)] if case == "serving" else cards


class MockSetupScreen(ModalScreen[MockOptions | None]):
    """Three lists side by side; ←/→ (or Tab) move between them, Enter starts."""

    BINDINGS = [
        Binding("escape,q", "close", "back", show=False),
        Binding("left", "app.focus_previous", "previous list", show=False),
        Binding("right", "app.focus_next", "next list", show=False),
    ]

    def _card_options(self, case: str) -> list[Option]:
        cards = [Option(tr("mock-any-card", self.app.lang), id=ANY_CARD)]
        return cards + [Option(c.name, id=c.id) for c in mock_cards(case)]

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        cards = self._card_options("kernel")
        with Vertical(id="mock-setup"):
            yield Static(Text(tr("mock-setup-title", lang), style="bold"))
            with Horizontal(id="mock-setup-lists"):
                with Vertical(classes="mock-setup-column"):
                    yield Static(tr("mock-setup-length", lang), classes="dim-hint")
                    yield OptionList(
                        *[
                            Option(tr("mock-length-option", lang, minutes=m), id=str(m))
                            for m in LENGTHS
                        ],
                        id="mock-lengths",
                    )
                with Vertical(classes="mock-setup-column"):
                    yield Static(tr("mock-setup-case", lang), classes="dim-hint")
                    yield OptionList(
                        *[Option(tr("mock-case-" + c, lang), id=c) for c in CASES],
                        id="mock-cases",
                    )
                with Vertical(classes="mock-setup-column", id="mock-card-column"):
                    yield Static(tr("mock-setup-card", lang), classes="dim-hint")
                    yield OptionList(*cards, id="mock-cards")
            yield Static(tr("mock-length-hint", lang), classes="dim-hint")

    def on_mount(self) -> None:
        for ident, index in (("#mock-lengths", LENGTHS.index(30)), ("#mock-cases", 0)):
            self.query_one(ident, OptionList).highlighted = index
        self.query_one("#mock-cards", OptionList).highlighted = 0
        self.query_one("#mock-lengths", OptionList).focus()

    def chosen(self) -> MockOptions:
        """The options ``MockScreen`` takes, from each list's highlighted entry."""

        def pick(ident: str) -> str:
            options = self.query_one(ident, OptionList)
            return options.get_option_at_index(options.highlighted or 0).id

        card = pick("#mock-cards")
        return MockOptions(
            minutes=float(pick("#mock-lengths")),
            case=pick("#mock-cases"),
            gpu=None if card == ANY_CARD else card,
        )

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The choice of each list is marked in its text, not by colour alone: a list that
        has lost the focus still says which entry it holds."""
        options = event.option_list
        if options.id == "mock-cases":
            self._offer_cards(options.get_option_at_index(event.option_index).id or "kernel")
        for index in range(options.option_count):
            text = str(options.get_option_at_index(index).prompt).removeprefix(MARK)
            text = text.removeprefix(UNMARKED)
            mark = MARK if index == event.option_index else UNMARKED
            options.replace_option_prompt_at_index(index, mark + text)

    def _offer_cards(self, case: str) -> None:
        """The card list for ``case``; the card chosen stays chosen when the case takes it."""
        cards = self.query_one("#mock-cards", OptionList)
        held = cards.get_option_at_index(cards.highlighted or 0).id if cards.option_count else None
        offered = self._card_options(case)
        if [o.id for o in offered] == [
            cards.get_option_at_index(i).id for i in range(cards.option_count)
        ]:
            return
        cards.clear_options()
        cards.add_options(offered)
        ids = [o.id for o in offered]
        cards.highlighted = ids.index(held) if held in ids else 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.chosen())

    def action_close(self) -> None:
        self.dismiss(None)
