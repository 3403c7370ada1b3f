"""The state vector's field paths are the position message's fields, and the declarative
schema (once the one-schema boundary is in) describes the same vector as the codec."""

from __future__ import annotations

from typing import Any

import pytest

from meeplemind.engine import PositionError
from meeplemind.engine.traders_of_genoa import codec, new_game
from meeplemind.engine.traders_of_genoa.data import PLAYER_COUNTS


def test_every_vector_field_is_a_field_of_the_position_message() -> None:
    from meeplemind.v1 import position_pb2, traders_of_genoa_pb2

    message = traders_of_genoa_pb2.TradersOfGenoaState.DESCRIPTOR
    player = message.fields_by_name["players"].message_type
    assert position_pb2.Position.DESCRIPTOR.fields_by_name["traders_of_genoa"].message_type is message
    for path in codec.LAYOUT[2:]:
        head, _, rest = path.partition(".")
        name = head.partition("[")[0]
        assert name in message.fields_by_name, path
        if name == "players":
            assert rest.partition(".")[0] in player.fields_by_name, path


def test_the_schema_describes_the_codec_vector() -> None:
    from meeplemind.engine import get_game, schema
    from meeplemind.engine.traders_of_genoa.schema import SCHEMAS, V2
    from meeplemind.positions import accept

    assert SCHEMAS == (V2,) and isinstance(V2, schema.Schema)
    assert V2.names() == codec.LAYOUT and V2.length == codec.VECTOR_LEN
    for n in PLAYER_COUNTS:  # the C decoder checks every cell against this table
        valid = codec.encode(new_game(n, seed=n))
        for i, (lo, hi, bound) in enumerate(V2.ranges(n)[2:], start=2):
            assert bound == -1, codec.LAYOUT[i]
            v = valid.copy()
            v[i] = hi + 1
            with pytest.raises(PositionError) as e:
                accept(get_game("traders-of-genoa"), v)
            assert (e.value.path, e.value.problem.partition(" (")[0]) == (codec.LAYOUT[i], f"{hi + 1} is above {hi}")


def _message(s: Any) -> Any:
    """The TradersOfGenoaState of a state, written field by field (the test's oracle)."""
    from meeplemind.engine.traders_of_genoa.board import square_name
    from meeplemind.engine.traders_of_genoa.data import BUILDING_NAMES, CARD_NAMES, DECKS, GOODS, NUM_BUILDINGS, SPECIALS
    from meeplemind.engine.traders_of_genoa.data import LOCATIONS, UNSEEN
    from meeplemind.engine.traders_of_genoa.state import STAGES
    from meeplemind.v1 import traders_of_genoa_pb2

    def name(names: tuple[str, ...], i: int) -> str:
        return names[i] if i >= 0 else ""

    def named(names: tuple[str, ...], values: list[int]) -> dict[str, int]:
        return {names[i]: n for i, n in enumerate(values) if n}

    m = traders_of_genoa_pb2.TradersOfGenoaState(
        start_player=s.start_player, owner=s.owner, round=s.round, stage=STAGES[s.stage], to_move=s.to_move,
        site=name(BUILDING_NAMES, s.site), actor=s.actor, delivered=s.delivered,
        base=square_name(s.base) if s.base >= 0 else "", last_mark=name(BUILDING_NAMES, s.last_mark),
        used_discs=[str(i + 1) for i in range(5) if s.used_discs >> i & 1], acquirer=s.acquirer,
        ousted=s.ousted, path=[square_name(q) for q in s.path],
        supply=named(GOODS, s.supply), special_supply=named(SPECIALS, s.special_supply),
        cards={CARD_NAMES[c]: LOCATIONS[loc] for c, loc in enumerate(s.cards) if loc != UNSEEN},
        piles=named(DECKS, s.piles))
    for q, ducats in enumerate(s.offer_ducats):
        m.offers.add(ducats=ducats, goods=named(GOODS, s.offer_goods[q]), specials=named(SPECIALS, s.offer_specials[q]),
                     markers=s.offer_markers[q],
                     target=square_name(s.offer_target[q]) if s.offer_target[q] >= 0 else "")
    m.offered_cards.extend(CARD_NAMES[c] for c in range(len(CARD_NAMES)) if s.offered_cards[c])
    for b in range(NUM_BUILDINGS):
        if s.marks[b]:
            m.marks.add(building=BUILDING_NAMES[b], seats=[q for q in range(5) if s.marks[b] >> q & 1])
    for p in s.players:
        m.players.add(ducats=p.ducats, goods=named(GOODS, p.goods), specials=named(SPECIALS, p.specials),
                      markers=p.markers, reserve=p.reserve, hand=named(DECKS, p.hand), actions=p.actions)
    return m


def test_the_generic_codec_reads_positions_to_the_engine_vector() -> None:
    from meeplemind.positions import vector_codec
    from meeplemind.engine import Rng
    from meeplemind.engine.traders_of_genoa import new_game
    from meeplemind.engine.traders_of_genoa.schema import V2

    for seed in range(4):
        s, rng = new_game(2 + seed, seed), Rng(seed)
        while True:
            for view in (s, s.observation(0)):
                assert vector_codec.read(V2, _message(view)) == view.encode().tolist()
            if s.is_terminal:
                break
            legal = s.legal_moves()
            s = s.apply(legal[rng.below(len(legal))], rng)
