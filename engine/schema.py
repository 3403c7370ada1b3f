"""The declarative schema of a game's state vector: the one description of every cell.

Each game declares ``SCHEMAS`` in ``engine/<game>/schema.py``: one ``Schema`` per layout
version of its int32 state vector.  A schema is a table, in vector order, of ``Cell``\\ s
and the named cross-field consistency ``Rule``\\ s.  Everything about a cell is written
there once and read from there by every layer:

- the **field path** in the game's state message (``players[2].goods.corn``): rejections
  name it (``google.rpc.BadRequest``, the command line); a ``{seat}`` cell repeats per seat;
- the **offset** is the cell's place in the table (``Schema.index(path)``);
- the **attribute** (``attr``) is the state's field holding it, in both engines: the
  codecs and the C twin's encode/load are generated from it (``engine/layout.py``);
- the **kind** says how the proto field maps to the int32 (see ``KINDS``), with ``names``
  for the kinds that carry text (value ``first + names.index(text)``);
- the **range** ``lo..hi``: an int, a tuple by player count (``Schema.players[0]`` first),
  or ``Ref(path)``, the value of an earlier cell (colonists on plantations <= plantations);
  a cell of a ``seat`` beyond the player count must hold ``empty``;
- the **rules** are checked after every range, in the order listed, by the C decoder,
  the one validator of positions (the build generates its range table, layout
  constants and name tables as the header ``native/schema_<game>.h``: ``c_header``; the
  rejection's words are C's, see ``engine/native_check.py``); a rule names the cell a
  failure is reported at.

A new game writes its table with the helpers here (``cell``, ``counts``, ``per_seat``), adds
``SCHEMAS`` to its package and gets the vector's names, ranges and the C header (the
decoder's range checks) for free.  This module imports nothing but the standard library, so the build can
read the schemas before numpy or the engines are installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

#: How a cell's proto field maps to its int32:
KINDS = {
    "int": "an integer field, as is",
    "bool": "a bool field: 0 or 1",
    "enum": "a string field naming one of ``names``: first + its index ('' may be a name)",
    "mask": "a repeated string field of ``names``: bit i set when names[i] is listed",
    "count": "one entry of a counts message or map (a missing key is 0)",
    "entry": "the value of the entry keyed by the path's last part in a repeated message or "
             "map (absent: ``empty``)",
    "member": "1 when the path's last part is listed in a repeated string field, else 0",
    "length": "the number of entries of the repeated field at the path",
    "fixed": "not in the message: the value ``lo`` (= ``hi``) the layout fixes (its version)",
}

Bound = "int | tuple[int, ...] | Ref"


@dataclass(frozen=True)
class Ref:
    """A bound that is the value of another (earlier) cell; ``{seat}`` is this cell's seat."""

    path: str


@dataclass(frozen=True)
class Cell:
    """One int32 of the state vector."""

    path: str
    kind: str
    lo: int | tuple[int, ...] | Ref
    hi: int | tuple[int, ...] | Ref
    names: tuple[str, ...] = ()
    first: int = 0  # the value of names[0] (enum)
    seat: int | None = None  # the player whose record holds it (absent seats: ``empty``)
    empty: int = 0
    #: The state attribute holding it: the engine State's (or Player's) field and the C
    #: state's member, one name (``engine/layout.py``); default: the path's first field.
    attr: str = ""


@dataclass(frozen=True)
class Rule:
    """A named cross-field consistency rule, reported at the cell ``at``."""

    name: str
    at: str
    doc: str


@dataclass(frozen=True)
class Schema:
    """The state vector of one layout version of one game."""

    game: str
    version: int
    players: tuple[int, int]  # fewest and most players
    cells: tuple[Cell, ...]
    rules: tuple[Rule, ...] = ()
    #: Fixed texts a message repeats (path, text), e.g. a role card's name in card order.
    labels: tuple[tuple[str, str], ...] = ()
    #: Fields with presence of other layouts that must be unset in this one
    #: (``players[*].forests``: in every entry), and the error's words.
    foreign: tuple[str, ...] = ()
    foreign_note: str = ""
    #: Lists written with their non-empty entries only (``players[*].storage``), not one
    #: entry per slot of the player count (``vector_codec.write``).
    packed: tuple[str, ...] = ()
    #: Lists written with an entry for every cell, whatever the player count.
    full: tuple[str, ...] = ()
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update((c.path, i) for i, c in enumerate(self.cells))
        assert len(self._index) == len(self.cells), f"{self.game}: a path is listed twice"
        assert self.cells[0].path == "version" and self.cells[1].path == "players"
        for rule in self.rules:
            self.index(rule.at)

    @property
    def length(self) -> int:
        return len(self.cells)

    def names(self) -> tuple[str, ...]:
        """The field path of every index."""
        return tuple(c.path for c in self.cells)

    def index(self, path: str) -> int:
        """The offset of the cell at ``path``; KeyError naming it if there is none."""
        try:
            return self._index[path]
        except KeyError:
            raise KeyError(f"{self.game} v{self.version}: no cell {path!r}") from None

    def ranges(self, n: int) -> tuple[tuple[int, int, int], ...]:
        """``(lo, hi, bound)`` of every cell of an ``n``-player vector; ``bound`` >= 0 is
        the index whose value is the upper limit instead of ``hi``."""
        first, last = self.players
        assert first <= n <= last, n
        out = [(self.version, self.version, -1), (first, last, -1)]
        for c in self.cells[2:]:
            if c.seat is not None and c.seat >= n:
                out.append((c.empty, c.empty, -1))
                continue
            lo, hi = (self._value(c, b, n) for b in (c.lo, c.hi))
            assert lo[1] < 0, f"{c.path}: a lower bound is a number"
            out.append((lo[0], hi[0], hi[1]))
        return tuple(out)

    def _value(self, c: Cell, b: int | tuple[int, ...] | Ref, n: int) -> tuple[int, int]:
        if isinstance(b, Ref):
            at = self.index(b.path.format(seat=c.seat))
            assert at < self.index(c.path), f"{c.path}: bound {b.path} comes later"
            return 0, at
        if isinstance(b, tuple):
            return b[n - self.players[0]], -1
        return b, -1


def schema_for(schemas: Sequence[Schema], vector: Sequence[int]) -> Schema:
    """The layout of a state vector among a game's ``schemas``: by its version (cell 0)."""
    for schema in schemas:
        if schema.version == vector[0]:
            return schema
    raise ValueError(f"{schemas[0].game}: no layout version {vector[0]}")


# --------------------------------------------------------------- table helpers
def cell(path: str, lo: int | tuple[int, ...] | Ref, hi: int | tuple[int, ...] | Ref,
         kind: str = "int", **more: object) -> Cell:
    """One cell (``kind`` one of ``KINDS``)."""
    assert kind in KINDS, kind
    more.setdefault("attr", path.split(".")[0].split("[")[0])
    return Cell(path, kind, lo, hi, **more)  # type: ignore[arg-type]


def counts(path: str, keys: Iterable[str], lo: int, hi: Callable[[int], object] | object,
           kind: str = "count", **more: object) -> list[Cell]:
    """One cell per key under ``path`` (``path.key``); ``hi`` may be a function of the
    key's position."""
    return [cell(f"{path}.{k}", lo, hi(i) if callable(hi) else hi, kind, **more)  # type: ignore[arg-type]
            for i, k in enumerate(keys)]


def per_seat(seats: int, record: Callable[[], list[Cell]], prefix: str = "players") -> list[Cell]:
    """``record()``'s cells for every seat: paths under ``prefix[seat]``, ``{seat}`` in a
    Ref filled in, absent seats holding each cell's ``empty``."""
    return [replace(c, path=f"{prefix}[{p}].{c.path}", seat=p,
                    lo=_at_seat(c.lo, prefix, p), hi=_at_seat(c.hi, prefix, p))
            for p in range(seats) for c in record()]


def _at_seat(b: int | tuple[int, ...] | Ref, prefix: str, seat: int) -> int | tuple[int, ...] | Ref:
    return Ref(f"{prefix}[{seat}].{b.path}") if isinstance(b, Ref) else b


def by_players(first: int, last: int, value: Callable[[int], int]) -> tuple[int, ...]:
    """A bound by player count: ``value(n)`` for n = first..last."""
    return tuple(value(n) for n in range(first, last + 1))


# ------------------------------------------------------------------ C header
def c_header(prefix: str, schemas: Sequence[Schema], source: str,
             constants: dict[str, int] | None = None, names: dict[str, Sequence[str]] | None = None) -> str:
    """The C header of a game's schemas: per layout its version, length (the offsets are
    ``engine/layout.py``'s ``native/layout_<game>.h``), the range table by player count
    (``mm_range[players - min][length]``) and the ``mm_layout_check`` the decoder's first
    checks read (``<prefix>_V<version>_CHECK``, see native/mm_schema.h); ``constants`` are
    the game's rule constants C reads from here (``<prefix>_<NAME>``), ``names`` the name
    tables its rejections quote (``<prefix>_NAMES_<NAME>[]``)."""
    lines = [f"/* Generated from {source} by native/build_native.py: do not edit. */",
             f"#ifndef {prefix}_SCHEMA_H", f"#define {prefix}_SCHEMA_H", '#include "mm_schema.h"', ""]
    lines += [f"#define {prefix}_{name} {value}" for name, value in (constants or {}).items()]
    lines += [f"static const char *const {prefix}_NAMES_{name}[] = {{"
              + ", ".join('"%s"' % text for text in table) + "};" for name, table in (names or {}).items()]
    for s in schemas:
        tag = f"{prefix}_V{s.version}"
        first, last = s.players
        lines += [f"#define {tag}_VERSION {s.version}", f"#define {tag}_LEN {s.length}",
                  f"#define {tag}_MIN_PLAYERS {first}", f"#define {tag}_MAX_PLAYERS {last}"]
        lines.append(f"static const mm_range {tag}_RANGES[{last - first + 1}][{s.length}] = {{")
        for n in range(first, last + 1):
            absent = [c.seat if c.seat is not None and c.seat >= n else -1 for c in s.cells]
            lines.append("    {" + ", ".join("{%d, %d, %d, %d}" % (*r, seat)
                                              for r, seat in zip(s.ranges(n), absent)) + "},")
        lines += ["};", f"static const mm_layout_check {tag}_CHECK = "
                  f"{{{s.length}, {s.version}, {first}, {last}, &{tag}_RANGES[0][0]}};", ""]
    lines.append("#endif")
    return "\n".join(lines) + "\n"
