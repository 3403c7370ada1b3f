"""A reviewed move's mark (``MoveReview.mark``): the margin lost beyond the noise in shares
of its stake, and not for a trifle (``MARK_FLOOR`` of the review's mean stake)."""

from __future__ import annotations

import pytest

from meeplemind.client import MoveReview
from meeplemind.client.types import MARK_FLOOR, MARKS
from meeplemind.v1 import analysis_pb2


def _review(**fields: float) -> MoveReview:
    return MoveReview.from_proto(analysis_pb2.MoveReview(**fields))


@pytest.mark.parametrize("loss,noise,symbol", [(4.5, 0.5, "??"), (3.9, 0.0, "?"), (2.5, 0.5, "?"),
                                               (1.2, 0.2, "?!"), (0.9, 0.0, None), (0.0, 0.0, None)])
def test_a_move_is_marked_by_the_share_of_its_stake_lost_beyond_the_noise(loss: float, noise: float,
                                                                         symbol: str | None) -> None:
    mark = _review(margin_loss=loss, noise=noise, stake=2.0).mark(typical=1.0)
    assert (mark.symbol if mark else None) == symbol
    assert [m.share for m in MARKS] == sorted((m.share for m in MARKS), reverse=True)


def test_a_trifle_is_not_marked_nor_a_move_not_evaluated() -> None:
    trifle = _review(margin_loss=0.3, noise=0.0, stake=0.1)  # three stakes lost, but a trifle
    assert trifle.mark(typical=0.3 / MARK_FLOOR + 0.01) is None
    assert trifle.mark(typical=0.3 / MARK_FLOOR - 0.01) == MARKS[0]
    assert _review(stake=2.0).mark(typical=1.0) is None  # no margin loss: the move played had no visits
    assert _review(margin_loss=1.0, noise=0.0, stake=0.0).mark(typical=0.0) is None
