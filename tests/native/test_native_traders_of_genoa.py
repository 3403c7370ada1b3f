"""The Traders of Genoa C engine through meeplemind.native: its generated tables, sizes,
decode errors, determinize (the same deals as the reference, uniform, conserving every
card), the playout policies and the generic ISMCTS at an offer decision."""

from __future__ import annotations

import collections
import importlib
from pathlib import Path
from dataclasses import replace

import numpy as np
import pytest

from meeplemind.positions import checked_state
from meeplemind.engine import Rng
from meeplemind.engine.traders_of_genoa import LAYOUT_VERSION, NUM_ACTIONS, VECTOR_LEN, codec, new_game
from meeplemind.engine.traders_of_genoa.data import (
    D_LARGE, D_MESSAGE, D_SMALL, DECK_FIRST, DECK_SIZES, LARGE_ORDER_PAY, SPECIALS,
)
from meeplemind.engine.traders_of_genoa.heuristic import (
    REWARD_VALUE, SPECIAL_VALUE, action_value, choose_move, needed_goods,
)
from meeplemind.engine.traders_of_genoa.schema import V2 as SCHEMA
from meeplemind.engine.traders_of_genoa.state import ST_DECIDE, ST_OFFER, ST_REWARD, UNSEEN, USED
from meeplemind.native import NativeDecodeError, NativeGame, gen_traders_of_genoa
from meeplemind.search.ismcts import analyze
from meeplemind.search.params import Budget, game_params

from ..engine.traders_of_genoa.helpers import give_card, give_goods, give_special, play, square, turn_start
from . import native_support as support
from .test_native_castles_of_burgundy import with_field
from ..engine.traders_of_genoa.test_owner_and_villa import SCENARIOS, villa_short_one_good, villa_with_a_trade
from ..engine.traders_of_genoa.test_steering import SCENARIOS as STEERING
from ..engine.traders_of_genoa.test_steering import at_the_walk, one_offer
from ..engine.traders_of_genoa.test_hidden import CHI2_999, chi_square, messages_spread, played


@pytest.fixture(scope="module")
def native() -> NativeGame:
    return NativeGame("traders-of-genoa")


def test_generated_tables_are_fresh() -> None:
    """The build wrote the header from the engine modules as they are now."""
    header = Path(gen_traders_of_genoa.__file__).with_name("traders_of_genoa_tables.h")
    fresh = gen_traders_of_genoa.render(lambda name: importlib.import_module(f"meeplemind.engine.{name}"))
    assert header.read_text() == fresh, "run make install"


def test_game_info_matches_python(native: NativeGame) -> None:
    assert native.layout_version == LAYOUT_VERSION
    assert native.vector_len == VECTOR_LEN
    assert native.num_actions == NUM_ACTIONS
    assert native.max_players >= 5 and native.max_legal >= 84  # done, 8 goods, 56 trades, 2 orders, 17 palaces


def test_decode_errors_name_the_field(native: NativeGame) -> None:
    lib, vec = native.lib, new_game(3, seed=1).encode()
    at = SCHEMA.index
    # layout 1 (one good per offer) is gone
    cases = [(vec[:-1], lib.MM_ERR_LENGTH, -1), (with_field(vec, 0, 1), lib.MM_ERR_VERSION, 0),
             (with_field(vec, 1, 6), lib.MM_ERR_RANGE, 1),
             (with_field(vec, at("to_move"), 3), lib.MM_ERR_RANGE, at("to_move")),
             (with_field(vec, at("supply.silver"), vec[at("supply.silver")] - 1), lib.MM_ERR_INVARIANT,
              at("supply.silver")),
             (with_field(vec, at("players[1].hand.message"), 2), lib.MM_ERR_INVARIANT,
              at("piles.message"))]  # a hidden card that is nowhere
    for bad, code, index in cases:
        with pytest.raises(NativeDecodeError) as info:
            native.decode(bad)
        assert (info.value.code, info.value.index) == (code, index) and info.value.why


def test_steering_targets_are_checked(native: NativeGame) -> None:
    """A steering offer names a square next to the tower of an unvisited building; an offer
    for the action on offer names none (rule offers)."""
    at = SCHEMA.index
    heeding = one_offer().encode()  # seat 1 steers to the Harbor, 1.4, from 2.4
    negotiating = play(turn_start(3), "start:3.4").encode()  # the City Hall's action on offer
    squares = SCHEMA.cells[at("path[0]")].names
    cases = [(with_field(heeding, at("offers[1].target"), squares.index("2.5") - 1), at("offers[1].target")),
             (with_field(heeding, at("offers[1].target"), -1), at("offers[1].target")),
             (with_field(heeding, at("offers[2].target"), squares.index("3.4") - 1), at("offers[2].target")),
             (with_field(with_field(negotiating, at("offers[1].ducats"), 10), at("offers[1].target"),
                         squares.index("2.4") - 1), at("offers[1].target"))]
    for bad, index in cases:
        with pytest.raises(NativeDecodeError) as info:
            native.decode(bad)
        assert (info.value.code, info.value.index) == (native.lib.MM_ERR_INVARIANT, index), info.value.why
    native.decode(heeding)


def test_analyze_ranks_steering_offers_and_the_answers() -> None:
    params = replace(game_params("traders-of-genoa"), seed=3)
    s = play(at_the_walk(), "hear")
    result = analyze(s.observation(1), Budget(iterations=1500), params)
    assert {m.move for m in result.moves} == {"pass", "steer:1.4", "steer:3.4"}
    result = analyze(one_offer().observation(0), Budget(iterations=1500), params)
    assert {m.move for m in result.moves} == {"stop", "move:n", "move:e", "move:s", "move:w", "accept:1"}
    assert all(0.0 <= m.win_rate <= 1.0 and len(m.expected_scores) == 3 for m in result.moves)


def test_steering_answers_depend_only_on_what_the_viewer_sees() -> None:
    """At a bidder's steering decision and the owner's answer, with a card offered (shown to
    all), every viewer's analysis is the same for the truth and another deal he cannot tell
    from it (tests/conformance/test_no_leak.py's check, on steering positions)."""
    s = at_the_walk()
    give_card(s, 1, D_SMALL, 16)
    s = play(s, "hear", "steer:1.4:10+small_16")
    differ = 0
    for state in (s, play(s, "pass")):  # seat 2 to steer; the owner to answer
        for viewer in range(3):
            other = state.determinize(viewer, Rng(11 + viewer))
            assert other.observation(viewer) == state.observation(viewer)
            differ += other != state
            params = replace(game_params("traders-of-genoa"), seed=7, viewer=viewer)
            answers = [[(m.move, m.visits, round(m.win_rate, 9)) for m in analyze(x, Budget(iterations=300), params).moves]
                       for x in (state, other)]
            assert answers[0] == answers[1], (state.stage, viewer)
    assert differ


def test_determinize_deals_like_the_reference(native: NativeGame) -> None:
    for seed in range(8):
        s = played(2 + seed % 4, seed, 30 * seed)
        for viewer in range(s.num_players):
            buf, rng = native.decode(s.encode()), Rng(seed * 7 + viewer)
            state = rng.state
            sample = s.determinize(viewer, rng)
            assert native.determinize(buf, viewer, state) == rng.state
            assert np.array_equal(native.encode(buf), sample.encode())
            # and of the observation itself (what the service sends)
            buf = native.decode(s.observation(viewer).encode())
            native.determinize(buf, viewer, 5)
            got = checked_state("traders-of-genoa", native.encode(buf))
            assert got.observation(viewer) == s.observation(viewer) and UNSEEN not in got.cards


def test_observe_masks_like_the_reference(native: NativeGame) -> None:
    """The service's mask (mm_game.observe) is the reference observation, a finished game's
    too (every hand shown, the piles not)."""
    for seed in range(6):
        s, rng = new_game(2 + seed % 4, seed), Rng(seed)
        while True:
            for viewer in range(s.num_players):
                buf = native.decode(s.encode())
                native.observe(buf, viewer)
                assert np.array_equal(native.encode(buf), s.observation(viewer).encode())
            if s.is_terminal:
                break
            for _ in range(40):
                if not s.is_terminal:
                    legal = s.legal_moves()
                    s = s.apply(legal[rng.below(len(legal))], rng)


def test_determinize_infers_like_the_reference(native: NativeGame) -> None:
    """Negotiations where a message would have paid on entering: the same deals in C."""
    from ..engine.traders_of_genoa.test_hidden import inference_cases

    for s in inference_cases(40):
        for viewer in range(s.num_players):
            rng = Rng(viewer)
            buf, sample = native.decode(s.encode()), s.determinize(viewer, rng)
            assert native.determinize(buf, viewer, viewer) == rng.state
            assert np.array_equal(native.encode(buf), sample.encode())


def test_determinize_is_uniform_and_never_deals_a_used_card(native: NativeGame) -> None:
    s = messages_spread(3, {0: 1, 1: 2, 2: 1}, 2)
    first, size = DECK_FIRST[D_MESSAGE], DECK_SIZES[D_MESSAGE]
    start = native.decode(s.observation(0).encode())
    counts: collections.Counter[tuple[int, ...]] = collections.Counter()
    rng = 11
    for _ in range(6000):
        buf = bytearray(start)
        rng = native.determinize(buf, 0, rng)
        v = native.encode(buf)
        locations = tuple(codec.decode(v).cards[first:first + size])
        assert all(loc == USED for loc in locations[6:]) and locations[0] == 0
        counts[locations] += 1
        native.decode(v)  # a consistent position
    assert len(counts) == 30 and chi_square(counts, 30) < CHI2_999[29]


def test_heuristic_rollouts_beat_uniform_ones(native: NativeGame) -> None:
    wins = 0
    for g in range(20):
        buf, rng, hero = native.decode(new_game(3, seed=g).encode()), g, g % 3
        while (seat := native.current_player(buf)) >= 0:
            action, rng = native.rollout_move(buf, rng, 1 if seat == hero else 0)
            rng = native.apply(buf, action, rng)
        scores = native.scores(buf)
        wins += int(np.argmax(scores[:, 0])) == hero
    assert wins >= 16


@pytest.mark.parametrize("special", ["any_good", "trade"])
def test_the_playout_policy_spends_special_cards_on_goods_its_orders_lack(native: NativeGame, special: str) -> None:
    """After the Cathedral's action, holding small order 16 (silk there), a rice no order
    asks for and an any-good or a trade card, the C policy (and so the priors) plays the card
    for a good an order lacks, as the heuristic bot does (before, it never played them)."""
    s = turn_start(3)
    give_card(s, 0, D_SMALL, 16)
    give_goods(s, 0, "rice")
    give_special(s, 0, special)
    s = play(s, f"start:{square('cathedral')}", "pass", "pass", "take")
    need, held = needed_goods(s, 0), s.players[0].goods
    buf = native.decode(s.encode())
    priors = native.move_priors(buf)
    assert priors is not None
    for chosen in (s.move_from_id(int(native.legal_moves(buf)[int(np.argmax(priors))])), choose_move(s, Rng(1))):
        got = chosen.extra if chosen.kind == "trade" else chosen.arg
        assert chosen.kind == ("good" if special == "any_good" else "trade") and need[got] > held[got]


@pytest.mark.parametrize("scenario", [villa_short_one_good, villa_with_a_trade], ids=lambda f: f.__name__)
def test_the_playout_policy_completes_a_large_order_with_its_goods_cards(native: NativeGame, scenario) -> None:  # type: ignore[no-untyped-def]
    """At villa Colini, large order 1 one good short and an any-good or a trade card in hand,
    the C policy (and so the priors) and the heuristic bot play the card and deliver the order
    (100 ducats and a special card) instead of drawing a privilege (before, the privilege's 18
    ducats beat the card's 3); to the bot the villa's action was worth the order less the card."""
    s = scenario()
    card = "any_good" if scenario is villa_short_one_good else "trade"
    assert action_value(s, 0, s.site) == LARGE_ORDER_PAY + REWARD_VALUE - SPECIAL_VALUE[SPECIALS.index(card)]
    played = []
    for _ in range(2):  # the card, then the order
        buf = native.decode(s.encode())
        priors = native.move_priors(buf)
        assert priors is not None
        chosen = s.move_from_id(int(native.legal_moves(buf)[int(np.argmax(priors))]))
        assert str(chosen) == str(choose_move(s, Rng(1)))
        played.append(str(chosen))
        s = play(s, str(chosen))
    assert played[0].startswith(("good:wheat", "trade:pepper>wheat")) and played[1] == "large:1", played
    assert s.stage == ST_REWARD


def test_heuristic_playouts_deliver_large_orders(native: NativeGame) -> None:
    """The C policy collects the goods its orders ask for: 40 two-player heuristic games
    deliver 48 large orders (45 before it played goods cards at a villa, 21 before it valued
    the goods its orders need)."""
    delivered = 0
    for g in range(40):
        buf, chance, picker = native.decode(new_game(2, seed=g).encode()), g, g + 1
        while native.current_player(buf) >= 0:
            action, picker = native.rollout_move(buf, picker, 1)
            chance = native.apply(buf, action, chance)
        cards = codec.decode(native.encode(buf)).cards
        delivered += sum(cards[DECK_FIRST[D_LARGE] + i] == USED for i in range(DECK_SIZES[D_LARGE]))
    assert delivered >= 35


def test_analyze_recommends_what_to_offer_and_which_offer_to_accept() -> None:
    s = turn_start(3)
    give_goods(s, 1, "silk")
    s = play(s, "start:1.1")  # Villa Colini: seat 1 to offer
    assert s.stage == ST_OFFER
    result = analyze(s.observation(1), Budget(iterations=3000), replace(game_params("traders-of-genoa"), seed=3))
    assert result.iterations == 3000
    offers = [m for m in result.moves if m.move.startswith("give:") or m.move == "pass"]
    assert len(offers) == len(result.moves) >= 10 and sum(m.visits for m in result.moves) == 3000
    assert all(0.0 <= m.win_rate <= 1.0 and len(m.expected_scores) == 3 for m in offers)
    # a first item's line of play builds the rest of its offer: it continues with gives up to "offer"
    built = [m for m in offers if m.move != "pass" and "offer" in m.pv]
    assert built and all(set(m.pv[:m.pv.index("offer")]) <= {x.move for x in offers} for m in built)
    s = play(s, "offer:20+silk", "offer:10")
    assert s.stage == ST_DECIDE
    result = analyze(s.observation(0), Budget(iterations=2000), replace(game_params("traders-of-genoa"), seed=3))
    assert {m.move for m in result.moves} == {"take", "accept:1", "accept:2"}


@pytest.mark.sanitizer
def test_searches_and_determinizations_under_the_sanitizers() -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized([], timeout=900, module="tests.native.genoa_search_driver")
    assert result["searches"] >= 50 and result["determinized"] >= 100


@pytest.mark.parametrize("scenario", SCENARIOS + STEERING, ids=lambda f: f.__name__)
def test_rules_fix_scenarios_in_c(native: NativeGame, scenario) -> None:  # type: ignore[no-untyped-def]
    """The owner's decision, the villa's goods cards and steering offers: the C twin offers
    the reference's moves and reaches its states through every move from each scenario."""
    s = scenario()
    buf = native.decode(s.encode())
    rng = Rng(5)
    for _ in range(6):
        assert native.legal_moves(buf).tolist() == s.legal_action_ids()
        if s.is_terminal:
            break
        action = s.legal_action_ids()[-1]
        s = s.apply(s.move_from_id(action), rng)
        native.apply(buf, action, Rng(5).state)
        assert np.array_equal(native.encode(buf), s.encode())
        rng = Rng(5)
