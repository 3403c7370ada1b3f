"""One codec for every game: a state message (protobuf) to its state vector, by walking
the game's schema (``engine/schema.py``).

``read(schema, message)`` writes every cell from the field its path names, converted by
its kind; nothing about a field is written here. What it checks is the message's shape
(names, keys, list lengths, fields of another layout); the ranges and the consistency
rules are the C decoder's (``positions/check.py``). Errors are ``PositionError`` naming
the field path. A layout's reader is compiled from its schema once, at its first use,
into one Python function (``_Compiler``): a position is read by one call, without a step
per field (docs/positions.md).
"""

from __future__ import annotations

import functools
import keyword
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from ..engine.errors import PositionError
from ..engine.schema import Cell, Schema

if TYPE_CHECKING:
    from google._upb._message import Descriptor as UpbDescriptor
    from google._upb._message import FieldDescriptor as UpbFieldDescriptor

_TOKEN = re.compile(r"\.?([a-z_0-9]+)|\[(\d+)\]")
#: The state vector's int32 range.
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
#: A field path as its names and list indexes (``players[2].goods``: players, 2, goods).
Path = tuple[str | int, ...]
#: What a state message's scalar fields hold, and a map's or keyed list's keys.
Scalar = int | bool | str
Key = int | str
#: A message type's descriptor (protobuf's Python one or upb's).
MessageType: TypeAlias = "Descriptor | UpbDescriptor"
FieldType: TypeAlias = "FieldDescriptor | UpbFieldDescriptor"
#: A proto value (a scalar, or a mask's repeated names) to its cell's int.
Converter = Callable[[Any], int]
#: A compiled reader: a state message's vector.
ReadMessage = Callable[[Message], list[int]]
#: A map's, keyed list's or member list's cells (the container None: past a list's end).
ReadEntries = Callable[[Any], list[int]]  # its container: a map, a list of messages or of names
_STRING = FieldDescriptor.TYPE_STRING
_INTEGER_TYPES = frozenset({FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_INT64,
                            FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_UINT64})


def read(schema: Schema, message: Message) -> list[int]:
    """The state vector of a state ``message`` in ``schema``'s layout."""
    return _reader(schema, message.DESCRIPTOR)(message)


def _tokens(path: str) -> list[str | int]:
    return [name if name is not None and name != "" else int(index) for name, index in _TOKEN.findall(path)]


_READERS: dict[tuple[int, str], ReadMessage] = {}


def _reader(schema: Schema, descriptor: MessageType) -> ReadMessage:
    """``schema``'s reader of ``descriptor``'s messages, compiled at its first use."""
    key = (id(schema), descriptor.full_name)
    if key not in _READERS:
        _READERS[key] = _Compiler(schema, descriptor).reader()
    return _READERS[key]


class _Compiler:
    """The reader of one layout written as one Python function and compiled once: every
    parent message or list on a cell's path is looked up once (into a local, None when a
    list index on the way is past its end), a run of plain fields under one parent is read
    as one tuple, and whatever may need words for an error (names, keys, members, labels,
    fields of another layout, list lengths) is read by the helpers below. The cells are read
    in vector order; the list lengths are checked last."""

    def __init__(self, schema: Schema, descriptor: MessageType) -> None:
        self.schema, self.descriptor = schema, descriptor
        self.lines: list[str] = []
        self.objects: dict[str, object] = {}
        self.local: dict[Path, str] = {(): "m"}

    def reader(self) -> ReadMessage:
        schema = self.schema
        for path in schema.foreign:
            self.foreign(path)
        for path, text in schema.labels:
            self.label(path, text)
        run: list[Cell] = []
        parent: Path | None = None
        for c in schema.cells:
            tokens = tuple(_tokens(c.path))
            mine = None if c.kind in ("fixed", "length") else tokens[:-1]
            if run and mine != parent:
                self.group(parent, run)
                run = []
            if mine is None:
                self.single(c, tokens)
            else:
                run.append(c)
            parent = mine
        if run:
            self.group(parent, run)
        self.length_checks()
        source = "def read(m):\n    out = []\n" + "".join(f"    {line}\n" for line in self.lines) + "    return out\n"
        namespace = dict(self.objects)
        exec(compile(source, f"<{schema.game} v{schema.version} reader>", "exec"), namespace)
        function: ReadMessage = namespace["read"]  # type: ignore[assignment]  # the function just compiled
        return function

    def name(self, value: object) -> str:
        """The name the reader's code calls ``value`` by."""
        name = f"k{len(self.objects)}"
        self.objects[name] = value
        return name

    def guard(self, tokens: Path) -> str:
        """The test, followed by ``and``, that the object at ``tokens`` is there ("" if it always is)."""
        return f"{self.at(tokens)} is not None and " if _may_be_none(tokens) else ""

    def at(self, tokens: Path) -> str:
        """The local holding the object at ``tokens``, looked up where first needed."""
        if tokens not in self.local:
            parent, last, guard = self.at(tokens[:-1]), tokens[-1], self.guard(tokens[:-1])
            if isinstance(last, int):
                value = f"{parent}[{last}] if {guard}len({parent}) > {last} else None"
            elif guard:
                value = f"{_attribute(parent, last)} if {parent} is not None else None"
            else:
                value = _attribute(parent, last)
            self.local[tokens] = f"v{len(self.local)}"
            self.lines.append(f"{self.local[tokens]} = {value}")
        return self.local[tokens]

    def foreign(self, path: str) -> None:
        """A field with presence that the layout has no cell for (``Schema.foreign``) must be
        unset (in every entry of a list: ``players[*].forests``)."""
        head, _, name = path.rpartition(".")
        tokens = tuple(_tokens(head.removesuffix("[*]")))
        parent, guard = self.at(tokens), self.guard(tokens)
        fail = self.name(functools.partial(_foreign, path, self.schema.foreign_note))
        if head.endswith("[*]"):
            self.lines.append(f"for n, item in enumerate({parent} if {guard}True else ()):")
            self.lines.append(f"    if item.HasField({name!r}): {fail}(n)")
        else:
            self.lines.append(f"if {guard}{parent}.HasField({name!r}): {fail}(0)")

    def label(self, path: str, text: str) -> None:
        """A fixed text the message repeats (a role card's name): checked where present."""
        head, _, name = path.rpartition(".")
        tokens = tuple(_tokens(head))
        parent = self.at(tokens)
        value = _attribute(parent, name)
        self.lines.append(f"if {self.guard(tokens)}{value} != {text!r}: "
                          f"{self.name(functools.partial(_not_label, path, text))}({value})")

    def single(self, c: Cell, tokens: Path) -> None:
        if c.kind == "fixed":
            assert isinstance(c.lo, int) and c.lo == c.hi, c.path
            self.lines.append(f"out.append({c.lo})")
        else:  # the length of the repeated field at the path
            self.lines.append(f"out.append(len({self.at(tuple(t for t in tokens if isinstance(t, str)))}))")

    def group(self, parent: Path | None, cells: list[Cell]) -> None:
        """The code reading a run of cells that share a parent."""
        assert parent is not None
        field, owner = _field(self.descriptor, parent) if parent else (None, self.descriptor)
        leaves = [_tokens(c.path)[-1] for c in cells]
        convert = [_converter(c) for c in cells]
        empties = tuple(c.empty for c in cells)
        nested = field.message_type if field is not None and isinstance(parent[-1], str) else None
        container = self.at(parent)
        if field is not None and nested is not None and (nested.GetOptions().map_entry or field.is_repeated):
            self.lines.append(f"out += {self.name(_entries(_path(parent), field, leaves, cells))}({container})")
        elif leaves == list(range(len(leaves))):  # entries 0.. of a repeated scalar field (absent ones: empty)
            assert field is not None
            present = f" if {container} is not None else ()" if _may_be_none(parent) else ""
            self.lines.append(f"items = {container}[:{len(leaves)}]{present}")
            if all(conv is int for conv in convert):
                self.lines.append("out += items" if _integer(field) else "out += map(int, items)")
            elif all(isinstance(conv, _Names) for conv in convert):
                self.lines.append(f"out += [names[value] for names, value in zip({self.name(convert)}, items)]")
            else:
                self.lines.append(f"out += [convert(value) for convert, value in zip({self.name(convert)}, items)]")
            self.lines.append(f"out += {self.name(empties)}[len(items):]")
        elif cells[0].kind == "member":
            known = [c.path.rpartition(".")[2] for c in self.schema.cells
                     if c.kind == "member" and c.path.rpartition(".")[0] == _path(parent)]
            self.lines.append(f"out += {self.name(_members(_path(parent), known, leaves))}({container})")
        else:  # fields of one message
            values = []
            for leaf, conv in zip(leaves, convert):
                assert isinstance(leaf, str), leaf
                value = _attribute(container, leaf)
                if isinstance(conv, _Names):
                    value = f"{self.name(conv)}[{value}]"
                elif conv is not int:
                    value = f"{self.name(conv)}({value})"
                elif not _integer(owner.fields_by_name[leaf]):
                    value = f"int({value})"
                values.append(value)
            tuple_ = f"({', '.join(values)},)"
            if _may_be_none(parent):
                tuple_ = f"{tuple_} if {container} is not None else {self.name(empties)}"
            self.lines.append(f"out += {tuple_}")

    def length_checks(self) -> None:
        """Repeated fields longer than the layout has cells for are errors naming the field."""
        most: dict[Path, int] = {}
        for c in self.schema.cells:
            tokens = tuple(_tokens(c.path))
            for i, t in enumerate(tokens):
                if isinstance(t, int) and not (c.kind == "entry" and i == len(tokens) - 1):
                    most[tokens[:i]] = max(most.get(tokens[:i], 0), t + 1)
        for key, limit in most.items():
            if key == ("players",):
                continue  # the player count is a cell: its range names the problem
            container = self.at(key)
            self.lines.append(f"if {self.guard(key)}len({container}) > {limit}: "
                              f"{self.name(_too_long)}({_path(key)!r}, {limit}, len({container}))")


def _may_be_none(tokens: Path) -> bool:
    """Whether the object at ``tokens`` may be missing: a list index on the way."""
    return any(isinstance(t, int) for t in tokens)


def _attribute(owner: str, name: str) -> str:
    return f"getattr({owner}, {name!r})" if keyword.iskeyword(name) else f"{owner}.{name}"


def _integer(field: FieldType) -> bool:
    """Whether the field holds ints (its values need no ``int``)."""
    return field.cpp_type in _INTEGER_TYPES


def _too_long(where: str, limit: int, got: int) -> NoReturn:
    raise PositionError(where, f"at most {limit} entries, got {got}")


def _field(descriptor: MessageType, tokens: Path) -> tuple[FieldType | None, MessageType]:
    """(the descriptor of the field the tokens end on, the message type it lives in)."""
    field, owner = None, descriptor
    for t in tokens:
        if isinstance(t, int):
            continue
        field = owner.fields_by_name[t]
        owner = field.message_type if field.message_type is not None else owner
    return field, owner


def _entries(where: str, field: FieldType, leaves: Sequence[str | int], cells: Sequence[Cell]) -> ReadEntries:
    """The cells of a map, or of a repeated (key, value) message, in cell order (a missing
    key: the cell's ``empty``); unknown and repeated keys are errors naming the entry."""
    entry = field.message_type
    assert entry is not None
    key_field, value_field = entry.fields[:2]
    keys = [leaf if key_field.type == _STRING else int(leaf) for leaf in leaves]
    position = {k: i for i, k in enumerate(keys)}
    convert = [_converter(c) for c in cells]
    empties = [c.empty for c in cells]
    plain = all(conv is int for conv in convert) and _integer(value_field)

    if entry.GetOptions().map_entry:
        def from_map(container: Mapping[Key, Scalar] | None) -> list[int]:
            out = list(empties)
            if container is None:
                return out
            for k in list(container):  # a upb map's keys, read at once
                i = position.get(k)
                if i is None:
                    raise PositionError(f"{where}[{k}]" if isinstance(k, int) else f"{where}.{k}", "unknown key")
                out[i] = container[k] if plain else convert[i](container[k])  # type: ignore[assignment]  # plain: ints
            return out
        return from_map
    key_name, value_name = key_field.name, value_field.name

    def from_list(container: Sequence[Message] | None) -> list[int]:
        out, listed = list(empties), set()
        for n, item in enumerate(container if container is not None else ()):
            k = getattr(item, key_name)
            i = position.get(k)
            if i is None:
                raise PositionError(f"{where}[{n}].{key_name}", f"{k!r} is not one of {', '.join(map(repr, keys))}")
            if i in listed:
                raise PositionError(f"{where}[{n}].{key_name}", f"{k} is listed twice")
            listed.add(i)
            out[i] = convert[i](getattr(item, value_name))
        return out
    return from_list


def _members(where: str, known: Sequence[str], leaves: Sequence[str | int]) -> ReadEntries:
    """1 for every leaf listed in a repeated string field, else 0; a name not ``known`` or
    listed twice is an error naming the entry."""
    known_set = frozenset(known)

    def read_members(container: Sequence[str] | None) -> list[int]:
        listed: set[str] = set()
        for n, name in enumerate(container if container is not None else ()):
            if name not in known_set:
                raise PositionError(f"{where}[{n}]", f"{name!r} is not one of {', '.join(map(repr, known))}")
            if name in listed:
                raise PositionError(f"{where}[{n}]", f"{name} is listed twice")
            listed.add(name)
        return [int(leaf in listed) for leaf in leaves]
    return read_members


def _path(tokens: Path) -> str:
    return "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in tokens).lstrip(".")


def _converter(c: Cell) -> Converter:
    """A proto value to the cell's int (its kind in ``schema.KINDS``)."""
    if c.names:
        index = {name: i + c.first for i, name in enumerate(c.names)}
        default = c.first  # "" is the proto3 default: the first name
        if c.kind == "mask":
            def mask(values: Iterable[Scalar]) -> int:
                bits = 0
                for name in values:
                    name = name if isinstance(name, str) else str(name)
                    if name not in index:
                        raise PositionError(c.path, f"{name!r} is not one of {', '.join(map(repr, c.names))}")
                    bits |= 1 << (index[name] - c.first)
                return bits
            return mask
        return _Names({"": default} | index, c)
    if c.first:
        def shifted(value: Scalar) -> int:
            cell_value = int(value) + c.first
            if not INT32_MIN <= cell_value <= INT32_MAX:  # the vector is int32: C's range check cannot see it
                raise PositionError(c.path, f"{value} is out of the field's range")
            return cell_value
        return shifted
    return int


class _Names(dict[str, int]):
    """A named cell's proto value to its int (the proto3 default "" is the first name): a
    lookup, subscripted by the compiled reader (no call) or called; a value that is none of
    the names is a PositionError naming the cell's field."""

    def __init__(self, index: dict[str, int], c: Cell) -> None:
        super().__init__(index)
        self.cell = c

    def __missing__(self, value: object) -> NoReturn:
        names = self.cell.names
        raise PositionError(self.cell.path, f"{value!r} is not one of {', '.join(map(repr, names))}")

    __call__ = dict.__getitem__


def _foreign(path: str, note: str, entry: int) -> NoReturn:
    raise PositionError(path.replace("[*]", f"[{entry}]"), note)


def _not_label(path: str, text: str, got: str) -> NoReturn:
    raise PositionError(path, f"expected {text!r} (listed in this order), got {got!r}")


# ------------------------------------------------------------------- writing
def write(schema: Schema, vector: Sequence[int], message: Message | None = None) -> Message:
    """The state message of a state ``vector`` in ``schema``'s layout (into ``message``,
    empty, if given): the inverse of ``read``. Lists hold the entries the player count
    gives slots to (roles, ships, seats; ``Schema.packed`` lists only their non-empty
    entries, ``Schema.full`` lists all), maps only the entries that differ from the cell's ``empty``, and every
    field of the layout is set, so the JSON prints as the reference engine's position."""
    v = [int(x) for x in vector]
    if message is None:
        message = _message_class(schema)()
    n = v[1]
    writers = _writers(schema, message.DESCRIPTOR)
    lengths = _list_lengths(schema, v, n)
    for path, text in schema.labels:
        tokens = tuple(_tokens(path))
        if _present(tokens[:-1], lengths):
            setattr(_open(message, tokens[:-1]), str(tokens[-1]), text)
    for c, put, value in zip(schema.cells, writers, v):
        if put is not None and (c.seat is None or c.seat < n):
            put(message, value, lengths)
    return message


#: How many entries each list of the message gets, by its path.
Lengths = dict[Path, int]
#: Writes a cell's value into a message.
Writer = Callable[[Message, int, Lengths], None]
#: A cell's value as its field holds it.
ProtoValue = Scalar | list[str] | list[int]
_WRITERS: dict[tuple[int, str], list[Writer | None]] = {}


def _message_class(schema: Schema) -> type[Message]:
    """The state message type of ``schema``'s game: its field in ``Position``."""
    from google.protobuf import message_factory

    from ..v1 import position_pb2

    state = position_pb2.Position.DESCRIPTOR.fields_by_name[schema.game.replace("-", "_")].message_type
    assert state is not None  # a game's field in Position is its state message
    return message_factory.GetMessageClass(state)


def _writers(schema: Schema, descriptor: MessageType) -> list[Writer | None]:
    key = (id(schema), descriptor.full_name)
    if key not in _WRITERS:
        _WRITERS[key] = [_writer(c, descriptor) for c in schema.cells]
    return _WRITERS[key]


def _list_keys(c: Cell) -> list[tuple[tuple[str | int, ...], int]]:
    """(the list's path, the index) of every list entry the cell lies in (a map's key is none)."""
    tokens = tuple(_tokens(c.path))
    return [(tokens[:i], t) for i, t in enumerate(tokens)
            if isinstance(t, int) and not (c.kind == "entry" and i == len(tokens) - 1)]


ListKey = tuple[str | int, ...]
_LIST_PLANS: dict[tuple[int, int], tuple[dict[ListKey, int], list[tuple[int, int, tuple[tuple[ListKey, int], ...]]]]] = {}


def _list_lengths(schema: Schema, v: list[int], n: int) -> dict[ListKey, int]:
    """How many entries each list of the message gets: up to the last one with a cell
    that holds a value or (unless the list is ``packed``) has a slot in an ``n``-player
    game (its range is not fixed at its ``empty``; every entry of a ``full`` list)."""
    key = (id(schema), n)
    if key not in _LIST_PLANS:
        _LIST_PLANS[key] = _list_plan(schema, n)
    slots, by_value = _LIST_PLANS[key]
    out = dict(slots)
    for i, empty, entries in by_value:
        if v[i] != empty:
            for path, index in entries:
                if out[path] <= index:
                    out[path] = index + 1
    return out


def _list_plan(schema: Schema, n: int) -> tuple[dict[ListKey, int], list[tuple[int, int, tuple[tuple[ListKey, int], ...]]]]:
    """(the list lengths the slots of an ``n``-player game give, and the cells whose value
    decides an entry: (index, empty, the entries it lies in))."""
    packed = {tuple(_tokens(p.replace("[*]", ""))) for p in schema.packed}
    full = {tuple(_tokens(p.replace("[*]", ""))) for p in schema.full}
    slots: dict[ListKey, int] = {("players",): n}
    by_value = []
    for i, (c, (lo, hi, bound)) in enumerate(zip(schema.cells, schema.ranges(n))):
        if c.kind == "fixed":
            continue
        valued = []
        for path, index in _list_keys(c):
            if path == ("players",):
                continue
            bare = tuple(t for t in path if isinstance(t, str))
            if bare in full or (bare not in packed and not (bound < 0 and lo == hi == c.empty)):
                slots[path] = max(slots.get(path, 0), index + 1)
            else:
                slots.setdefault(path, 0)
                valued.append((path, index))
        if valued:
            by_value.append((i, c.empty, tuple(valued)))
    return slots, by_value


def _present(tokens: tuple[str | int, ...], lengths: dict[tuple[str | int, ...], int]) -> bool:
    """Whether every list entry on the path is written."""
    return all(t < lengths.get(tokens[:i], 0) for i, t in enumerate(tokens) if isinstance(t, int))


def _open(message: Message, tokens: Path) -> Any:  # a message, list or map, by name: protobuf's types are dynamic
    """The message at a path, its entries and nested messages created (and set)."""
    m: Any = message
    for t in tokens:
        if isinstance(t, int):
            while len(m) <= t:
                m.add()
            m = m[t]
        else:
            m = getattr(m, t)
            if hasattr(m, "SetInParent"):
                m.SetInParent()
    return m


def _value_writer(c: Cell) -> Callable[[int], ProtoValue]:
    """The cell's int to its proto value (the inverse of ``_converter``)."""
    if c.kind == "bool":
        return bool
    if c.kind == "mask":
        return lambda value: [name for i, name in enumerate(c.names) if value >> i & 1]
    if c.names:
        return lambda value: c.names[value - c.first]
    return lambda value: value - c.first


def _numbers_if_int(c: Cell, convert: Callable[[int], ProtoValue], field: FieldType | None) -> Callable[[int], ProtoValue]:
    """A mask's names of numbers ("1") as ints for a repeated int field."""
    if c.kind != "mask" or field is None or field.type == _STRING:
        return convert

    def numbers(value: int) -> list[int]:
        names = convert(value)
        assert isinstance(names, list)  # a mask's names
        return [int(x) for x in names]
    return numbers


def _writer(c: Cell, descriptor: MessageType) -> Writer | None:
    """How the cell's value goes into a message (None: it is not in the message)."""
    if c.kind == "fixed":
        return None
    tokens = tuple(_tokens(c.path))
    if c.kind == "length":
        def length(m: Message, value: int, lengths: Lengths) -> None:
            container = _open(m, tokens)
            while len(container) < value:
                container.add()
        return length
    head, leaf = tokens[:-1], tokens[-1]
    keys = _list_keys(c)
    convert = _value_writer(c)
    field, _ = _field(descriptor, head) if head else (None, descriptor)
    nested = field.message_type if field is not None and isinstance(head[-1], str) else None
    if c.kind == "member":
        def member(m: Message, value: int, lengths: Lengths) -> None:
            if value and _present(head, lengths):
                getattr(_open(m, head[:-1]), str(head[-1])).append(leaf)
        return member
    if isinstance(leaf, int) and c.kind != "entry":  # an entry of a repeated scalar field
        def item(m: Message, value: int, lengths: Lengths) -> None:
            if _present(tokens, lengths):
                getattr(_open(m, head[:-1]), str(head[-1])).append(convert(value))
        return item
    if nested is not None and nested.GetOptions().map_entry:
        key = leaf if nested.fields_by_name["key"].type == _STRING else int(leaf)

        def to_map(m: Message, value: int, lengths: Lengths) -> None:
            if value != c.empty and _present(head, lengths):
                getattr(_open(m, head[:-1]), str(head[-1]))[key] = convert(value)
        return to_map
    if nested is not None and field is not None and field.is_repeated:  # a repeated (key, value) message
        key_name, value_name = (f.name for f in nested.fields[:2])
        convert = _numbers_if_int(c, convert, nested.fields[1])

        def keyed(m: Message, value: int, lengths: Lengths) -> None:
            if value != c.empty and _present(head, lengths):
                getattr(_open(m, head[:-1]), str(head[-1])).add(**{key_name: leaf, value_name: convert(value)})
        return keyed
    name = str(leaf)
    mask = c.kind == "mask"
    convert = _numbers_if_int(c, convert, _field(descriptor, tokens)[0])

    def scalar(m: Message, value: int, lengths: Lengths) -> None:
        if not keys or _present(tokens, lengths):
            parent = _open(m, head)
            if mask:
                getattr(parent, name).extend(convert(value))
            else:
                setattr(parent, name, convert(value))
    return scalar
