"""The ``meeplemind`` command line: one entry point, one subcommand per task."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from .engine import IllegalMoveError, InvalidMoveError, PositionError, Rng, game_ids, get_game
from .engine.position import dumps, load_position, read_json, to_position


class UsageError(ValueError):
    """Bad command-line input: reported on one line, exit code 2."""


def _parse_options(items: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {item!r}: expected KEY=VALUE")
        low = value.lower()
        options[key] = True if low in ("1", "true", "yes", "on") else False if low in (
            "0", "false", "no", "off") else value
    return options


def cmd_serve(args: argparse.Namespace) -> None:
    from .server import run_serve

    run_serve(args)


def cmd_new(args: argparse.Namespace) -> None:
    game = get_game(args.game)
    state = game.new_game(args.players, args.seed, **_parse_options(args.option))
    print(dumps(to_position(state)))


def _result_lines(result: dict[str, list[int]]) -> list[str]:
    """A finished game's result (``asdict(GameResult)``), one line per seat after a header."""
    lines = ["game over: " + ", ".join(f"P{p} wins" for p in result["winners"])]
    for p, (score, tiebreak, rank) in enumerate(zip(result["scores"], result["tiebreaks"], result["ranks"])):
        lines.append(f"  P{p} {score:3d} VP  tie-break {tiebreak:<5d} place {rank}"
                     f"{'  winner' if p in result['winners'] else ''}")
    return lines


def _local_result(state: Any) -> dict[str, list[int]] | None:
    return asdict(state.result()) if state.is_terminal else None


def cmd_moves(args: argparse.Namespace) -> None:
    """The legal moves, one per line; a finished game's result instead (it has none)."""
    if args.server:
        from .server.client import remote_legal_moves

        moves, result = remote_legal_moves(args.server, read_json(args.file))
    else:
        state, _ = load_position(args.file)
        moves, result = [str(m) for m in state.legal_moves()], _local_result(state)
    for line in moves if result is None else _result_lines(result):
        print(line)


def cmd_apply(args: argparse.Namespace) -> None:
    """The position after the moves on stdout; the result on stderr if they end the game."""
    state, viewer = load_position(args.file)
    rng = Rng(args.seed)
    for text in args.moves:
        state = state.apply(text, rng)
    print(dumps(to_position(state, viewer)))
    result = _local_result(state)
    if result is not None:
        print("\n".join(_result_lines(result)), file=sys.stderr)


def cmd_selfplay(args: argparse.Namespace) -> None:
    from .search.bots import make_bot

    game = get_game(args.game)
    state = game.new_game(args.players, args.seed, **_parse_options(args.option))
    specs = args.bot or ["random"]
    bots = [make_bot(specs[i % len(specs)], seed=args.seed + 1000 * i) for i in range(args.players)]
    rng, moves = Rng(args.seed ^ 0x5EED), 0
    while not state.is_terminal:
        player = state.current_player
        move = bots[player].choose(state)
        if not args.json:
            print(f"{moves + 1:4d}  P{player}  {move}")
        state = state.apply(move, rng)
        moves += 1
    scores, tiebreaks, winners = state.scores(), state.tiebreaks(), state.winners()
    if args.json:
        print(json.dumps({"scores": scores, "tiebreaks": tiebreaks, "winner": winners, "moves": moves}))
        return
    print(f"\n{state}\n\nfinal scores after {moves} moves:")
    for p, (s, t) in enumerate(zip(scores, tiebreaks)):
        print(f"  P{p} {bots[p].name:<12} {s:3d} VP  (tie-break {t}){'  winner' if p in winners else ''}")


def _analysis(args: argparse.Namespace) -> dict[str, Any]:
    budget = {"iterations": args.iterations, "time_ms": args.time_ms, "cpu_ms": args.cpu_ms,
              "threads": args.threads, "seed": args.seed, "max_moves": args.max_moves}
    if args.server:
        from .server.client import remote_analyze

        return remote_analyze(args.server, read_json(args.file), **budget)
    from .search import analyze

    state, _ = load_position(args.file)
    return {**asdict(analyze(state, rollout_policy=args.rollout, **budget)), "result": _local_result(state)}


def cmd_analyze(args: argparse.Namespace) -> None:
    result = _analysis(args)
    report = {
        "moves": [{"move": m["move"], "visits": m["visits"], "win_rate": round(m["win_rate"], 4),
                   "expected_scores": [round(x, 2) for x in m["expected_scores"]], "pv": m["pv"]}
                  for m in result["moves"]],
        "iterations": result["iterations"], "elapsed_ms": round(result["elapsed_ms"], 1),
        "cpu_ms": round(result["cpu_ms"], 1), "stopped_by": result["stopped_by"],
        "nodes": result["nodes"], "player": result["player"], "result": result["result"],
    }
    if args.json:
        print(json.dumps(report))
        return
    if report["result"] is not None:
        print("\n".join(_result_lines(report["result"])))
        return
    print(f"player {report['player']} to move: {report['iterations']} iterations in "
          f"{report['elapsed_ms']:.0f} ms, {report['cpu_ms']:.0f} ms CPU ({report['stopped_by']}), "
          f"{report['nodes']} nodes")
    print(f"{'move':<24} {'visits':>8} {'win':>6}  {'expected scores':<28} pv")
    for m in report["moves"]:
        scores = " ".join(f"{x:5.1f}" for x in m["expected_scores"])
        print(f"{m['move']:<24} {m['visits']:>8} {m['win_rate']:>6.3f}  {scores:<28} {' '.join(m['pv'][1:])}")


def cmd_arena(args: argparse.Namespace) -> None:
    from .search.arena import format_table, progress_bar, run_arena

    bots = args.bot
    if args.players is not None:
        if len(bots) > args.players:
            raise UsageError(f"--players {args.players}: {len(bots)} bots given, one per seat at most")
        bots = [bots[i % len(bots)] for i in range(args.players)]
    report = run_arena(args.game, bots, args.games, args.seed, _parse_options(args.option),
                       workers=args.workers, progress=None if args.quiet else progress_bar)
    print(json.dumps(report) if args.json else format_table(report))


def cmd_corpus(args: argparse.Namespace) -> None:
    from .search.corpus import write_corpus

    if args.per_stage < 1:
        raise UsageError(f"--per-stage {args.per_stage}: must be at least 1")
    count = write_corpus(args.out, games=args.game, per_stage=args.per_stage, seed=args.seed)
    print(f"wrote {count} positions to {args.out}")


def cmd_bench(args: argparse.Namespace) -> None:
    from .search.bench import run_bench

    report = run_bench(games=args.game, players=args.players, seconds=args.seconds,
                       threads=args.threads)
    print(json.dumps(report, indent=None if args.json else 1))


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="meeplemind", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)

    def add(name: str, func: Callable[[argparse.Namespace], None], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(func=func)
        return p

    games = game_ids()
    from .server import add_serve_arguments

    add_serve_arguments(add("serve", cmd_serve, "run the gRPC service (Rules and Analysis)"))

    p = add("new", cmd_new, "print the position of a new game")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")

    p = add("moves", cmd_moves, "print the legal moves of a position file, one per line")
    p.add_argument("file")
    p.add_argument("--server", metavar="HOST:PORT", help="ask a running server instead")

    p = add("apply", cmd_apply, "apply moves to a position file and print the new position")
    p.add_argument("file")
    p.add_argument("moves", nargs="+", metavar="MOVE")
    p.add_argument("--seed", type=int, default=0, help="seed for chance (plantation draws)")

    p = add("selfplay", cmd_selfplay, "play a whole game between bots and print the log")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bot", action="append", metavar="SPEC", help="one per seat, repeated cyclically")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true")

    p = add("analyze", cmd_analyze, "search a position file and print the top moves")
    p.add_argument("file")
    p.add_argument("--iterations", type=int)
    p.add_argument("--time-ms", type=int, help="wall-clock budget")
    p.add_argument("--cpu-ms", type=int, help="CPU-time budget of each search thread (fair under load)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int)
    p.add_argument("--max-moves", type=int, default=10)
    p.add_argument("--rollout", choices=["heuristic", "random"], default="heuristic",
                   help="playout policy (in-process searches only)")
    p.add_argument("--server", metavar="HOST:PORT", help="ask a running server instead")
    p.add_argument("--json", action="store_true")

    p = add("arena", cmd_arena, "play a seeded tournament between bots, seats rotated")
    p.add_argument("game", choices=games)
    p.add_argument("--bot", action="append", required=True, metavar="SPEC",
                   help="one per seat: NAME[:key=value[,key=value]] (random, heuristic, ismcts)")
    p.add_argument("--players", type=int, help="seats (default: one per --bot; bots repeat to fill)")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true")

    p = add("corpus", cmd_corpus, "write self-play positions (JSON lines) for load tests")
    p.add_argument("--out", required=True)
    p.add_argument("--game", action="append", choices=games)
    p.add_argument("--per-stage", type=int, default=4, help="positions per game, player count and stage")
    p.add_argument("--seed", type=int, default=1)

    p = add("bench", cmd_bench, "measure engine and search speed (JSON)")
    p.add_argument("--game", action="append", choices=games)
    p.add_argument("--players", type=int, action="append")
    p.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    p.add_argument("--threads", type=int, action="append")
    p.add_argument("--json", action="store_true", help="compact one-line JSON")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        args.func(args)
    except (PositionError, InvalidMoveError, IllegalMoveError, UsageError, ValueError, KeyError) as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        print(f"meeplemind {args.command}: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as e:
        print(f"meeplemind {args.command}: error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
