"""Hidden hands: what an observation hides, and determinizations uniform over consistent deals."""

from __future__ import annotations

import collections
import itertools

from meeplemind.positions import check_state
from meeplemind.engine import Rng
from meeplemind.engine.traders_of_genoa import new_game
from meeplemind.engine.traders_of_genoa.data import D_MESSAGE, DECK_FIRST, DECK_SIZES, DECKS, NUM_CARDS
from meeplemind.engine.traders_of_genoa.state import PILE, UNSEEN, USED, State

#: Chi-square critical values at p = 0.001 by degrees of freedom (a seeded test: never flaky).
CHI2_999 = {1: 10.83, 2: 13.82, 29: 58.30}


def played(players: int, seed: int, steps: int) -> State:
    s, rng = new_game(players, seed), Rng(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        legal = s.legal_moves()
        s = s.apply(legal[rng.below(len(legal))], rng)
    return s


def test_observation_hides_other_hands_and_the_piles_and_keeps_the_counts() -> None:
    s = played(4, 3, 120)
    for viewer in range(4):
        seen = s.observation(viewer)
        for c in range(NUM_CARDS):
            loc = s.cards[c]
            want = loc if loc in (viewer, USED) or s.offered_cards[c] else UNSEEN  # an offered card is shown
            assert seen.cards[c] == want
        assert [p.hand for p in seen.players] == [p.hand for p in s.players]
        assert seen.piles == s.piles and seen.observation(viewer) == seen
        check_state(seen)


def test_determinizations_look_like_the_observation_and_conserve_every_card() -> None:
    rng = Rng(9)
    for seed in range(6):
        s = played(2 + seed % 4, seed, 40 + 30 * seed)
        for viewer in range(s.num_players):
            seen = s.observation(viewer)
            sample = s.determinize(viewer, rng)
            check_state(sample)
            assert sample.observation(viewer) == seen
            assert UNSEEN not in sample.cards
            for c in range(NUM_CARDS):
                if s.cards[c] in (viewer, USED):  # known cards stay, revealed ones are never dealt
                    assert sample.cards[c] == s.cards[c]
            for d in range(len(DECKS)):
                cards = range(DECK_FIRST[d], DECK_FIRST[d] + DECK_SIZES[d])
                assert sum(sample.cards[c] == PILE for c in cards) == s.piles[d]
                for seat in range(s.num_players):
                    assert sum(sample.cards[c] == seat for c in cards) == s.players[seat].hand[d]


def messages_spread(players: int, hands: dict[int, int], pile: int) -> State:
    """A position whose message deck is used up but for ``hands[seat]`` cards in hands and
    ``pile`` cards in the pile, the first unused messages in that order."""
    s = new_game(players, 1)
    first = DECK_FIRST[D_MESSAGE]
    for seat in range(players):
        s.players[seat].hand[D_MESSAGE] = 0
    cards = iter(range(first, first + DECK_SIZES[D_MESSAGE]))
    for seat, n in hands.items():
        for _ in range(n):
            s.cards[next(cards)] = seat
            s.players[seat].hand[D_MESSAGE] += 1
    for _ in range(pile):
        s.cards[next(cards)] = PILE
    for c in cards:
        s.cards[c] = USED
    s.piles[D_MESSAGE] = pile
    check_state(s)
    return s


def deal_counts(s: State, viewer: int, samples: int, seed: int) -> collections.Counter[tuple[int, ...]]:
    rng, first = Rng(seed), DECK_FIRST[D_MESSAGE]
    return collections.Counter(
        tuple(s.determinize(viewer, rng).cards[first:first + DECK_SIZES[D_MESSAGE]]) for _ in range(samples))


def chi_square(counts: collections.Counter[tuple[int, ...]], cells: int) -> float:
    n = sum(counts.values())
    expected = n / cells
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in counts) + (cells - len(counts)) * expected


def test_deals_are_uniform_small_case() -> None:
    s = messages_spread(2, {1: 2}, 1)  # 3 unseen cards: 2 in seat 1's hand, 1 in the pile
    counts = deal_counts(s, 0, 3000, 1)
    assert len(counts) == 3
    assert chi_square(counts, 3) < CHI2_999[2]


def test_deals_are_uniform_over_thirty_deals() -> None:
    s = messages_spread(3, {0: 1, 1: 2, 2: 1}, 2)  # viewer 0 knows his card; 5 unseen: 2 + 1 + pile 2
    counts = deal_counts(s, 0, 6000, 2)
    deals = {p for p in itertools.permutations([1, 1, 2, PILE, PILE])}
    assert len(deals) == 30 and len(counts) == 30
    first = DECK_FIRST[D_MESSAGE]
    assert all(k[0] == 0 for k in counts) and s.cards[first] == 0  # his own card stays
    assert chi_square(counts, 30) < CHI2_999[29]


def test_a_draw_in_an_observation_takes_an_unseen_card() -> None:
    s = messages_spread(2, {1: 1}, 2).observation(0)
    rng = Rng(4)
    drawn = collections.Counter(s.copy().draw(D_MESSAGE, rng) for _ in range(3000))
    first = DECK_FIRST[D_MESSAGE]
    assert set(drawn) == {first, first + 1, first + 2}  # any unseen card: the pile's 2 or seat 1's
    assert chi_square(collections.Counter({(k,): v for k, v in drawn.items()}), 3) < CHI2_999[2]


def test_the_player_to_move_has_the_same_moves_in_every_determinization() -> None:
    """What ISMCTS relies on: the root player's choices never depend on hidden cards."""
    rng = Rng(3)
    for seed in range(4):
        s, play_rng = new_game(2 + seed, seed), Rng(seed)
        while not s.is_terminal:
            viewer = s.current_player
            assert s.determinize(viewer, rng).legal_action_ids() == s.legal_action_ids()
            assert s.observation(viewer).legal_action_ids() == s.legal_action_ids()
            legal = s.legal_moves()
            s = s.apply(legal[play_rng.below(len(legal))], play_rng)


def inference_cases(games: int) -> list[State]:
    """Negotiations of random games in which a message would have paid on entering: those
    the rules keep out of every hand."""
    found = []
    for seed in range(games):
        s, rng = new_game(2 + seed % 4, seed), Rng(seed)
        while not s.is_terminal:
            if s.paid_elsewhere() and any(s.cards[c] == PILE for c in s.paid_elsewhere()):
                found.append(s)
            legal = s.legal_moves()
            s = s.apply(legal[rng.below(len(legal))], rng)
    return found


def test_a_message_that_would_have_paid_is_never_dealt_to_a_hand() -> None:
    cases = inference_cases(40)
    assert len(cases) >= 10
    rng = Rng(2)
    for s in cases:
        for viewer in range(s.num_players):
            for _ in range(20):
                sample = s.determinize(viewer, rng)
                check_state(sample)
                assert all(sample.cards[c] == PILE for c in s.paid_elsewhere() if s.cards[c] == PILE)


def test_the_mover_s_hand_is_dealt_for_another_viewer() -> None:
    """A spectator's (or a bot's waiting for his turn) samples hold every seat's cards."""
    s = played(3, 5, 60)
    viewer = (s.current_player + 1) % 3
    sample = s.determinize(viewer, Rng(1))
    check_state(sample)
    for d in range(len(DECKS)):
        cards = range(DECK_FIRST[d], DECK_FIRST[d] + DECK_SIZES[d])
        assert sum(sample.cards[c] == s.current_player for c in cards) == s.players[s.current_player].hand[d]


def test_a_finished_game_shows_every_hand_but_not_the_piles() -> None:
    s, rng = new_game(2, 3), Rng(3)
    while not s.is_terminal:
        legal = s.legal_moves()
        s = s.apply(legal[rng.below(len(legal))], rng)
    seen = s.observation(0)
    assert [loc for loc in seen.cards if loc < PILE] == [loc for loc in s.cards if loc < PILE]
    assert PILE not in seen.cards and seen.scores() == s.scores()


def test_a_follower_takes_an_order_another_seat_delivers() -> None:
    """On seat 0's observation, seat 1's ``deliver`` of a card seat 0 could not see is
    legal when seat 1 may hold it: the card is then known face up."""
    rng = Rng(11)
    for seed in range(40):
        s, play = new_game(2, seed), Rng(seed)
        while not s.is_terminal:
            legal = s.legal_moves()
            move = legal[play.below(len(legal))]
            if move.kind == "deliver" and s.current_player == 1:
                seen = s.observation(0)
                assert move.id not in seen.legal_action_ids()
                after = seen.follow(str(move), rng, 0)
                assert after == s.apply(move, Rng(0), play_forced=False).observation(0)
                return
            s = s.apply(move, play)
    raise AssertionError("no delivery by seat 1 in 40 games")
