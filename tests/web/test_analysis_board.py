"""The analysis board in a real browser: a whole 2-player Puerto Rico game between two bots,
reviewed from the page (the graph drawn, mistakes marked with the better move), stepped
through with the keys and buttons; the page on a 420-px screen; a hint the server refuses
and a server that does not answer. Screenshots go to ``test-output/web/``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import to_position

from .test_page import _open, _save, browser, page, pytestmark, site  # noqa: F401 (fixtures; skipped without Chromium)

REVIEW_ITERATIONS = 30
LONG_MS = 300_000


def _bots_only_game(tab: Any, seed: int) -> None:
    tab.select_option("#game", "puerto-rico")
    tab.select_option("#players", "2")
    for seat in range(2):
        tab.select_option(f"select[data-seat='{seat}']", "1")
    tab.fill("#seed", str(seed))
    tab.click("#start")


def _ply(tab: Any) -> tuple[int, int]:
    at, total = tab.inner_text("#analysis-ply").split(" / ")
    return int(at), int(total)


def test_a_finished_game_is_reviewed_and_stepped_through(site: tuple[str, Any], page: Any) -> None:  # noqa: F811
    url, _ = site
    _open(page, url)
    _bots_only_game(page, seed=3)
    page.wait_for_selector("#result:not([hidden])", timeout=LONG_MS)
    at, total = _ply(page)
    assert at == total > 40
    log = page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent.trim())")
    assert len(log) == total and all(re.match(r"Seat [12]: \S+", line) for line in log)
    # the score at the end, split into VP chips, buildings and bonuses that add up
    rows = page.eval_on_selector_all(".score-breakdown tbody tr", "rows => rows.map(r => "
                                     "[...r.querySelectorAll('td.num')].map(c => Number(c.textContent)))")
    assert len(rows) == 2 and all(chips + buildings + bonus == score for chips, buildings, bonus, score, _ in rows)
    shown = page.eval_on_selector_all("table.result .score", "s => s.map(c => Number(c.textContent))")
    assert [r[3] for r in rows] == shown

    page.fill("#analysis-iterations", str(REVIEW_ITERATIONS))
    page.click("#analysis-review")
    page.wait_for_selector("#analysis[data-reviewed=yes]", timeout=LONG_MS)
    assert page.eval_on_selector_all("svg.review-graph circle.point", "c => c.length") == total
    assert page.eval_on_selector_all("#analysis-summary tbody tr", "r => r.length") == 2
    marked = page.eval_on_selector_all("#log li .mark", "m => m.length")
    assert marked > 0  # level-1 bots (10 iterations a move) make mistakes
    page.click("#log li:has(.mark) >> nth=0")
    assert "better:" in page.inner_text("#analysis-last-move")
    _save(page, "analysis-board-reviewed")

    page.keyboard.press("Home")
    assert _ply(page) == (0, total) and page.inner_text("#analysis-last-move") == "The start of the game."
    page.keyboard.press("ArrowRight")
    assert _ply(page) == (1, total)
    assert page.inner_text("#analysis-last-move").startswith("Last move: Seat")
    assert page.eval_on_selector_all("#board .last-move, #board .last-mover", "e => e.length") > 0
    page.click("#analysis-forward")
    page.click("#analysis-forward")
    page.click("#analysis-back")
    assert _ply(page) == (2, total)
    mayor = False
    for _ in range(total):  # the colonists still to place show in a Mayor phase
        page.keyboard.press("ArrowRight")
        if page.query_selector("#board .to-place"):
            mayor = True
            assert re.fullmatch(r"\d+ colonists? to place", page.inner_text("#board .to-place"))
            break
    assert mayor
    page.keyboard.press("End")
    assert _ply(page) == (total, total) and page.query_selector(".score-breakdown")
    effects = page.eval_on_selector_all("#board dl.effects dd", "d => d.map(x => x.textContent)")
    assert len(effects) >= 17 and all(len(e) > 10 for e in effects)


def test_the_page_fits_a_420_px_screen(site: tuple[str, Any], browser: Any) -> None:  # noqa: F811
    url, _ = site
    narrow = browser.new_page(viewport={"width": 420, "height": 900})
    try:
        _open(narrow, url)
        _bots_only_game(narrow, seed=4)
        narrow.wait_for_selector("#log li >> nth=5")
        width = narrow.evaluate("document.documentElement.scrollWidth")
        _save(narrow, "page-420px")
        assert width <= 420
    finally:
        narrow.close()


def test_a_refused_hint_and_a_silent_server_give_a_readable_message(site: tuple[str, Any], page: Any) -> None:  # noqa: F811
    url, _ = site
    _open(page, url)
    page.fill("#hint-iterations", "20000000")  # above the server's max_iterations
    page.select_option("#players", "2")
    page.select_option("select[data-seat='0']", "human")
    page.click("#start")
    page.wait_for_selector("#hint-body p.error")
    assert "Searching" not in page.inner_text("#hint-body") and "iterations" in page.inner_text("#hint-body")
    page.route(re.compile(r".*/meeplemind\.v1\.Analysis/AnalyzeStream$"), lambda route: route.abort())
    page.fill("#hint-iterations", "100")
    page.click("#hint-on")
    page.click("#hint-on")  # hints again, now to a server that does not answer
    page.wait_for_selector("#hint-body p.error:has-text('does not answer')")
    assert "does not answer" in page.inner_text("#status")


def test_a_game_record_loads_and_replays(site: tuple[str, Any], page: Any, tmp_path: Path) -> None:  # noqa: F811
    """A record of ``meeplemind selfplay --json`` (seeds as its generator's states) loads
    into the board: every move replayed by the server, the final score shown."""
    url, _ = site
    state = get_game("puerto-rico").new_game(2, 6)
    start, rng, moves = to_position(state), Rng(6), []
    while not state.is_terminal:
        move = state.legal_moves()[rng.below(len(state.legal_moves()))]
        moves.append({"move": str(move), "seed": str(rng.state)})
        state = state.apply(move, rng)
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"start": start, "moves": moves}))
    _open(page, url)
    page.set_input_files("#load-file", str(path))
    page.wait_for_selector("#result:not([hidden])", timeout=LONG_MS)
    assert _ply(page) == (len(moves), len(moves))
    assert page.eval_on_selector_all("#log li", "items => items.length") == len(moves)
    totals = page.eval_on_selector_all(".score-breakdown tbody tr", "rows => rows.map(r => "
                                       "Number(r.querySelectorAll('td.num')[3].textContent))")
    assert totals == state.scores()
