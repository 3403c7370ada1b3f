"""A layout's cells bound to the state that holds them, for both twins.

Every cell of a schema (``engine/schema.py``) names the state attribute holding it
(``Cell.attr``: one name for the engine's ``State``/``Player`` field and the C struct's
member); the cells of one attribute, in vector order, are its elements (a scalar when
there is one).  From that binding:

- ``c_layout`` writes the C twin's ``native/layout_<game>.h``: the offset of every
  attribute's first cell (``<prefix>_O_<ATTR>``; in a player's record ``<prefix>_P_<ATTR>``,
  the record at ``<prefix>_PLAYERS_AT``), per layout version where the versions differ
  (``<prefix>_V<n>_O_<ATTR>``, -1 when absent), the step between the elements of an
  attribute whose cells interleave with others' (``<prefix>_STRIDE_<ATTR>``: a ship's
  capacity, good and count; of a grid, a list of lists like the goods of every seat's
  offer, the step between its rows), and the load/store tables as X-macros
  (``<prefix>_V<n>_STATE(ONE, MANY)``, ``..._PLAYER(ONE, MANY)``) its encode and load
  expand into straight-line copies;
- ``Binding`` is the engine's codec: ``encode`` a State into the vector, ``decode`` a
  vector into its State's fields, by the same table.

A new cell costs its schema line (with its ``attr``), its proto field and the rules
that use it (docs/positions.md).  This module imports the standard library only (the
build runs it before numpy is installed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .schema import Cell, Schema

#: The cell holding the player count: the length of ``State.players`` in the engine,
#: the member ``players`` in C.
PLAYERS = "players"


@dataclass(frozen=True)
class Block:
    """The cells of one attribute: their offsets (a player's relative to its record)."""

    attr: str
    at: tuple[int, ...]
    cells: tuple[Cell, ...]

    @property
    def cols(self) -> int:
        """A grid's row length (a list of lists, like the goods of every seat's offer:
        rows of evenly spaced cells, the rows evenly spaced), else the cell count.  A row
        ends where the step between cells first changes; ValueError if they fit neither."""
        at, steps = self.at, [b - a for a, b in zip(self.at, self.at[1:])]
        cols = next((i + 1 for i, step in enumerate(steps) if step != steps[0]), len(at))
        if cols < len(at) and (len(at) % cols or [at[0] + r * (at[cols] - at[0]) + c * self.step
                                                  for r in range(len(at) // cols) for c in range(cols)] != list(at)):
            raise ValueError(f"{self.attr}: cells at {at} are neither evenly spaced nor rows")
        return cols

    @property
    def step(self) -> int:
        """The step between the cells of a row (of a flat list: between its elements)."""
        return self.at[1] - self.at[0] if len(self.at) > 1 else 1

    @property
    def stride(self) -> int:
        """The step between elements: a flat list's cells, a grid's rows."""
        cols = self.cols
        return self.at[cols] - self.at[0] if cols < len(self.at) else self.step


def blocks(schema: Schema, record: bool) -> tuple[Block, ...]:
    """The attributes of the globals (``record`` False) or of seat 0's record (offsets
    from its first cell), in order of their first cell."""
    if record:
        cells = [(i, c) for i, c in enumerate(schema.cells) if c.seat == 0]
        base = cells[0][0] if cells else 0
    else:
        cells = [(i, c) for i, c in enumerate(schema.cells) if c.seat is None]
        base = 0
    found: dict[str, list[tuple[int, Cell]]] = {}
    for i, c in cells:
        found.setdefault(c.attr, []).append((i - base, c))
    return tuple(Block(attr, tuple(i for i, _ in pairs), tuple(c for _, c in pairs))
                 for attr, pairs in found.items())


def players_at(schema: Schema) -> tuple[int, int]:
    """The first cell of seat 0's record and a record's length (0, 0 without records)."""
    seat = [i for i, c in enumerate(schema.cells) if c.seat == 0]
    return (seat[0], len(seat)) if seat else (0, 0)


# ------------------------------------------------------------------------- C
def _identifier(attr: str) -> str:
    return attr.upper()


def _offsets(schema: Schema, record: bool) -> dict[str, int]:
    return {b.attr: b.at[0] for b in blocks(schema, record)}


def c_layout(prefix: str, schemas: Sequence[Schema], source: str, computed: Sequence[str] = ()) -> str:
    """The C header of a game's layouts (see the module's docstring).  ``computed`` are
    the attributes the C state keeps in another form (a bit set, a value it derives):
    they have offsets but no entry in the load/store tables, and the C twin's encode and
    load handle them by those offsets.  A fixed cell (the version) has an offset only."""
    lines = [f"/* Generated from {source} by native/build_native.py (engine/layout.py): do not edit. */",
             f"#ifndef {prefix}_LAYOUT_H", f"#define {prefix}_LAYOUT_H", ""]
    for record, letter in ((False, "O"), (True, "P")):
        tables = [_offsets(s, record) for s in schemas]
        attrs = list(dict.fromkeys(a for t in tables for a in t))
        for attr in attrs:
            at = {t[attr] for t in tables if attr in t}
            if len(at) == 1 and all(attr in t for t in tables):
                lines.append(f"#define {prefix}_{letter}_{_identifier(attr)} {at.pop()}")
                continue
            for s, t in zip(schemas, tables):
                lines.append(f"#define {prefix}_V{s.version}_{letter}_{_identifier(attr)} {t.get(attr, -1)}")
    strides = {b.attr: b.stride for s in schemas for r in (False, True) for b in blocks(s, r) if b.stride > 1}
    lines += [f"#define {prefix}_STRIDE_{_identifier(attr)} {step}" for attr, step in strides.items()]
    for s in schemas:
        tag = f"{prefix}_V{s.version}"
        first, size = players_at(s)
        lines += ["", f"#define {tag}_PLAYERS_AT {first}", f"#define {tag}_PLAYER_LEN {size}"]
        for record, name in ((False, "STATE"), (True, "PLAYER")):
            entries = []
            for b in blocks(s, record):
                if b.attr in computed or all(c.kind == "fixed" for c in b.cells):
                    continue
                if len(b.at) == 1:
                    entries.append(f"ONE({b.attr}, {b.at[0]})")
                elif b.cols == len(b.at):
                    entries.append(f"MANY({b.attr}, {b.at[0]}, {len(b.at)}, {b.stride})")
                else:  # a grid: a row at a time
                    entries += [f"MANY({b.attr}[{r}], {b.at[0] + r * b.stride}, {b.cols}, {b.step})"
                                for r in range(len(b.at) // b.cols)]
            lines.append(f"#define {tag}_{name}(ONE, MANY) " + " ".join(entries))
    lines += ["", "#endif", ""]
    return "\n".join(lines)


# -------------------------------------------------------------------- engine
def _kinds(cls: type) -> dict[str, str]:
    """A dataclass's init fields and their annotations (as written)."""
    return {f.name: str(f.type) for f in dataclasses.fields(cls) if f.init}


def _default(cls: type, attr: str) -> list[Any] | None:
    for f in dataclasses.fields(cls):
        if f.name == attr and f.default_factory is not dataclasses.MISSING:
            value = f.default_factory()
            return value if isinstance(value, list) else None
    return None


@dataclass(frozen=True)
class _Field:
    """How one attribute is read from the vector: its cells ``v[at:stop:step]`` (from
    the record's start), as a scalar, a bool or a list (of bools); a grid's rows of
    ``cols`` cells ``cell_step`` apart start every ``step``."""

    attr: str
    at: int
    stop: int
    step: int
    kind: str  # "int", "bool", "list", "list[bool]", "grid" (list[list[int]]) or "raw" (computed)
    sized: bool  # a list the State starts empty: only its present elements
    pad: tuple[Any, ...]  # the default's elements beyond the cells
    field: bool  # an init field (else a property, like the player to move: encoded only)
    cols: int = 1  # a grid's row length
    cell_step: int = 1  # a grid's step between the cells of a row


class Binding:
    """One layout's cells bound to a game's ``State`` and ``Player`` dataclasses.

    ``computed`` gives the value of an attribute that is not a plain field (a game's
    options dict holding one cell); ``decode`` hands it back raw.  A list's elements are
    its attribute's cells in order.  Decoding a list the State starts empty keeps the
    elements up to the last present one (a cell fixed at its ``empty`` value for the
    player count is absent: roles not in play, ships, seats), and a list longer than its
    cells (a base game's 23 of 37 buildings) is filled up with its default's tail."""

    def __init__(self, schema: Schema, state: type, player: type,
                 computed: Mapping[str, Callable[[Any], int]] | None = None) -> None:
        self.schema, self.state, self.player = schema, state, player
        self.computed = dict(computed or {})
        kinds = {False: _kinds(state), True: _kinds(player)}
        fixed = [b for b in blocks(schema, False) if all(c.kind == "fixed" for c in b.cells)
                 and b.attr not in kinds[False]]  # the version
        self.globals = tuple(b for b in blocks(schema, False) if b.attr != PLAYERS and b not in fixed)
        self.record = blocks(schema, True)
        self.players_at, self.player_len = players_at(schema)
        self._fields = {record: tuple(self._field(b, kinds[record], cls) for b in bs)
                        for record, cls, bs in ((False, state, self.globals), (True, player, self.record))}
        self._start = [c.lo if c.kind == "fixed" and isinstance(c.lo, int) else c.empty for c in schema.cells]
        first, last = schema.players
        self._present = {n: self._count_present(n) for n in range(first, last + 1)}

    def _field(self, b: Block, kinds: Mapping[str, str], cls: type) -> _Field:
        written = kinds.get(b.attr, "")
        kind = "raw" if b.attr in self.computed else written if written in ("bool", "list[bool]") \
            else "grid" if written.startswith("list[list") else "list" if written.startswith("list") else "int"
        default = _default(cls, b.attr)
        cols = b.cols if kind == "grid" else 1
        return _Field(b.attr, b.at[0], b.at[-1] + 1, b.stride, kind, default == [],
                      tuple(default[len(b.at) // cols:]) if default else (),
                      b.attr in kinds or b.attr in self.computed, cols, b.step)

    def _count_present(self, n: int) -> dict[bool, dict[str, int]]:
        """Of every list, the elements an ``n``-player position holds (by record or not)."""
        ranges: Sequence[tuple[int, int, int]] = self.schema.ranges(n)
        out: dict[bool, dict[str, int]] = {False: {}, True: {}}
        for record, base, bs in ((False, 0, self.globals), (True, self.players_at, self.record)):
            for b, f in zip(bs, self._fields[record]):
                present = [i for i, (at, c) in enumerate(zip(b.at, b.cells))
                           if ranges[base + at][:2] != (c.empty, c.empty)]
                out[record][b.attr] = present[-1] // f.cols + 1 if present else 0
        return out

    def encode(self, s: Any) -> list[int]:
        """The vector of ``s``: every cell from its attribute, absent seats and
        elements at their cells' ``empty`` value (bools as they are: 0 and 1)."""
        v = list(self._start)
        v[1] = len(s.players)
        self._store(s, self._fields[False], 0, v)
        for seat, p in enumerate(s.players):
            self._store(p, self._fields[True], self.players_at + seat * self.player_len, v)
        return v

    def _store(self, obj: Any, fields: Sequence[_Field], base: int, v: list[int]) -> None:
        for f in fields:
            value: Any = self.computed[f.attr](obj) if f.kind == "raw" else getattr(obj, f.attr)
            if f.kind in ("int", "bool") or not isinstance(value, list):
                v[base + f.at] = value
                continue
            at = base + f.at
            count = (f.stop - f.at + f.step - 1) // f.step
            value = value[:count]
            if f.kind == "grid":
                for row in value:
                    v[at:at + len(row) * f.cell_step:f.cell_step] = row
                    at += f.step
                continue
            v[at:at + len(value) * f.step:f.step] = value

    def decode(self, v: Sequence[int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The State's fields (``players`` excluded) and each present seat's Player
        fields of an accepted vector ``v``."""
        n = v[1]
        present = self._present[n]
        fields = self._load(v, self._fields[False], 0, present[False])
        seats = [self._load(v, self._fields[True], self.players_at + seat * self.player_len, present[True])
                 for seat in range(n)]
        return fields, seats

    @staticmethod
    def _load(v: Sequence[int], fields: Sequence[_Field], base: int, present: Mapping[str, int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields:
            if not f.field:
                continue
            if f.kind == "int":
                out[f.attr] = v[base + f.at]
            elif f.kind == "bool":
                out[f.attr] = bool(v[base + f.at])
            elif f.kind == "grid":
                rows = range(base + f.at, base + f.stop, f.step)
                grid = [list(v[at:at + f.cols * f.cell_step:f.cell_step]) for at in rows]
                out[f.attr] = grid[:present[f.attr]] if f.sized else grid
            else:
                values: list[Any] = list(v[base + f.at:base + f.stop:f.step])
                if f.sized:
                    values = values[:present[f.attr]]
                elif f.pad:
                    values += f.pad
                out[f.attr] = values[0] if f.kind == "raw" and len(values) == 1 else \
                    [bool(x) for x in values] if f.kind == "list[bool]" else values
        return out
