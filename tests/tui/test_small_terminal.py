"""80×24 first: the answer box shows when a long question opens, F3 goes to a plot below the
fold, hints pile up as a ladder, the key bar is never cut, and a case counts as one question."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from drill.i18n import tr
from drill.runs.options import PracticeOptions
from drill.ui.tui.app import make_app
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.paging import in_view, region_in
from tests.tui.conftest import screen_text
from tests.tui.helpers import frozen, settle, text_of, type_answer, until, wait_for_question

CASE = PracticeOptions(skills=("roofline-case",), seed=12, count=1, topic="numeric")
SIZE = (80, 24)


async def skip_to_step(pilot, screen, part: int) -> None:
    while screen.session.current.part < part:
        await pilot.press("f2")
        await until(pilot, lambda: screen.feedback_for is not None, "feedback")
        await pilot.press("enter")
        await until(pilot, lambda: screen.feedback_for is None, "the next step")
    await settle(pilot)


async def test_the_direction_steps_answer_box_shows_when_it_opens(drill_home):
    app = make_app(lang="en", start=CASE, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await skip_to_step(pilot, screen, 6)
        assert screen.session.current.ask.key == "direction"
        body, row = screen.query_one("#practice-body"), screen.query_one("#answer-row")
        assert body.max_scroll_y > 0  # the question is taller than the screen
        assert in_view(body, row)
        assert "Answer" in screen_text(app)
        assert text_of(app, "#progress").startswith("Question 1 of 1 · step 6 of 6")
        # The question above is a PageUp away, typing or not, and the bar says so.
        box = screen.query_one("#answer", Input)
        assert box.has_focus and body.scroll_y > 0
        assert "PgUp/PgDn" in screen_text(app).splitlines()[-1]
        await pilot.press("pageup")
        await pilot.pause()
        assert body.scroll_y == 0 and box.has_focus and box.value == ""
        await pilot.press("a")  # typing brings the box back: nothing is typed unseen
        await settle(pilot)
        assert box.value == "a" and in_view(body, row)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_long_list_of_choices_goes_into_columns_so_the_question_shows_whole(
    drill_home, lang
):
    """The 11 directions one per line push the box off an 80×24 screen; in columns of their
    short names the kernel's description, every choice and the box show together."""
    start = PracticeOptions(skills=("direction",), seed=3, difficulty=2, count=1)
    app = make_app(lang=lang, start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await settle(pilot)
        body, row = screen.query_one("#practice-body"), screen.query_one("#answer-row")
        question = screen.session.current
        assert question.ask.key == "direction" and len(question.ask.options) == 11
        # the columns are fitted after a refresh: under load the first frames may not have them
        await until(pilot, lambda: body.scroll_y == 0 and in_view(body, row), "columns fitted")
        shown = screen_text(app)
        first_words = question.scenario.intro(lang).split()[0]
        assert first_words in shown
        assert all(f"{o.id}) {o.short(lang)}" in shown for o in question.ask.options)


async def test_f3_goes_to_a_plot_below_the_fold_and_then_hides_it(drill_home):
    app = make_app(lang="en", start=CASE, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await type_answer(pilot, "4")
        await settle(pilot)
        body, plot = screen.query_one("#practice-body"), screen.query_one("#plot")
        assert plot.display and not in_view(body, plot)
        await pilot.press("f3")
        await settle(pilot)
        assert screen.show_plot and in_view(body, plot)
        assert "arithmetic intensity (FLOP/B)" in screen_text(app)
        await pilot.press("f3")  # on screen now: F3 hides it
        await pilot.pause()
        assert not screen.show_plot


async def test_hints_pile_up_as_a_ladder(drill_home):
    app = make_app(lang="zh", start=CASE, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        ladder = screen.session.current.hints("zh")
        assert len(ladder) >= 2
        for _ in range(len(ladder) + 2):
            await pilot.press("f1")
            await pilot.pause()
        shown = text_of(app, "#message")
        for number, hint in enumerate(ladder, 1):
            assert f"提示 {number}/{len(ladder)}（−" in shown and hint in shown
        assert shown.count("没有更多提示了。") == 1
        assert shown.strip().endswith("没有更多提示了。")
        assert in_view(screen.query_one("#practice-body"), screen.query_one("#message"))
        assert screen.query_one("#answer", Input).value == ""
        await pilot.press("enter")  # a note goes under the hints paid for, never over them
        await pilot.pause()
        shown = text_of(app, "#message")
        assert all(hint in shown for hint in ladder) and "没有更多提示了。" in shown
        assert shown.strip().endswith(tr("type-an-answer", "zh")), shown


async def test_a_two_rung_ladder_counts_two_and_f1_leaves_with_the_last(drill_home):
    """A ridge question has the formula and the numbers: "Hint 1/2", "Hint 2/2", and "No
    more hints." under the last at once; F1 is off the bar from then on."""
    start = PracticeOptions(skills=("ridge-point",), seed=1, count=1, topic="numeric")
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        assert len(screen.session.current.hints("en")) == 2
        bar = screen.query_one(KeyBar)
        assert "hint" in bar.keys
        await pilot.press("f1")
        await pilot.pause()
        assert "Hint 1/2 (−15 %)" in text_of(app, "#message") and "hint" in bar.keys
        await pilot.press("f1")
        await pilot.pause()
        shown = text_of(app, "#message")
        assert "Hint 2/2 (−15 %)" in shown and shown.strip().endswith("No more hints.")
        assert "/3" not in shown and "hint" not in bar.keys


async def test_the_key_bar_is_never_cut_on_free_text_feedback(drill_home):
    for lang in ("en", "zh"):
        start = PracticeOptions(questions=("peak-flops-formula",), seed=1)
        app = make_app(lang=lang, start=start, clock=frozen)
        async with app.run_test(size=SIZE) as pilot:
            screen = await wait_for_question(pilot)
            await type_answer(pilot, "SMs times lanes times clock")
            await settle(pilot)
            bar = screen.query_one(KeyBar)
            last = screen_text(app).splitlines()[-1]
            assert "…" not in last
            assert bar.keys[:3] == ["next", "flip", "mark-both"]
            labels = [key for key, _ in bar.entries]
            shown = [key for key in labels if key in last]
            assert shown[:3] == ["Enter", "1-9", "r/w"]  # the most needed keys stay


def test_a_key_bar_drops_whole_keys_from_the_end_when_narrow():
    keys = [("Enter", "next"), ("1-9", "flip"), ("r/w", "mark-both"), ("F3", "plot")]
    keys += [("F4", "help"), ("Esc", "leave"), ("PgUp/PgDn", "scroll")]
    wide = KeyBar.render_keys(keys, "en", 200).plain
    narrow = KeyBar.render_keys(keys, "en", 50).plain
    assert "PgUp/PgDn" in wide and len(narrow) <= 50
    # tighter spacing before any key goes, but two cells between keys: never one phrase
    assert narrow.startswith("Enter next  1-9 flip  r/w mark all")
    assert "PgUp/PgDn" not in narrow and not narrow.endswith(("P", "Pg", " "))


async def test_each_case_step_opens_at_its_question_when_it_fits(drill_home):
    """The feedback scrolls the answer row to the top; the next step must open at its own
    question again, not keep that scroll (seed 3 at 80×24: an A10 GEMV)."""
    start = PracticeOptions(skills=("roofline-case",), seed=3, count=1, topic="numeric")
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        body, row = screen.query_one("#practice-body"), screen.query_one("#answer-row")
        await settle(pilot)
        assert body.scroll_y == 0  # the first step, card line and all
        for answer in ("0.5", "52", "a", "0.2", "50"):
            await type_answer(pilot, answer)
            await settle(pilot)
            await pilot.press("enter")
            await until(pilot, lambda: screen.feedback_for is None, "the next step")
            await settle(pilot)
            fits = region_in(body, row).bottom <= body.scrollable_content_region.height
            if fits:
                assert body.scroll_y == 0, screen.session.current.ask.key
            assert in_view(body, row)


async def test_the_summary_lists_each_cases_steps_under_its_name(drill_home):
    start = PracticeOptions(skills=("roofline-case",), seed=3, count=2, topic="numeric")
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await wait_for_question(pilot)
        names = []
        for _ in range(12):
            params = screen.session.current.scenario.params
            name = f"{app.catalog.get(params['gpu']).name} · {params['op']} · {params['dtype']}"
            names += [name] if name not in names else []
            await pilot.press("f2")  # skip every step
            await until(pilot, lambda: screen.feedback_for is not None, "feedback")
            await pilot.press("enter")
            await pilot.pause()
        await until(pilot, lambda: app.screen is not screen, "the summary")
        shown = text_of(app, "#summary")
    assert "2 questions in 12 steps" in shown and len(names) == 2, names
    lines = [line.strip("│ ") for line in shown.splitlines()]
    for name in names:  # each case's name, then its own six steps
        at = next((i for i, line in enumerate(lines) if line.startswith(name)), None)
        assert at is not None, (name, shown)
        steps = [line for line in lines[at + 1 : at + 7]]
        assert steps[0].startswith("1/6 arithmetic intensity"), lines
        assert steps[5].startswith("6/6 what to do next"), lines
    assert "one missed and then answered right on its retry is not listed" in " ".join(
        shown.split()
    )


def test_a_header_too_wide_drops_the_streak_then_the_clock():
    from rich.cells import cell_len

    from drill.ui.tui.screens.practice import fit_progress

    text = "Question 5 of 12 (2 retries) · step 1 of 6 · 01:44 · score 7.00 / 10 · streak 3"
    assert fit_progress(text, "01:44", 90) == text
    assert fit_progress(text, "01:44", 78) == text.rsplit(" · ", 1)[0]
    narrow = fit_progress(text, "01:44", 60)
    assert narrow == "Question 5 of 12 (2 retries) · step 1 of 6 · score 7.00 / 10"
    # with the short count the streak stays on an 80-column screen (76 cells of header)
    short = "5/12 (2 retries) · step 1 of 6 · 01:44 · score 7.00 / 10 · streak 3"
    assert fit_progress(text, "01:44", 76, short) == short
    assert fit_progress(text, "01:44", 90, short) == text
    # once short at a width, a header that would fit again (no score yet) keeps the form
    fresh = "Question 6 of 12 (2 retries) · 01:50 · streak 0"
    assert fit_progress(fresh, "01:50", 76, "6/12 (2 retries) · 01:50 · streak 0") == fresh
    assert fit_progress(fresh, "01:50", 76, "6/12 (2 retries) · 01:50 · streak 0", True) == (
        "6/12 (2 retries) · 01:50 · streak 0"
    )
    placement = (
        "第 4 题 / 共 33 题 · 第 2 组 / 共 11 组：算术强度 · 第 1 步 / 共 2 步 · 得分 1.00 / 1"
    )
    fitted = fit_progress(placement + " · 00:12 · 连续答对 1", "00:12", 60)
    assert cell_len(fitted) <= 60 and fitted.endswith("…")


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_question_without_a_card_says_why_it_has_no_plot(drill_home, lang):
    from drill.i18n import tr

    start = PracticeOptions(skills=("tile-l2-intensity",), seed=1, count=1)
    app = make_app(lang=lang, start=start, clock=frozen)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await wait_for_question(pilot)
        assert "plot" not in screen.keys_now()
        await type_answer(pilot, "1")
        await until(pilot, lambda: screen.feedback_for is not None, "the feedback")
        await settle(pilot)
        assert tr("no-plot-card", lang) in text_of(app, "#plot-note")


async def test_a_case_steps_feedback_shows_its_own_row_at_80x24(drill_home):
    """The worked solution of a later step lists its own rows; the rows of the steps before
    come in one line above them, so the row just answered is on screen."""
    app = make_app(lang="en", start=CASE, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await skip_to_step(pilot, screen, 5)
        assert screen.session.current.ask.key == "efficiency"
        await type_answer(pilot, "50%")
        await until(pilot, lambda: screen.feedback_for is not None, "the feedback")
        await settle(pilot)
        shown = screen_text(app)
        assert "From the steps before: FLOPs = " in shown
        assert "│ Efficiency" in shown and "│ Arithmetic" not in shown


async def test_a_long_free_answer_is_shown_whole_beside_its_points(drill_home):
    """The box keeps only a window of a long answer: the feedback repeats all of it, so what
    was graded can be read while the points are flipped; a short one is not repeated."""
    long = (
        "peak FLOP/s is the number of SMs times the FP32 lanes per SM times two for the "
        "fused multiply-add times the boost clock, which gives the dense peak"
    )
    for answer, shown in ((long, True), ("SMs x lanes x 2 x clock", False)):
        start = PracticeOptions(questions=("peak-flops-formula",), seed=1)
        app = make_app(lang="en", start=start, clock=frozen)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for_question(pilot)
            await type_answer(pilot, answer)
            await settle(pilot)
            text = " ".join(text_of(app, "#feedback").split())
            assert (f"Your answer: {long}" in text) == shown, text
