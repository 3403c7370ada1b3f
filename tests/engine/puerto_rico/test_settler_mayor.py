"""Settler (rules §3.1, §1d Hacienda/Construction Hut/Hospice) and Mayor (§3.2)."""

from __future__ import annotations

from meeplemind.engine import Rng

from .helpers import KIND, build, fresh, legal, pick, plant, play


def test_settler_privilege_quarry_only_for_the_settler() -> None:
    s = fresh(3)
    s.faceup = [1, 1, 1, 1, 0]
    s.deck[0] -= 0
    s = pick(s, "settler")
    assert "settle:quarry" in legal(s)
    s = play(s, "settle:coffee" if "settle:coffee" in legal(s) else "settle:sugar")
    assert s.current_player == 1 and "settle:quarry" not in legal(s)


def test_construction_hut_gives_quarry_to_its_owner() -> None:
    s = fresh(3)
    build(s, 1, "construction_hut")
    s = pick(s, "settler")
    s = play(s, "pass")
    assert "settle:quarry" in legal(s)
    s = play(s, "settle:quarry")
    assert s.players[1].quarries == 1 and s.quarry_supply == 7
    assert s.players[1].quarry_colonists == 0


def test_hacienda_draws_an_extra_unseen_tile_before_the_pick() -> None:
    s = fresh(3)
    build(s, 0, "hacienda")
    s = pick(s, "settler")
    assert "hacienda" in legal(s)
    before = sum(s.deck)
    s = play(s, "hacienda")
    assert sum(s.players[0].plantations) == 2 and sum(s.deck) == before - 1
    assert s.current_player == 0 and "hacienda" not in legal(s)
    s = play(s, "settle:quarry")
    assert sum(s.players[0].plantations) == 2 and s.players[0].quarries == 1


def test_hospice_colonist_from_supply_then_ship_never_for_hacienda_tile() -> None:
    s = fresh(3)
    build(s, 0, "hospice", "hacienda")
    s = pick(s, "settler")
    s = play(s, "hacienda")
    drawn = [k for k in range(5) if s.players[0].plantations[k] > (1 if k == KIND["indigo"] else 0)]
    assert sum(s.players[0].plantation_colonists) == 0, drawn
    supply = s.colonist_supply
    s = play(s, "settle:quarry")
    assert s.players[0].quarry_colonists == 1 and s.colonist_supply == supply - 1
    s2 = fresh(3)
    build(s2, 0, "hospice")
    s2.colonist_ship += s2.colonist_supply
    s2.colonist_supply = 0
    ship = s2.colonist_ship
    s2 = pick(s2, "settler")
    s2 = play(s2, "settle:quarry")
    assert s2.players[0].quarry_colonists == 1 and s2.colonist_ship == ship - 1


def test_full_island_cannot_settle() -> None:
    s = fresh(3)
    plant(s, 1, "corn", 5)
    plant(s, 1, "sugar", 6)  # 1 indigo + 11 = 12 spaces
    s = pick(s, "settler")
    s = play(s, "pass")
    assert s.current_player == 2  # player 1 had nothing to decide


def test_settler_end_discards_the_row_and_draws_players_plus_one() -> None:
    s = fresh(3)
    s = pick(s, "settler")
    row = list(s.faceup)
    s = play(s, "pass", "pass", "pass")
    assert s.discard == row and sum(s.faceup) == 4


def test_empty_stack_reshuffles_the_discards() -> None:
    s = fresh(3)
    s.discard = [s.deck[k] for k in range(5)]
    s.deck = [0, 0, 0, 0, 0]
    s.deck[0], s.discard[0] = 2, s.discard[0] - 2
    s = pick(s, "settler")
    s = play(s, "pass", "pass", "pass")
    assert sum(s.faceup) == 4 and s.faceup[0] >= 2  # both old tiles drawn first, then the discards
    assert sum(s.deck) + sum(s.discard) + sum(s.faceup) == 50 - 3


def test_mayor_privilege_distribution_and_must_fill() -> None:
    s = fresh(4)  # ship holds 4: one each; the mayor also gets the privilege colonist
    build(s, 0, "small_market", colonists=0)
    s = pick(s, "mayor")
    p0 = s.players[0]
    # player 0: 2 colonists, 2 circles (indigo plantation, small market): all filled
    assert p0.plantation_colonists[KIND["indigo"]] == 1 and p0.buildings[6] == 1 and p0.san_juan == 0
    for p in s.players[1:]:
        assert sum(p.plantation_colonists) == 1 and p.san_juan == 0
    # refill: empty building circles (none) with the minimum of 4 players
    assert s.colonist_ship == 4 and s.colonist_supply == 75 - 1 - 4
    assert s.current_player == 1  # the next role picker


def test_mayor_distribution_formula_from_the_mayor() -> None:
    s = fresh(3, governor=1)
    s.colonist_ship, s.colonist_supply = 7, s.colonist_supply - 4
    s = pick(s, "mayor")
    # mayor is seat 1: 7 = 3+2+2 -> seat1 3 (+1 privilege), seat2 2, seat0 2; one circle each
    assert [p.san_juan for p in s.players] == [1, 3, 1]


def test_mayor_placement_is_one_colonist_at_a_time_in_slot_order() -> None:
    s = fresh(3)
    plant(s, 0, "corn", 2, colonists=0)
    plant(s, 0, "sugar", 1, colonists=0)
    build(s, 0, "small_sugar_mill", colonists=0)
    s.colonist_ship = 1
    s.colonist_supply += 2
    s = pick(s, "mayor")  # 1 ship + 1 privilege = 2 colonists, 5 circles
    assert s.current_player == 0 and s.to_place == 2
    # the mill is the last slot: a first colonist there would leave the second nowhere to go
    assert legal(s) == ["place:corn", "place:indigo", "place:sugar"]
    s = play(s, "place:sugar")  # then only the mill is left: placed automatically
    p = s.players[0]
    assert p.plantation_colonists[KIND["sugar"]] == 1 and p.buildings[1] == 1
    assert s.current_player == 1


def test_mayor_canonical_order_never_reaches_an_allocation_twice() -> None:
    s = fresh(3)
    plant(s, 0, "corn", 2, colonists=0)
    build(s, 0, "small_market", "hacienda", colonists=0)
    s.colonist_ship, s.colonist_supply = 2, s.colonist_supply + 1
    s = pick(s, "mayor")  # 3 colonists, 5 circles (2 corn, indigo, 2 buildings)
    seen, frontier = [], [s]
    while frontier:
        st = frontier.pop()
        if st.current_player != 0 or st.phase != 2:
            p = st.players[0]
            seen.append((tuple(p.plantation_colonists), tuple(p.buildings)))
            continue
        frontier += [st.apply(m, Rng(0)) for m in st.legal_moves()]
    # corn 0/1/2 of the two identical tiles x the 3 single circles, 3 colonists: 1 + 3 + 3
    assert len(seen) == len(set(seen)) == 7


def test_mayor_refill_counts_empty_building_circles_and_triggers_end() -> None:
    s = fresh(3)
    build(s, 1, "indigo_plant", colonists=0)
    build(s, 2, "coffee_roaster", colonists=0)
    s = pick(s, "mayor")
    while s.phase == 2:  # players 1 and 2 choose where their single colonist goes
        s = play(s, "place:" + ("indigo_plant" if s.current_player == 1 else "coffee_roaster"))
    # after placement 2 + 1 building circles are empty: more than the minimum of 3? no: 3
    assert s.colonist_ship == 3 and sum(p.empty_building_circles() for p in s.players) == 3
    s = fresh(3)
    build(s, 1, "indigo_plant", "sugar_mill", colonists=0)
    s = pick(s, "mayor")
    s = play(s, "place:indigo_plant")
    assert s.colonist_ship == 5  # 2 + 3 empty circles on player 1's buildings
    s2 = fresh(3)
    s2.colonist_ship += s2.colonist_supply - 2
    s2.colonist_supply = 2
    s2 = pick(s2, "mayor")
    assert s2.end_triggered and s2.colonist_ship == 1 and s2.colonist_supply == 0
