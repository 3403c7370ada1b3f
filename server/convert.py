"""Conversion between the wire messages and the engines' and the search's Python objects.

A Position is read by the game's schema into its state vector (``engine.position``:
``from_message``, ``state_vector``); positions going out are written from the dict a
position file holds (``dict_to_message``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import grpc
import numpy as np
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from ..engine import PositionError, game_ids, get_game
from ..engine.position import from_message, state_key, to_position
from ..engine.position import state_vector as read_state_vector
from ..search.ismcts import Analysis, MoveInfo
from ..v1 import analysis_pb2, position_pb2, result_pb2
from .errors import ServiceError, quoted

def stop_reason_to_proto(name: str) -> int:
    """The StopReason of a search's ``stopped_by`` ("cpu_time" is STOP_REASON_CPU_TIME)."""
    return analysis_pb2.StopReason.Value(f"STOP_REASON_{name.upper()}")


def message_to_dict(message: Message) -> dict[str, Any]:
    """The proto3 JSON mapping of ``message`` with proto field names and every default
    printed, its keys in field-number order (as ``json.dumps`` of a position file)."""
    data = json_format.MessageToDict(message, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)
    return _in_field_order(data, message.DESCRIPTOR)


def dict_to_message(data: dict[str, Any], message: Message) -> Message:
    """``message`` filled from ``data`` shaped as by ``message_to_dict`` (trusted: unknown
    fields raise KeyError), field by field where ``message_to_dict`` reads so."""
    plan = _plan(message.DESCRIPTOR)
    if plan is None:
        return json_format.ParseDict(data, message)
    fields = message.DESCRIPTOR.fields_by_name
    for name, value in data.items():
        field = fields[name]
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            key = _MAP_KEYS_FROM_JSON[_map_keys(field.message_type.fields_by_name["key"])]
            getattr(message, name).update({key(k): v for k, v in value.items()})
        elif field.message_type is None:
            if field.is_repeated:
                getattr(message, name).extend(value)
            else:
                setattr(message, name, value)
        elif field.is_repeated:
            target = getattr(message, name)
            for item in value:
                dict_to_message(item, target.add())
        else:
            target = getattr(message, name)
            target.SetInParent()
            dict_to_message(value, target)
    return message


class _Field(NamedTuple):
    """How ``dict_to_message`` writes one field."""

    name: str
    nested: bool  # a message (else a plain scalar)
    repeated: bool
    presence: bool  # printed only when set
    map_keys: str = ""  # a map of plain values: how its keys print ("str", "int" or "bool")


#: A map's keys from their JSON text, by the type of its keys.
_MAP_KEYS_FROM_JSON: dict[str, Callable[[str], Any]] = {"str": str, "int": int, "bool": lambda k: k == "true"}


_PLAIN_TYPES = frozenset({FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BOOL,
                          FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32,
                          FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_UINT32,
                          FieldDescriptor.TYPE_FIXED32})


@functools.cache
def _plan(descriptor: Descriptor) -> tuple[_Field, ...] | None:
    """The fields of a message whose JSON mapping is its plain values (nested messages
    are planned on their own); None for messages with enums, bytes, floats, 64-bit
    integers, maps of anything else or well-known types, whose mappings need ``json_format``."""
    if _well_known(descriptor):
        return None
    plan = []
    for field in descriptor.fields:
        nested = field.message_type
        if nested is not None and nested.GetOptions().map_entry:
            key, value = nested.fields_by_name["key"], nested.fields_by_name["value"]
            if key.type not in _PLAIN_TYPES or value.type not in _PLAIN_TYPES:
                return None
            plan.append(_Field(field.name, False, False, False, _map_keys(key)))
            continue
        if nested is None and field.type not in _PLAIN_TYPES:
            return None
        if nested is not None and _well_known(nested):
            return None
        plan.append(_Field(field.name, nested is not None, field.is_repeated, field.has_presence))
    return tuple(plan)


def _map_keys(key: FieldDescriptor) -> str:
    """How a map's keys print in JSON: as they are (strings), or as the text of ints or bools."""
    return {FieldDescriptor.TYPE_STRING: "str", FieldDescriptor.TYPE_BOOL: "bool"}.get(key.type, "int")


def _well_known(descriptor: Descriptor) -> bool:
    return descriptor.full_name.startswith("google.protobuf.")


def _in_field_order(data: dict[str, Any], descriptor: Descriptor) -> dict[str, Any]:
    ordered: dict[str, Any] = {}
    for field in descriptor.fields:
        if field.name not in data:
            continue
        value = data[field.name]
        nested = field.message_type
        if nested is not None and not nested.GetOptions().map_entry:
            if isinstance(value, list):
                value = [_in_field_order(item, nested) for item in value]
            else:
                value = _in_field_order(value, nested)
        ordered[field.name] = value
    return ordered


def find_game(game_id: str, field: str) -> Any:
    """The engine module of ``game_id``: INVALID_ARGUMENT if empty, NOT_FOUND if unknown."""
    if not game_id:
        raise ServiceError.invalid(field, "missing (a game id such as 'puerto-rico')")
    if game_id not in game_ids():
        raise ServiceError.invalid(field, f"unknown game {quoted(game_id)} (known: {', '.join(game_ids())})",
                                   grpc.StatusCode.NOT_FOUND)
    return get_game(game_id)


def position_from_proto(position: position_pb2.Position, field: str = "position",
                        check: bool = True) -> tuple[Any, int]:
    """``(state, viewer)`` of a Position (``engine.position.from_message``: the schema reads
    the vector, the reference engine decodes it); errors name the field path under
    ``field``. An unknown game id is NOT_FOUND; anything else wrong is INVALID_ARGUMENT.
    ``check=False`` leaves the consistency checks to the native decoder of a search,
    whose errors ``position_error`` names the same way.
    """
    find_game(position.game, f"{field}.game")
    try:
        return from_message(position, check)
    except PositionError as e:
        raise position_error(e, field) from None


def state_vector(position: position_pb2.Position, field: str = "position") -> np.ndarray:
    """The state vector of a Position of a known game (``engine.position.state_vector``)."""
    try:
        return read_state_vector(position)
    except PositionError as e:
        raise position_error(e, field) from None


def position_error(error: PositionError, field: str = "position", game_id: str | None = None) -> ServiceError:
    """INVALID_ARGUMENT naming the field of ``error`` under ``field`` (and the game's
    state key when the path is relative to the game's state)."""
    path = error.path
    if game_id is not None:
        path = f"{state_key(game_id)}.{path}" if path else state_key(game_id)
    return ServiceError.invalid(f"{field}.{path}" if path else field, error.problem)


def position_to_proto(state: Any, viewer: int | None = None) -> position_pb2.Position:
    """The Position of ``state`` seen by ``viewer`` (default: the player to move)."""
    return dict_to_message(to_position(state, viewer), position_pb2.Position())


def result_to_proto(state: Any) -> result_pb2.GameResult | None:
    """The GameResult of a finished game's state; None while the game goes on."""
    if not state.is_terminal:
        return None
    r = state.result()
    return result_pb2.GameResult(scores=r.scores, tiebreaks=r.tiebreaks, winners=r.winners, ranks=r.ranks)


def result_from_proto(response: Any) -> dict[str, list[int]] | None:
    """A response's ``result`` as a dict shaped like ``dataclasses.asdict(GameResult)``;
    None when it has none (the game goes on)."""
    if not response.HasField("result"):
        return None
    r = response.result
    return {"scores": list(r.scores), "tiebreaks": list(r.tiebreaks), "winners": list(r.winners),
            "ranks": list(r.ranks)}


def move_to_proto(move: MoveInfo) -> analysis_pb2.MoveAnalysis:
    return analysis_pb2.MoveAnalysis(move=move.move, action=move.action, visits=move.visits,
                                     win_rate=move.win_rate, expected_scores=move.expected_scores,
                                     pv=move.pv)


def stats_to_proto(analysis: Analysis, *, final: bool, deadline_cut: bool) -> analysis_pb2.SearchStats:
    """The SearchStats of an analysis; a progress report (not ``final``) has no stop reason,
    and a time stop is a deadline stop when the deadline cut the time budget."""
    reason = analysis_pb2.STOP_REASON_UNSPECIFIED
    if final:
        reason = stop_reason_to_proto(analysis.stopped_by)
        if deadline_cut and reason == analysis_pb2.STOP_REASON_TIME:
            reason = analysis_pb2.STOP_REASON_DEADLINE
    stats = analysis_pb2.SearchStats(iterations=analysis.iterations, elapsed_ms=analysis.elapsed_ms,
                                     nodes=analysis.nodes, stop_reason=reason,
                                     root_value=analysis.root_value, cpu_ms=analysis.cpu_ms)
    if analysis.player is not None:
        stats.player = analysis.player
    return stats


def analysis_from_proto(moves: Any, stats: analysis_pb2.SearchStats) -> dict[str, Any]:
    """A wire analysis as a dict shaped like ``dataclasses.asdict(Analysis)``;
    ``stopped_by`` may also be ``"deadline"``."""
    reason = analysis_pb2.StopReason.Name(stats.stop_reason).removeprefix("STOP_REASON_").lower()
    return {
        "moves": [{"move": m.move, "action": m.action, "visits": m.visits, "win_rate": m.win_rate,
                   "expected_scores": list(m.expected_scores), "pv": list(m.pv)} for m in moves],
        "iterations": stats.iterations,
        "elapsed_ms": stats.elapsed_ms,
        "cpu_ms": stats.cpu_ms,
        "nodes": stats.nodes,
        "stopped_by": reason,
        "root_value": stats.root_value,
        "player": stats.player if stats.HasField("player") else None,
    }
