"""The native position readers (``mm_read_checked``) against the general path, shared by
the tests and runnable under the sanitizer build::

    MEEPLEMIND_NATIVE=asan python -m tests.native.wire_support --game puerto-rico --mutants 3000

The general path is how the service reads any position: the message's JSON mapping,
``from_dict`` without its consistency checks, then the native decoder (``check_native``).
The native reader may refuse what the general path accepts (the service then takes the
general path), but whatever it accepts the general path must accept with the same state
vector. Positions of played games from every seat, mutants of their messages (fields set
to boundary values and other names, fields cleared or set, list entries removed, added,
repeated or swapped) and mutants of their bytes (bit flips, cuts, inserted and repeated
bytes, unknown and repeated fields) all go through both.

Prints one JSON summary line and exits 0, or raises (exit 1) on the first disagreement.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from meeplemind.engine import PositionError, castles_of_burgundy, get_game
from meeplemind.engine.castles_of_burgundy.data import COLOURS, PHASE_NAMES, TILE_NAMES
from meeplemind.engine.puerto_rico.data import BUILDINGS, GOODS, ROLES
from meeplemind.engine.puerto_rico.expansion import GIVE_CATEGORIES
from meeplemind.engine.puerto_rico.state import PHASES
from meeplemind.native import NativeGame
from meeplemind.search.ismcts import check_native
from meeplemind.server.convert import message_to_dict, position_to_proto

from . import native_support as support

#: The profiles whose games have a native reader.
READ_NATIVELY = ("castles-of-burgundy", "puerto-rico", "puerto-rico+new-buildings")
NAMES = (*GOODS, *PHASES, *ROLES, *(b.name for b in BUILDINGS), *GIVE_CATEGORIES, "quarry", "none",
         "new-buildings", *TILE_NAMES, *PHASE_NAMES, *castles_of_burgundy.state.STAGES, *COLOURS, "first",
         "second", "", "corn ", "Corn", "x", "statue\x00")
NUMBERS = (-(1 << 31), -1000, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 31, 100, 1000, (1 << 31) - 1)


def positions(name: str, games: int, seed: int, every: int = 1) -> list[Message]:
    """State messages of every ``every``-th position of ``games`` C-played games, each
    seen by every seat."""
    prof = support.profile(name)
    native, engine = NativeGame(prof.game_id), prof.engine
    out = []
    for vector in support.corpus(native, prof, games, seed)[::every]:
        state = engine.decode(vector)
        for viewer in range(state.num_players):
            position = position_to_proto(state, viewer)
            out.append(getattr(position, position.WhichOneof("state")))
    return out


def general_vector(game_id: str, message: Message) -> np.ndarray | None:
    """The general path's checked state vector of a state message, or None if it refuses it."""
    try:
        return check_native(get_game(game_id).from_dict(message_to_dict(message), check=False))
    except PositionError:
        return None


def agree(native: NativeGame, message: Message, data: bytes | None = None) -> str:
    """Read ``message`` (or its bytes ``data``) both ways; fail unless whatever the native
    reader accepts the general path accepts alike. Returns the outcome: ``both``,
    ``general`` (only the general path accepts), ``neither``."""
    read = native.read_checked(message.SerializeToString() if data is None else data)
    general = general_vector(native.game_id, message)
    if read is not None:
        assert general is not None, f"read natively, refused by the general path: {message_to_dict(message)}"
        assert np.array_equal(read[0], general), f"the two vectors differ: {message_to_dict(message)}"
        return "both"
    return "general" if general is not None else "neither"


# ------------------------------------------------------------------ message mutants
def _messages(message: Message) -> Iterator[Message]:
    """``message`` and every message under it."""
    yield message
    for field, value in message.ListFields():
        if field.message_type is None or field.message_type.GetOptions().map_entry:
            continue
        for item in value if field.is_repeated else (value,):
            yield from _messages(item)


def _mutate(message: Message, rnd: random.Random) -> None:
    """One change to a random field of a random message under ``message``."""
    target = rnd.choice(list(_messages(message)))
    field = rnd.choice(target.DESCRIPTOR.fields)
    name = field.name
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        _mutate_map(getattr(target, name), field.message_type, rnd)
    elif field.is_repeated:
        items = getattr(target, name)
        kind = rnd.randrange(4)
        if kind == 0 and len(items):
            del items[rnd.randrange(len(items))]
        elif kind == 1 and len(items):
            item = items[rnd.randrange(len(items))]
            if field.message_type is None:
                items.append(item)
            else:
                items.add().CopyFrom(item)
        elif kind == 2 and len(items) > 1:
            i, j = rnd.sample(range(len(items)), 2)
            if field.message_type is None:
                items[i], items[j] = items[j], items[i]
            else:
                a, b = type(items[i])(), type(items[j])()
                a.CopyFrom(items[i])
                b.CopyFrom(items[j])
                items[i].CopyFrom(b)
                items[j].CopyFrom(a)
        elif field.message_type is None:
            items.append(rnd.choice(NAMES) if field.type == FieldDescriptor.TYPE_STRING else rnd.choice(NUMBERS))
        else:
            items.add()
    elif field.message_type is not None:
        target.ClearField(name)
    elif field.has_presence and target.HasField(name) and rnd.random() < 0.3:
        target.ClearField(name)
    elif field.type == FieldDescriptor.TYPE_STRING:
        setattr(target, name, rnd.choice(NAMES))
    elif field.type == FieldDescriptor.TYPE_BOOL:
        setattr(target, name, not getattr(target, name))
    else:
        value = getattr(target, name)
        setattr(target, name, rnd.choice((*NUMBERS, value - 1, value + 1)))


def _mutate_map(entries: Any, entry: Any, rnd: random.Random) -> None:
    """Remove a key, or set one (known or not) to a value."""
    if len(entries) and rnd.random() < 0.4:
        del entries[rnd.choice(list(entries))]
        return
    key, value = entry.fields_by_name["key"], entry.fields_by_name["value"]
    number = lambda: rnd.choice(NUMBERS) if rnd.random() < 0.2 else rnd.choice(NUMBERS[1:-1]) % 40  # noqa: E731
    pick = {FieldDescriptor.TYPE_STRING: lambda: rnd.choice(NAMES)}
    if value.type == FieldDescriptor.TYPE_STRING:
        existing = list(entries)
        k = rnd.choice(existing) if existing and rnd.random() < 0.5 else pick.get(key.type, number)()
        entries[k] = rnd.choice(NAMES)
    else:
        k = pick.get(key.type, number)()
        entries[k] = rnd.choice((*NUMBERS[1:-1], 0, 1, 2))


def message_mutants(base: list[Message], count: int, rnd: random.Random) -> Iterator[Message]:
    for _ in range(count):
        mutant = type(base[0])()
        mutant.CopyFrom(rnd.choice(base))
        for _ in range(rnd.choice((1, 1, 1, 2, 3))):
            try:
                _mutate(mutant, rnd)
            except ValueError:  # a value the field cannot hold (out of int32)
                pass
        yield mutant


def extreme_keys(base: Message) -> Iterator[Message]:
    """``base`` with each integer-keyed map (wherever it is) given the key INT32_MIN, then
    INT32_MAX: the keys whose arithmetic overflows first."""
    for path, target in enumerate(_messages(base)):
        for field in target.DESCRIPTOR.fields:
            entry = field.message_type
            if entry is None or not entry.GetOptions().map_entry or \
                    entry.fields_by_name["key"].type == FieldDescriptor.TYPE_STRING:
                continue
            for key in (NUMBERS[0], NUMBERS[-1]):
                mutant = type(base)()
                mutant.CopyFrom(base)
                entries = getattr(list(_messages(mutant))[path], field.name)
                value = entry.fields_by_name["value"]
                entries[key] = NAMES[0] if value.type == FieldDescriptor.TYPE_STRING else 1
                yield mutant


# -------------------------------------------------------------------- byte mutants
def byte_mutants(base: list[bytes], count: int, rnd: random.Random) -> Iterator[bytes]:
    """Bit flips, cuts, inserted, removed and repeated bytes, random bytes, and whole
    fields appended again or under an unknown number."""
    for _ in range(count):
        data = bytearray(rnd.choice(base))
        kind = rnd.randrange(7)
        if kind == 0:
            for _ in range(rnd.randint(1, 4)):
                data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
        elif kind == 1:
            del data[rnd.randrange(len(data)):]
        elif kind == 2:
            at = rnd.randrange(len(data) + 1)
            data[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 6)))
        elif kind == 3:
            at = rnd.randrange(len(data))
            del data[at:at + rnd.randint(1, 8)]
        elif kind == 4:
            a = rnd.randrange(len(data))
            data += data[a:a + rnd.randint(1, 40)]
        elif kind == 5:
            data = bytearray(rnd.randrange(256) for _ in range(rnd.randint(0, 64)))
        else:  # a field again, or an unknown field (number 99, a varint or a string)
            data += rnd.choice((b"\x98\x06\x07", b"\x9a\x06\x03abc", b"\x10\x01", b"\x18\x00", b"\x1a\x04role"))
        yield bytes(data)


def run(name: str, games: int, mutants: int, byte_mutants_count: int, seed: int = 1) -> dict[str, int]:
    """Every position of ``games`` games, ``mutants`` message mutants and
    ``byte_mutants_count`` byte mutants, read both ways; returns the outcome counts."""
    prof = support.profile(name)
    native, rnd = NativeGame(prof.game_id), random.Random(seed)
    base = positions(name, games, seed)
    counts: dict[str, int] = {"positions": len(base)}
    for message in base:
        assert agree(native, message) == "both", f"a valid position not read natively: {message_to_dict(message)}"
    for mutant in itertools.chain(extreme_keys(base[-1]), message_mutants(base, mutants, rnd)):
        outcome = agree(native, mutant)
        counts[f"mutant_{outcome}"] = counts.get(f"mutant_{outcome}", 0) + 1
    serialized = [m.SerializeToString() for m in base]
    for data in byte_mutants(serialized, byte_mutants_count, rnd):
        if native.read_checked(data) is None:
            counts["bytes_refused"] = counts.get("bytes_refused", 0) + 1
            continue
        try:
            message = type(base[0]).FromString(data)
        except DecodeError:  # not a message at all: the service never reads such bytes
            counts["bytes_not_a_message"] = counts.get("bytes_not_a_message", 0) + 1
            continue
        assert agree(native, message, data) == "both"
        counts["bytes_read"] = counts.get("bytes_read", 0) + 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, choices=READ_NATIVELY)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--mutants", type=int, default=3000)
    parser.add_argument("--bytes", type=int, default=20_000)
    args = parser.parse_args()
    print(json.dumps(run(args.game, args.games, args.mutants, args.bytes)))


if __name__ == "__main__":
    main()
