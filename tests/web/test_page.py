"""The web page in a real browser (Debian's headless Chromium, driven by playwright): a whole
3-player Puerto Rico game whose human seat plays the hinted moves, a whole Traders of Genoa
game refereed by the page (the human sees only his cards), and a few turns of The Castles of
Burgundy and of Traders of Genoa. Screenshots and the measured timings go to ``test-output/web/``."""

from __future__ import annotations

import json
import os
import pathlib
import re
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from meeplemind.positions.messages import read_position, state_key
from meeplemind.engine.traders_of_genoa.board import BUILDING_SQUARES
from meeplemind.engine.traders_of_genoa.data import BUILDING_NAMES, D_PRIVILEGE
from meeplemind.v1 import position_pb2, rules_pb2, rules_pb2_grpc

from ..http_server import serving_http

CHROMIUM = os.environ.get("MEEPLEMIND_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUTPUT = pathlib.Path(__file__).resolve().parents[2] / "test-output" / "web"
#: Small budgets keep a whole game to a minute or two on a loaded 2-core machine.
HINT_ITERATIONS, BOT_LEVEL = 100, 1
STEP_TIMEOUT_MS = 60_000
COB_HUMAN_MOVES = 12
GENOA_HUMAN_MOVES = 12
#: A whole Traders of Genoa game at the page: bots searching a number of iterations (so the
#: seeded game is the same every run), enough to deliver orders and score privileges.
GENOA_SEED, GENOA_BOT_ITERATIONS = 2, 400

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)")


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, rules_pb2_grpc.RulesStub]]:
    """The page's URL on a real server, and a gRPC Rules stub to the same server."""
    with serving_http(max_searches=2, max_queue=8) as serving:
        with grpc.insecure_channel(f"127.0.0.1:{serving.port}") as channel:
            yield f"http://127.0.0.1:{serving.gateway.port}/?botDelay=0", rules_pb2_grpc.RulesStub(channel)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    page.set_default_timeout(STEP_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert not errors, errors


def _open(page: Any, url: str) -> float:
    """Load the page; the seconds until it is ready (games listed)."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    return time.perf_counter() - start


def _set_up(page: Any, game: str, players: int, seed: int) -> None:
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.select_option("select[data-seat='0']", "human")
    for seat in range(1, players):
        page.select_option(f"select[data-seat='{seat}']", str(BOT_LEVEL))
    page.fill("#seed", str(seed))
    page.fill("#hint-iterations", str(HINT_ITERATIONS))
    page.click("#start")


def _play_hinted(page: Any, limit: int | None = None) -> tuple[int, list[float]]:
    """Click the most visited hinted move until the game ends (or ``limit`` moves); the moves
    played and the milliseconds to each hint's first update."""
    played, first_updates = 0, []
    while limit is None or played < limit:
        page.wait_for_selector("#result:not([hidden]), button.play-hint")
        if page.is_visible("#result"):
            break
        first_updates.append(float(page.inner_text("#hint-first-ms")))
        page.click("button.play-hint >> nth=0")
        played += 1
    return played, first_updates


def _position(page: Any) -> dict[str, Any]:
    return json.loads(page.input_value("#position-json"))


def _shown_tiles(page: Any, selector: str) -> list[int]:
    return page.eval_on_selector_all(
        "section.player", f"players => players.map(p => p.querySelectorAll('{selector}').length)")


def _style(page: Any, selector: str, prop: str) -> str:
    """The computed style ``prop`` of the first element ``selector`` finds (a game's own style
    sheet, web/games/<game>.css, loaded by web/games.js)."""
    return page.eval_on_selector(selector, f"el => getComputedStyle(el).{prop}")


def _save(page: Any, name: str, **measured: Any) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=True)
    if measured:
        (OUTPUT / f"{name}.json").write_text(json.dumps(measured, indent=2))


def test_a_whole_puerto_rico_game_against_two_bots(site: tuple[str, Any], page: Any) -> None:
    url, rules = site
    load_s = _open(page, url)
    _set_up(page, "puerto-rico", 3, seed=5)
    page.wait_for_selector("button.play-hint")
    _save(page, "puerto-rico-start")
    played, first_updates = _play_hinted(page)
    assert played > 20
    final = _position(page)
    position = json_format.ParseDict(final, position_pb2.Position())
    reply = rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert not reply.moves and final["puerto_rico"]["phase"] == "end"
    assert page.inner_text("#result h2") == "Game over"
    if "result" in rules_pb2.LegalMovesResponse.DESCRIPTOR.fields_by_name:  # the Rules service has results
        shown = page.eval_on_selector_all(
            "table.result tbody tr", "rows => rows.map(r => [Number(r.dataset.seat), "
            "Number(r.querySelector('.score').textContent), r.classList.contains('winner')])")
        result = reply.result
        assert shown == [[seat, score, seat in result.winners] for seat, score in enumerate(result.scores)]
    # The board drawn is the final position's: every building of every city.
    cities = [len(p["buildings"]) for p in final["puerto_rico"]["players"]]
    assert _shown_tiles(page, ".city .tile.building") == cities
    _save(page, "puerto-rico-end", page_load_s=round(load_s, 3), human_moves=played,
          hint_first_update_ms={"median": sorted(first_updates)[len(first_updates) // 2],
                                "max": max(first_updates)})


def _a_few_turns(site: tuple[str, Any], page: Any, game: str, players: int, seed: int,
                 moves: int) -> tuple[dict[str, Any], list[float]]:
    """Set ``game`` up and play ``moves`` hinted human moves: the game's state then (the
    human's turn again, hints shown) and the milliseconds to each hint's first update."""
    url, _ = site
    _open(page, url)
    _set_up(page, game, players, seed=seed)
    played, first_updates = _play_hinted(page, limit=moves)
    assert played == moves
    page.wait_for_selector("button.play-hint")
    return _position(page)[state_key(game)], first_updates


def test_a_few_turns_of_the_castles_of_burgundy(site: tuple[str, Any], page: Any) -> None:
    state, first_updates = _a_few_turns(site, page, "castles-of-burgundy", 2, 9, COB_HUMAN_MOVES)
    assert _shown_tiles(page, "svg.estate .hex.placed") == [len(p["estate"]) for p in state["players"]]
    assert page.inner_text(".cob .stats").startswith("phase")
    assert _style(page, "svg.estate", "maxWidth") == "384px"  # 24rem: the game's style sheet applies
    _save(page, "castles-of-burgundy", hint_first_update_ms=sorted(first_updates)[len(first_updates) // 2])


def test_a_few_turns_of_traders_of_genoa(site: tuple[str, Any], page: Any) -> None:
    state, first_updates = _a_few_turns(site, page, "traders-of-genoa", 3, 4, GENOA_HUMAN_MOVES)
    assert page.eval_on_selector_all("svg.genoa-town g.square", "squares => squares.length") == 64
    discs = [square for square in state["path"] if square]
    assert page.eval_on_selector_all("svg.genoa-town circle.tower", "discs => discs.length") == len(discs)
    squares = {name: len(BUILDING_SQUARES[b]) for b, name in enumerate(BUILDING_NAMES)}
    markers = sum(len(m["seats"]) * squares[m["building"]] for m in state["marks"])  # a dot on each square
    assert page.eval_on_selector_all("svg.genoa-town circle[class^=seat-]", "dots => dots.length") == markers
    assert page.inner_text(".genoa .stats").startswith("round")
    assert _style(page, "svg.genoa-town", "maxWidth") == "416px"  # 26rem: the game's style sheet applies
    _save(page, "traders-of-genoa", hint_first_update_ms=sorted(first_updates)[len(first_updates) // 2])


def test_a_bad_pasted_position_is_refused_naming_the_field(site: tuple[str, Any], page: Any) -> None:
    url, _ = site
    _open(page, url)
    _set_up(page, "puerto-rico", 2, seed=1)
    page.wait_for_selector("button.play-hint")
    assert _style(page, ".boards", "display") == "grid"  # the game's style sheet applies
    good = _position(page)
    bad = json.loads(json.dumps(good))
    bad["puerto_rico"]["players"][1]["doubloons"] = -3
    page.fill("#position-json", json.dumps(bad))
    page.click("#load")
    page.wait_for_selector("#status.error")
    assert "position.puerto_rico.players[1].doubloons: -3 is below 0" in page.inner_text("#status")
    camel = json.dumps(good).replace('"puerto_rico"', '"puertoRico"').replace('"vp_chips"', '"vpChips"')
    page.fill("#position-json", camel)  # lowerCamelCase proto3 JSON loads too
    page.click("#load")
    page.wait_for_selector("#status:not(.error)")
    page.wait_for_selector("button.play-hint")
    assert _position(page)["puerto_rico"]["players"] == good["puerto_rico"]["players"]


def _genoa_turn_shows_only_seat_1(page: Any) -> int:
    """On the human's turn: his cards named by what they are, the others' as counts only
    (but for the cards in an offer, shown to all); the position shown is his view. The number of his cards shown."""
    view = _position(page)
    genoa = view["traders_of_genoa"]
    offered = {c for c in genoa.get("offered_cards", []) if genoa["cards"][c] != "0"}  # shown to all (issue 28)
    assert view["viewer"] == 0 and {w for c, w in genoa["cards"].items() if c not in offered} <= {"0", "used"}
    shown = page.eval_on_selector_all("section.player", "ps => ps.map(p => [...p.querySelectorAll('.card')]"
                                                        ".map(c => c.textContent))")
    assert sum(len(cards) for cards in shown[1:]) == len(offered), shown
    assert not any(re.fullmatch(r"(large|small|message|privilege)_\d+", text) for text in shown[0])
    return len(shown[0])


def test_a_whole_traders_of_genoa_game_refereed_by_the_page(site: tuple[str, Any], page: Any,
                                                            tmp_path: pathlib.Path) -> None:
    url, rules = site
    _open(page, f"{url}&botIterations={GENOA_BOT_ITERATIONS}")
    _set_up(page, "traders-of-genoa", 3, seed=GENOA_SEED)
    played, cards_shown = 0, 0
    while True:
        page.wait_for_selector("#result:not([hidden]), button.play-hint")
        if page.is_visible("#result"):
            break
        cards_shown += _genoa_turn_shows_only_seat_1(page)
        page.click("button.play-hint >> nth=0")
        played += 1
    assert played > 30 and cards_shown > 0
    log = page.eval_on_selector_all("#log li", "items => items.map(li => li.textContent)")
    assert all(re.match(r"Seat [123]: \S+", line) for line in log) and len(log) > played
    assert sum(line.startswith("Seat 1: ") for line in log) == played  # newest last, every move
    bots = [line for line in log if not line.startswith("Seat 1: ")]
    delivered = [line for line in bots if re.match(r"Seat [23]: (deliver|large):", line)]
    assert any("hidden card" in line for line in bots)  # their draws, hidden from the human
    # The result shown is the truth's: every hand is shown at the end, privileges scored (below).
    final = _position(page)
    end = read_position(final).state()
    privileges = [sum(end.privilege_value(seat, c) for c in end.hand(seat, D_PRIVILEGE)) for seat in range(3)]
    assert delivered, "the bots never delivered an order"
    assert {"1", "2"} <= set(final["traders_of_genoa"]["cards"].values())  # the bots' hands shown at the end
    assert any(end.hand(seat, D_PRIVILEGE) for seat in range(3)), "no one held a privilege to score"
    reply = rules.LegalMoves(rules_pb2.LegalMovesRequest(position=json_format.ParseDict(final, position_pb2.Position())))
    shown = page.eval_on_selector_all("table.result tbody tr",
                                      "rows => rows.map(r => Number(r.querySelector('.score').textContent))")
    assert shown == list(reply.result.scores)
    # The saved game is the truth: its full start and seeds replay to the same result.
    with page.expect_download() as download:
        page.click("#save-game")
    record = json.loads(pathlib.Path(download.value.path()).read_text())
    position = json_format.ParseDict(record["start"], position_pb2.Position())
    assert "unseen" not in record["start"]["traders_of_genoa"]["cards"].values()
    for played_move in record["moves"]:
        position = rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=played_move["move"],
                                                              seed=int(played_move["seed"]))).position
    assert list(rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position)).result.scores) == shown
    # Loaded again, the saved game replays to the same end and the same log.
    page.click("#start")
    page.wait_for_selector("button.play-hint")
    page.set_input_files("#load-file", download.value.path())
    page.wait_for_selector("#result:not([hidden])")
    assert page.eval_on_selector_all("table.result tbody tr",
                                      "rows => rows.map(r => Number(r.querySelector('.score').textContent))") == shown
    again = page.eval_on_selector_all("#log li", "items => items.map(li => li.textContent)")
    assert [line.split(" (")[0] for line in again] == [line.split(" (")[0] for line in log]
    _save(page, "traders-of-genoa-end", human_moves=played, bot_deliveries=len(delivered), privileges=privileges)
