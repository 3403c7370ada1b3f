"""``SearchParams`` and ``Budget`` (search/params.py): the C parameters field for field, and
their checks."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from meeplemind.native import load
from meeplemind.search.ismcts import analyze, c_params
from meeplemind.search.params import Budget, SearchParams

#: The C fields a Budget fills (its ``max_nodes`` by the same name).
BUDGET_FIELDS = {"max_iterations", "max_ms", "max_cpu_ms", "max_nodes"}


def _c_fields() -> list[str]:
    ffi, _ = load()
    return [name for name, _ in ffi.typeof("mm_ismcts_params").fields]


def test_search_params_mirror_the_c_parameters_field_for_field() -> None:
    """Every C field is a SearchParams field of the same name, a Budget's or ``snapshot_ms``
    (progress reports); a new C field fails here until it has its place."""
    params = [f.name for f in dataclasses.fields(SearchParams)]
    assert set(_c_fields()) == set(params) | BUDGET_FIELDS | {"snapshot_ms"}
    assert [name for name in _c_fields() if name in params] == params  # in the C order


def test_the_c_struct_is_filled_from_every_field() -> None:
    fields = c_params(Budget(iterations=7, max_nodes=100, threads=2), SearchParams(viewer=1), None, 5, 1, 0.0)
    assert list(fields) == _c_fields()
    assert (fields["max_iterations"], fields["max_nodes"], fields["seed"], fields["viewer"]) == (3, 50, 6, 1)
    assert (fields["max_ms"], fields["max_cpu_ms"], fields["root_action"]) == (0.0, 0.0, None)  # 0: no limit


def test_a_budget_reads_its_defaults_and_threads_once() -> None:
    assert Budget() == Budget(iterations=1000)  # no limit given: the default iterations
    assert Budget(cpu_ms=10).iterations is None
    assert Budget(iterations=3, threads=8).threads == 3  # no more threads than iterations
    assert Budget(time_ms=50, threads=8).threads == 8


@pytest.mark.parametrize("kind, field, bad", [(Budget, "iterations", 0), (Budget, "cpu_ms", 0.5),
                                               (Budget, "threads", 65), (SearchParams, "viewer", -1),
                                               (SearchParams, "rollout_policy", "smart"),
                                               (SearchParams, "mast", 1.0), (SearchParams, "seed", 1.5)])
def test_a_bad_value_is_refused_when_made_naming_its_field(kind: type, field: str, bad: object) -> None:
    with pytest.raises(ValueError, match=f"^{field} must"):
        kind(**{field: bad})


def test_analyze_takes_a_budget_and_params_not_a_keyword_relay() -> None:
    parameters = inspect.signature(analyze).parameters
    assert list(parameters)[:3] == ["state", "budget", "params"] and len(parameters) <= 10
