"""One codec for every game: a state message (protobuf) to its state vector, by walking
the game's schema (``engine/schema.py``).

``read(schema, message)`` writes every cell from the field its path names, converted by
its kind; nothing about a field is written here. What it checks is the message's shape
(names, keys, list lengths, fields of another layout); the ranges and the consistency
rules are the C decoder's (``positions/check.py``). Errors are
``PositionError`` naming the field path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from ..engine.errors import PositionError
from ..engine.schema import Cell, Schema

_TOKEN = re.compile(r"\.?([a-z_0-9]+)|\[(\d+)\]")
Reader = Callable[..., None]  # (message, out): appends the cells it reads to out
#: The state vector's int32 range.
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def read(schema: Schema, message: Any) -> list[int]:
    """The state vector of a state ``message`` in ``schema``'s layout."""
    out: list[int] = []
    for step in _plan(schema, message.DESCRIPTOR):
        step(message, out)
    return out


def _tokens(path: str) -> list[str | int]:
    return [name if name is not None and name != "" else int(index) for name, index in _TOKEN.findall(path)]


_PLANS: dict[tuple[int, str], list[Reader]] = {}


def _plan(schema: Schema, descriptor: Any) -> list[Reader]:
    key = (id(schema), descriptor.full_name)
    if key not in _PLANS:
        _PLANS[key] = _compile(schema, descriptor)
    return _PLANS[key]


def _compile(schema: Schema, descriptor: Any) -> list[Reader]:
    """Readers of runs of cells sharing a parent, in vector order."""
    steps: list[Reader] = [_presence_check(schema)] if schema.foreign else []
    steps += [_label(path, text) for path, text in schema.labels]
    run: list[Cell] = []
    parent: tuple[str | int, ...] | None = None
    for c in schema.cells:
        tokens = tuple(_tokens(c.path))
        if c.kind in ("fixed", "length"):
            mine: tuple[str | int, ...] | None = None
        else:
            mine = tokens[:-1]
        if run and (mine is None or mine != parent):
            steps.append(_group(schema, descriptor, parent, run))
            run = []
        if mine is None:
            steps.append(_single(schema, descriptor, c, tokens))
            parent = None
            continue
        parent = mine
        run.append(c)
    if run:
        steps.append(_group(schema, descriptor, parent, run))
    steps += _length_checks(schema, descriptor)
    return steps


def _single(schema: Schema, descriptor: Any, c: Cell, tokens: tuple[str | int, ...]) -> Reader:
    if c.kind == "fixed":
        value = c.lo
        assert isinstance(value, int) and c.lo == c.hi, c.path

        def fixed(m: Any, out: list[int]) -> None:
            out.append(value)
        return fixed
    names = [t for t in tokens if isinstance(t, str)]

    def length(m: Any, out: list[int]) -> None:
        for name in names:
            m = getattr(m, name)
        out.append(len(m))
    return length


def _field(descriptor: Any, tokens: tuple[str | int, ...]) -> tuple[Any, Any]:
    """(the descriptor of the field the tokens end on, the message type it lives in)."""
    field, owner = None, descriptor
    for t in tokens:
        if isinstance(t, int):
            continue
        field = owner.fields_by_name[t]
        owner = field.message_type if field.message_type is not None else owner
    return field, owner


def _resolver(tokens: tuple[str | int, ...]) -> Callable[[Any], Any]:
    """The object at a parent path, or None when a list index is past its end (runs of
    names are one ``attrgetter``)."""
    steps: list[Any] = []
    names: list[str] = []
    for t in tokens:
        if isinstance(t, int):
            if names:
                steps.append(attrgetter(".".join(names)))
                names = []
            steps.append(t)
        else:
            names.append(t)
    if names:
        steps.append(attrgetter(".".join(names)))
    if not steps:
        return lambda m: m
    if len(steps) == 1 and not isinstance(steps[0], int):
        return steps[0]  # type: ignore[no-any-return]

    def resolve(m: Any) -> Any:
        for step in steps:
            if step.__class__ is int:
                if step >= len(m):
                    return None
                m = m[step]
            else:
                m = step(m)
        return m
    return resolve


def _path(tokens: tuple[str | int, ...]) -> str:
    return "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in tokens).lstrip(".")


def _group(schema: Schema, descriptor: Any, parent: tuple[str | int, ...] | None, cells: list[Cell]) -> Reader:
    assert parent is not None
    resolve = _resolver(parent)
    field, _ = _field(descriptor, parent) if parent else (None, descriptor)
    where = _path(parent)
    leaves = [_tokens(c.path)[-1] for c in cells]
    convert = [_converter(c) for c in cells]
    empties = [c.empty for c in cells]
    whole = field is not None and isinstance(parent[-1], str)  # the field itself, not an entry of it
    nested = field.message_type if whole else None  # type: ignore[union-attr]
    is_map = nested is not None and nested.GetOptions().map_entry
    keyed = nested is not None and field.is_repeated and not is_map  # type: ignore[union-attr]
    if is_map or keyed:
        map_keys: dict[Any, int] = {}
        for i, leaf in enumerate(leaves):
            map_keys[leaf if not is_map or nested.fields_by_name["key"].type == 9 else int(leaf)] = i  # type: ignore[union-attr]
        entries = _entries(where, map_keys, field, keyed)

        def read_keyed(m: Any, out: list[int]) -> None:
            container = resolve(m)
            row = list(empties)
            if container is not None:
                for i, value in entries(container).items():
                    row[i] = convert[i](value)
            out.extend(row)
        return read_keyed
    if leaves == list(range(len(leaves))):  # entries 0.. of a repeated field (absent ones: empty)
        count, plain_items = len(leaves), all(conv is int for conv in convert)

        def read_items(m: Any, out: list[int]) -> None:
            container = resolve(m)
            items = container[:count] if container is not None else []
            if plain_items:
                out.extend(map(int, items))
            else:
                out.extend([conv(value) for conv, value in zip(convert, items)])
            out.extend(empties[len(items):])
        return read_items
    if cells[0].kind == "member":
        known = [c.path.rpartition(".")[2] for c in schema.cells
                 if c.kind == "member" and c.path.rpartition(".")[0] == where]

        def read_members(m: Any, out: list[int]) -> None:
            container = resolve(m)
            listed = list(container) if container is not None else []
            for n, name in enumerate(listed):
                if name not in known:
                    raise PositionError(f"{where}[{n}]", f"{name!r} is not one of {', '.join(map(repr, known))}")
                if name in listed[:n]:
                    raise PositionError(f"{where}[{n}]", f"{name} is listed twice")
            out.extend(int(leaf in listed) for leaf in leaves)
        return read_members

    get = attrgetter(*leaves) if len(leaves) > 1 else (lambda p, one=attrgetter(leaves[0]): (one(p),))  # type: ignore[arg-type]
    plain = all(conv is int for conv in convert)

    def read_fields(m: Any, out: list[int]) -> None:
        parent_message = resolve(m)
        if parent_message is None:
            out.extend(empties)
        elif plain:
            out.extend(map(int, get(parent_message)))
        else:
            out.extend([conv(value) for conv, value in zip(convert, get(parent_message))])
    return read_fields


def _entries(where: str, keys: dict[Any, int], field: Any, keyed: bool) -> Callable[[Any], dict[int, Any]]:
    """The values of a map, or of a repeated (key, value) message, by cell position;
    unknown and repeated keys are errors naming the entry."""
    if keyed:
        key_name, value_name = (f.name for f in field.message_type.fields[:2])

        def from_list(container: Any) -> dict[int, Any]:
            out: dict[int, Any] = {}
            for n, item in enumerate(container):
                k = getattr(item, key_name)
                if k not in keys:
                    raise PositionError(f"{where}[{n}].{key_name}", f"{k!r} is not one of "
                                        f"{', '.join(map(repr, keys))}")
                if keys[k] in out:
                    raise PositionError(f"{where}[{n}].{key_name}", f"{k} is listed twice")
                out[keys[k]] = getattr(item, value_name)
            return out
        return from_list

    def from_map(container: Any) -> dict[int, Any]:
        out: dict[int, Any] = {}
        for k, value in container.items():
            if k not in keys:
                raise PositionError(f"{where}[{k}]" if isinstance(k, int) else f"{where}.{k}", "unknown key")
            out[keys[k]] = value
        return out
    return from_map


def _converter(c: Cell) -> Callable[[Any], int]:
    """A proto value to the cell's int (its kind in ``schema.KINDS``)."""
    if c.names:
        index = {name: i + c.first for i, name in enumerate(c.names)}
        default = c.first  # "" is the proto3 default: the first name
        if c.kind == "mask":
            def mask(values: Any) -> int:
                bits = 0
                for name in values:
                    name = name if isinstance(name, str) else str(name)
                    if name not in index:
                        raise PositionError(c.path, f"{name!r} is not one of {', '.join(map(repr, c.names))}")
                    bits |= 1 << (index[name] - c.first)
                return bits
            return mask

        def name(value: Any) -> int:
            if value in index:
                return index[value]
            if value == "":
                return default
            raise PositionError(c.path, f"{value!r} is not one of {', '.join(map(repr, c.names))}")
        return name
    if c.first:
        def shifted(value: Any) -> int:
            cell_value = int(value) + c.first
            if not INT32_MIN <= cell_value <= INT32_MAX:  # the vector is int32: C's range check cannot see it
                raise PositionError(c.path, f"{value} is out of the field's range")
            return cell_value
        return shifted
    return int


def _label(path: str, text: str) -> Reader:
    """A fixed text the message repeats (a role card's name): checked where present."""
    head, _, name = path.rpartition(".")
    resolve = _resolver(tuple(_tokens(head)))

    def check(m: Any, out: list[int]) -> None:
        parent = resolve(m)
        if parent is not None and getattr(parent, name) != text:
            raise PositionError(path, f"expected {text!r} (listed in this order), got {getattr(parent, name)!r}")
    return check


def _presence_check(schema: Schema) -> Reader:
    """Fields with presence that ``schema``'s layout has no cell for (``schema.foreign``)
    must be unset: a base-game position carries none of the expansion's."""
    checks = []
    for path in schema.foreign:
        head, _, name = path.rpartition(".")
        every = head.endswith("[*]")
        checks.append((_resolver(tuple(_tokens(head.removesuffix("[*]")))), every, name, path))

    def check(m: Any, out: list[int]) -> None:
        for resolve, every, name, path in checks:
            parent = resolve(m)
            items = list(enumerate(parent)) if every else [(0, parent)]
            for n, item in items:
                if item is not None and item.HasField(name):
                    raise PositionError(path.replace("[*]", f"[{n}]"), schema.foreign_note)
    return check


def _length_checks(schema: Schema, descriptor: Any) -> list[Reader]:
    """Repeated fields longer than the layout has cells for are errors naming the field."""
    most: dict[tuple[str | int, ...], int] = {}
    for c in schema.cells:
        tokens = tuple(_tokens(c.path))
        for i, t in enumerate(tokens):
            if isinstance(t, int) and not (c.kind == "entry" and i == len(tokens) - 1):
                most[tokens[:i]] = max(most.get(tokens[:i], 0), t + 1)
    steps: list[Reader] = []
    for key, limit in most.items():
        if key == ("players",):
            continue  # the player count is a cell: its range names the problem
        resolve, where = _resolver(key), _path(key)

        def check(m: Any, out: list[int], resolve: Callable[[Any], Any] = resolve, limit: int = limit,
                  where: str = where) -> None:
            container = resolve(m)
            if container is not None and len(container) > limit:
                raise PositionError(where, f"at most {limit} entries, got {len(container)}")
        steps.append(check)
    return steps


# ------------------------------------------------------------------- writing
def write(schema: Schema, vector: Sequence[int], message: Any = None) -> Any:
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


_STRING = 9  # FieldDescriptor.TYPE_STRING
Writer = Callable[[Any, int, dict[tuple[str | int, ...], int]], None]
_WRITERS: dict[tuple[int, str], list[Writer | None]] = {}


def _message_class(schema: Schema) -> Any:
    """The state message type of ``schema``'s game: its field in ``Position``."""
    from google.protobuf import message_factory

    from ..v1 import position_pb2

    state = position_pb2.Position.DESCRIPTOR.fields_by_name[schema.game.replace("-", "_")].message_type
    assert state is not None  # a game's field in Position is its state message
    return message_factory.GetMessageClass(state)


def _writers(schema: Schema, descriptor: Any) -> list[Writer | None]:
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


def _open(message: Any, tokens: tuple[str | int, ...]) -> Any:
    """The message at a path, its entries and nested messages created (and set)."""
    m = message
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


def _value_writer(c: Cell) -> Callable[[int], Any]:
    """The cell's int to its proto value (the inverse of ``_converter``)."""
    if c.kind == "bool":
        return bool
    if c.kind == "mask":
        return lambda value: [name for i, name in enumerate(c.names) if value >> i & 1]
    if c.names:
        return lambda value: c.names[value - c.first]
    return lambda value: value - c.first


def _numbers_if_int(c: Cell, convert: Callable[[int], Any], field: Any) -> Callable[[int], Any]:
    """A mask's names of numbers ("1") as ints for a repeated int field."""
    if c.kind != "mask" or field.type == _STRING:
        return convert
    return lambda value: [int(x) for x in convert(value)]


def _writer(c: Cell, descriptor: Any) -> Writer | None:
    """How the cell's value goes into a message (None: it is not in the message)."""
    if c.kind == "fixed":
        return None
    tokens = tuple(_tokens(c.path))
    if c.kind == "length":
        def length(m: Any, value: int, lengths: dict[tuple[str | int, ...], int]) -> None:
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
        def member(m: Any, value: int, lengths: dict[tuple[str | int, ...], int]) -> None:
            if value and _present(head, lengths):
                getattr(_open(m, head[:-1]), str(head[-1])).append(leaf)
        return member
    if isinstance(leaf, int) and c.kind != "entry":  # an entry of a repeated scalar field
        def item(m: Any, value: int, lengths: dict[tuple[str | int, ...], int]) -> None:
            if _present(tokens, lengths):
                getattr(_open(m, head[:-1]), str(head[-1])).append(convert(value))
        return item
    if nested is not None and nested.GetOptions().map_entry:
        key = leaf if nested.fields_by_name["key"].type == _STRING else int(leaf)

        def to_map(m: Any, value: int, lengths: dict[tuple[str | int, ...], int]) -> None:
            if value != c.empty and _present(head, lengths):
                getattr(_open(m, head[:-1]), str(head[-1]))[key] = convert(value)
        return to_map
    if nested is not None and field is not None and field.is_repeated:  # a repeated (key, value) message
        key_name, value_name = (f.name for f in nested.fields[:2])
        convert = _numbers_if_int(c, convert, nested.fields[1])

        def keyed(m: Any, value: int, lengths: dict[tuple[str | int, ...], int]) -> None:
            if value != c.empty and _present(head, lengths):
                getattr(_open(m, head[:-1]), str(head[-1])).add(**{key_name: leaf, value_name: convert(value)})
        return keyed
    name = str(leaf)
    mask = c.kind == "mask"
    convert = _numbers_if_int(c, convert, _field(descriptor, tokens)[0])

    def scalar(m: Any, value: int, lengths: dict[tuple[str | int, ...], int]) -> None:
        if not keys or _present(tokens, lengths):
            parent = _open(m, head)
            if mask:
                getattr(parent, name).extend(convert(value))
            else:
                setattr(parent, name, convert(value))
    return scalar
