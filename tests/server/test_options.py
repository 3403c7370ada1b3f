"""``new_game`` options have one parser (``engine.parse_options``, from each game's
``OPTION_VALUES``): ``NewGame`` and ``meeplemind new --option`` take and refuse the same texts
with the same words."""

from __future__ import annotations

import grpc
import pytest

from meeplemind.cli import main
from meeplemind.client.errors import field_violations
from meeplemind.engine import OptionError, game_ids, get_game, parse_options
from meeplemind.engine.game import SWITCH
from meeplemind.positions.messages import dumps, message_to_dict, to_position
from meeplemind.v1 import rules_pb2

from .conftest import Running

PR = get_game("puerto-rico").OPTION_VALUES


@pytest.mark.parametrize("text,value", [("true", True), ("Yes", True), ("1", True), ("ON", True),
                                        ("false", False), ("no", False), ("0", False), ("Off", False)])
def test_a_switch_reads_as_a_bool(text: str, value: bool) -> None:
    assert parse_options(PR, {"university_factory_swap": text}) == {"university_factory_swap": value}


def test_text_values_stay_text_and_are_checked() -> None:
    assert parse_options(PR, {"expansion": "new-buildings", "buildings": "anything"}) == {
        "expansion": "new-buildings", "buildings": "anything"}
    with pytest.raises(OptionError) as bad:
        parse_options(PR, {"expansion": "true"})
    assert (bad.value.name, bad.value.problem) == ("expansion", "'true' is not one of none, new-buildings")
    with pytest.raises(OptionError) as unknown:
        parse_options(get_game("castles-of-burgundy").OPTION_VALUES, {"swap": "1"})
    assert (unknown.value.name, unknown.value.problem) == ("swap", "unknown option (known: none)")


def test_every_declared_default_parses() -> None:
    for game_id in game_ids():
        declared = get_game(game_id).OPTION_VALUES
        for name, values in declared.items():
            if values is not None:
                default = parse_options(declared, {name: values[0]})[name]
                assert default == (False if values == SWITCH else values[0]), (game_id, name)


def test_every_variant_is_options_its_game_declares() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        for variant in game.VARIANTS:
            assert set(parse_options(game.OPTION_VALUES, variant)) == set(variant), (game_id, variant)


@pytest.mark.parametrize("options", [
    {"turbo": "true"}, {"university_factory_swap": "maybe"}, {"expansion": "seafarers"}, {"expansion": "TRUE"},
])
def test_the_service_and_the_command_line_refuse_alike(service: Running, capsys: pytest.CaptureFixture[str],
                                                       options: dict[str, str]) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        service.rules.NewGame(rules_pb2.NewGameRequest(game="puerto-rico", players=3, options=options))
    [(field, problem)] = field_violations(refused.value)
    (name, text), = options.items()
    assert main(["new", "puerto-rico", "--players", "3", "--option", f"{name}={text}"]) == 2
    assert field == f"options.{name}"
    assert capsys.readouterr().err == f"meeplemind new: error: --option {name}: {problem}\n"


@pytest.mark.parametrize("options", [{"university_factory_swap": "on"}, {"university_factory_swap": "0"},
                                     {"expansion": "new-buildings", "draft": "random"}])
def test_the_service_and_the_command_line_take_alike(service: Running, capsys: pytest.CaptureFixture[str],
                                                     options: dict[str, str]) -> None:
    response = service.rules.NewGame(rules_pb2.NewGameRequest(game="puerto-rico", players=3, seed=4,
                                                              options=options))
    argv = [a for name, text in options.items() for a in ("--option", f"{name}={text}")]
    assert main(["new", "puerto-rico", "--players", "3", "--seed", "4", *argv]) == 0
    expected = to_position(get_game("puerto-rico").new_game(3, 4, **parse_options(PR, options)))
    assert message_to_dict(response.position) == expected
    assert capsys.readouterr().out == dumps(expected) + "\n"
