"""A compact human-readable view of a Puerto Rico position (CLI logs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..seats import seat_name, seat_tag
from .data import BUILDINGS, GOODS, ROLES, VIOLET

if TYPE_CHECKING:
    from .state import State

_SHORT = {"corn": "C", "indigo": "I", "sugar": "S", "tobacco": "T", "coffee": "K"}


def _goods(counts: list[int]) -> str:
    return " ".join(f"{_SHORT[g]}{n}" for g, n in zip(GOODS, counts) if n) or "-"


def render(s: State) -> str:
    from .expansion import ExpansionState
    from .state import PHASES

    lines = [
        f"phase {PHASES[s.phase]}, {seat_name(s.current)} to move, governor {seat_name(s.governor)}"
        + (", game end triggered" if s.end_triggered else ""),
        f"colonists {s.colonist_supply} (ship {s.colonist_ship}), VP chips {s.vp_supply}, "
        f"quarries {s.quarry_supply}, supply {_goods(s.goods_supply)}, house {_goods(s.house)}",
        "ships " + ", ".join(f"{c}:{GOODS[k] if k >= 0 else 'empty'} {n}"
                             for c, k, n in zip(s.ship_capacity, s.ship_kind, s.ship_count))
        + f"; face-up {_goods(s.faceup)}",
        "roles " + ", ".join(f"{ROLES[r]}{'*' if t else ''}+{d}"
                             for r, (d, t) in enumerate(zip(s.role_doubloons, s.role_taken))),
    ]
    if isinstance(s, ExpansionState):
        lines.append(f"forests {s.forest_supply}, violet buildings "
                     + ", ".join(BUILDINGS[b].name for b in VIOLET if s.in_game[b]))
    for i, p in enumerate(s.players):
        city = ", ".join(f"{BUILDINGS[b].name}({c})" for b, c in enumerate(p.buildings) if c >= 0)
        island = (_goods(p.plantations) + (f" Q{p.quarries}" if p.quarries else "")
                  + (f" F{p.forests}" if p.forests else ""))
        lines.append(f"  {seat_tag(i)}: {p.doubloons}$ {p.vp_chips}vp goods {_goods(p.goods)} | island {island} "
                     f"| san juan {p.san_juan} | {city or 'no buildings'}")
    return "\n".join(lines)
