"""The ``meeplemind`` command line: one entry point, one subcommand per task."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, replace
from importlib.metadata import version
from typing import Any

from .arguments import integer, number
from .engine import IllegalMoveError, InvalidMoveError, OptionError, PositionError, Rng, game_ids, get_game, parse_options
from .positions.messages import STDIN, dumps, load_position, message_to_dict, observe, read_json, to_position
from .engine.seats import line_of_play, seat_name, seat_tag

#: What a position file argument says about standard input.
FILE_HELP = f"a position file (JSON; {STDIN} reads standard input)"
GAME_OVER = "no player to move: the game is over"
RAY_HELP = "play the games as Ray tasks: local (a Ray on this machine) or a cluster's address (pip install 'meeplemind[cluster]')"


class UsageError(ValueError):
    """Bad command-line input: reported on one line, exit code 2."""


def _parse_options(game_id: str, items: Sequence[str]) -> dict[str, bool | str]:
    """``--option KEY=VALUE``s as the game's ``new_game`` options (``engine.parse_options``)."""
    given: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {item!r}: expected KEY=VALUE")
        given[key] = value
    try:
        return parse_options(get_game(game_id).OPTION_VALUES, given)
    except OptionError as e:
        raise UsageError(f"--option {e.name}: {e.problem}") from None


def cmd_serve(args: argparse.Namespace) -> None:
    from .server.command import run_serve

    run_serve(args)


def cmd_health(args: argparse.Namespace) -> None:
    from .server.probe import check_health

    print(check_health(args.address, args.service, args.timeout))


def cmd_new(args: argparse.Namespace) -> None:
    game = get_game(args.game)
    state = game.new_game(args.players, args.seed, **_parse_options(args.game, args.option))
    print(dumps(to_position(state)))


def _result_lines(result: dict[str, list[int]], game_id: str) -> list[str]:
    """A finished game's result (``asdict(GameResult)``), one line per seat after a header,
    scores in the game's unit."""
    unit = get_game(game_id).SCORE_UNIT
    lines = ["game over: " + ", ".join(f"{seat_name(p)} wins" for p in result["winners"])]
    for p, (score, tiebreak, rank) in enumerate(zip(result["scores"], result["tiebreaks"], result["ranks"])):
        lines.append(f"  {seat_name(p)} {score:3d} {unit}  tie-break {tiebreak:<5d} place {rank}"
                     f"{'  winner' if p in result['winners'] else ''}")
    return lines


def _local_result(state: Any) -> dict[str, list[int]] | None:
    return asdict(state.result()) if state.is_terminal else None


def cmd_moves(args: argparse.Namespace) -> None:
    """The legal moves, one per line; a finished game's result instead (it has none)."""
    if args.server:
        from .remote import remote_legal_moves

        position = read_json(args.file)
        moves, result = remote_legal_moves(args, position)
        game_id = str(position.get("game", ""))
    else:
        checked = load_position(args.file)
        state = checked.state().observation(checked.viewer)  # the viewer's moves, as the service lists them
        moves, result = [str(m) for m in state.legal_moves()], _local_result(state)
        game_id = state.game_id
    if result is not None:
        print(f"meeplemind moves: {GAME_OVER}", file=sys.stderr)
    for line in moves if result is None else _result_lines(result, game_id):
        print(line)


def cmd_apply(args: argparse.Namespace) -> None:
    """The position after the moves on stdout; the result on stderr if they end the game."""
    position = load_position(args.file)
    state, viewer = position.state(), position.viewer
    if args.shown and len(args.moves) > 1:
        raise UsageError("--shown: one move at a time (what that move showed)")
    rng = Rng(args.seed)
    for text in args.moves:
        if state.is_terminal:
            raise UsageError(f"move {text}: {GAME_OVER}")
        state = state.follow(text, rng, viewer, args.shown)
    print(dumps(to_position(state, viewer)))
    result = _local_result(state)
    if result is not None:
        print("\n".join(_result_lines(result, state.game_id)), file=sys.stderr)


def cmd_observe(args: argparse.Namespace) -> None:
    """What the position file's viewer (or ``--seat``'s) sees of it (Rules.Observe)."""
    position = load_position(args.file)
    state, viewer = position.state(), position.viewer
    if args.seat is not None:  # people count seats from 1 (engine/seats.py)
        if not 1 <= args.seat <= state.num_players:
            raise UsageError(f"--seat: {args.seat} is not a seat of this {state.num_players}-player game (1-{state.num_players})")
        viewer = args.seat - 1
    print(dumps(message_to_dict(observe(state, viewer))))


def cmd_selfplay(args: argparse.Namespace) -> None:
    from .search.bots import make_bot

    game = get_game(args.game)
    state = game.new_game(args.players, args.seed, **_parse_options(args.game, args.option))
    start = to_position(state)
    specs = args.bot or ["random"]
    bots = [make_bot(specs[i % len(specs)], seed=args.seed + 1000 * i) for i in range(args.players)]
    rng, log = Rng(args.seed ^ 0x5EED), list[dict[str, str]]()
    while not state.is_terminal:
        player = state.current_player
        move = bots[player].choose(state)
        if not args.json:
            print(f"{len(log) + 1:4d}  {seat_tag(player):<3}  {move}")
        # the generator's state before the move is the seed that replays its chance (GameRecord)
        log.append({"move": str(move), "seed": str(rng.state)})
        state = state.apply(move, rng)
    moves = len(log)
    scores, tiebreaks, winners = state.scores(), state.tiebreaks(), state.winners()
    if args.json:  # a GameRecord (start, moves) and the result: meeplemind review reads it
        print(json.dumps({"start": start, "moves": log, "scores": scores, "tiebreaks": tiebreaks,
                          "winner": winners}))
        return
    print(f"\n{state}\n\nfinal scores after {moves} moves:")
    for p, (s, t) in enumerate(zip(scores, tiebreaks)):
        print(f"  {seat_name(p)} {bots[p].name:<12} {s:3d} {game.SCORE_UNIT}  (tie-break {t})"
              f"{'  winner' if p in winners else ''}")


def _analysis(args: argparse.Namespace) -> tuple[Any, str]:
    """The AnalyzeResponse of the position, searched here (Ctrl-C stops the search and
    keeps what it found) or by the server of ``--server``, and the position's game id."""
    budget = {"iterations": args.iterations, "time_ms": args.time_ms, "cpu_ms": args.cpu_ms,
              "threads": args.threads, "seed": args.seed, "max_moves": args.max_moves}
    if args.server:
        from .remote import remote_analyze_response

        position = read_json(args.file)
        return remote_analyze_response(args, position, budget), str(position.get("game", ""))
    from .search import Budget, SearchStop, analyze, game_params
    from .search.deadlines import DeadlineMargin
    from .server.convert import move_to_proto, result_to_proto, stats_to_proto
    from .v1 import analysis_pb2

    # as the service reads it: one C decode, the viewer's observation searched, no reference state
    seen = load_position(args.file).seen()
    params = replace(game_params(seen.game_id, seen.num_players), seed=args.seed, rollout_policy=args.rollout, viewer=seen.viewer)
    stop = SearchStop()
    with _stopping_on_ctrl_c(stop):
        result = analyze(seen, Budget(args.iterations, args.time_ms, args.cpu_ms, threads=args.threads), params,
                         max_moves=args.max_moves, stop_event=stop, time_margin=DeadlineMargin.for_time_budgets())
    if stop.is_set():
        print(f"meeplemind analyze: interrupted: the best moves after {result.iterations} iterations",
              file=sys.stderr)
    response = analysis_pb2.AnalyzeResponse(moves=[move_to_proto(m) for m in result.moves],
                                            stats=stats_to_proto(result, final=True, deadline_cut=False),
                                            result=result_to_proto(seen))
    return response, seen.game_id


@contextmanager
def _stopping_on_ctrl_c(stop: threading.Event) -> Iterator[None]:
    """The first Ctrl-C (SIGINT) in the block sets ``stop``; a second one interrupts."""
    def first(signum: int, frame: Any) -> None:
        stop.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def cmd_analyze(args: argparse.Namespace) -> None:
    from google.protobuf import json_format

    from .server.convert import result_from_proto

    response, game_id = _analysis(args)
    if args.json:
        print(json_format.MessageToJson(response, preserving_proto_field_name=True,
                                        always_print_fields_with_no_presence=True))
        return
    result = result_from_proto(response)
    if result is not None:
        print("\n".join(_result_lines(result, game_id)))
        return
    print(format_analysis(response))


def format_analysis(response: Any) -> str:
    """An AnalyzeResponse as a table: a move per line with its visits, the mover's win
    rate, the expected final score of each seat (``E[S1]``…) and the line of play from
    the move on, each move after its seat's tag in a game of several players."""
    from .v1 import analysis_pb2

    stats = response.stats
    reason = analysis_pb2.StopReason.Name(stats.stop_reason).removeprefix("STOP_REASON_").lower()
    mover = f"{seat_name(stats.player)} to move" if stats.HasField("player") else GAME_OVER
    seats = len(response.moves[0].expected_scores) if response.moves else 0
    lines = [f"{mover}: {stats.iterations} iterations in {stats.elapsed_ms:.0f} ms ({reason}), "
             f"{stats.nodes} nodes",
             f"{'move':<24} {'visits':>8} {'win':>6}  " + "".join(f"{f'E[{seat_tag(p)}]':>7}" for p in range(seats))
             + "  line of play"]
    for m in response.moves:
        lines.append(f"{m.move:<24} {m.visits:>8} {m.win_rate:>6.3f}  "
                     + "".join(f"{x:>7.1f}" for x in m.expected_scores) + f"  {line_of_play(m.pv, m.pv_players, seats)}")
    return "\n".join(lines)


def cmd_arena(args: argparse.Namespace) -> None:
    from .search.arena import format_table, run_arena
    from .search.progress import progress_bar

    bots = args.bot
    if args.players is not None:
        if len(bots) > args.players:
            raise UsageError(f"--players {args.players}: {len(bots)} bots given, one per seat at most")
        bots = [bots[i % len(bots)] for i in range(args.players)]
    with progress_bar(args.games, "game", "arena", enabled=not args.quiet) as bar:
        report = run_arena(args.game, bots, args.games, args.seed, _parse_options(args.game, args.option),
                           workers=args.workers, progress=lambda done, total: bar.update(done - bar.n),
                           ray=args.ray)
    print(json.dumps(report) if args.json else format_table(report))


def _levels(text: str) -> list[int]:
    """``--levels``: ``A-B`` or ``A,B,C``."""
    from .search.levels import LEVELS

    low, dash, high = text.partition("-")
    try:
        levels = list(range(int(low), int(high) + 1)) if dash else [int(t) for t in text.split(",")]
    except ValueError:
        raise UsageError(f"--levels {text!r}: expected A-B or A,B,C") from None
    if not levels or any(level not in LEVELS for level in levels):
        raise UsageError(f"--levels {text!r}: levels are {LEVELS.start}..{LEVELS.stop - 1}")
    return levels


def cmd_ladder(args: argparse.Namespace) -> None:
    from .search.ladder import format_ladder, ladder_pairs, run_ladder
    from .search.progress import progress_bar

    levels = _levels(args.levels) if args.levels else ([] if args.bot else list(range(1, 11)))
    specs = (args.bot or (["heuristic"] if not args.levels else [])) + [f"level:{n}" for n in levels]
    pairs = len(ladder_pairs(len(specs), args.reach))
    with progress_bar(pairs * args.games, "game", "ladder", enabled=not args.quiet) as bar:
        report = run_ladder(args.game, specs, args.games, args.seed, args.workers,
                            _parse_options(args.game, args.option),
                            progress=lambda done, total: bar.update(done - bar.n), reach=args.reach,
                            results=args.results, ray=args.ray, players=args.players)
    print(json.dumps(report) if args.json else format_ladder(report))


def cmd_train(args: argparse.Namespace) -> None:
    import shlex

    from .search.progress import progress_bar
    from .search.training import TrainConfig, export_best, train

    config = TrainConfig(args.game, args.players, args.games, args.iterations, args.gate_games, args.explore_moves,
                         args.window, args.seed, _parse_options(args.game, args.option))
    run_dir = args.run or f"runs/train-{args.game}"
    record_dir = args.record or f"training/{args.game}"
    command = shlex.join(["meeplemind", "train", args.game, "--generations", str(args.generations), "--players",
                          str(args.players), "--games", str(args.games), "--iterations", str(args.iterations),
                          "--gate-games", str(args.gate_games), "--explore-moves", str(args.explore_moves),
                          "--window", str(args.window), "--seed", str(args.seed),
                          *(f"--option={o}" for o in args.option)])
    bars: dict[str, Any] = {}

    def progress(step: str, done: int, total: int) -> None:
        if step not in bars:
            for bar in bars.values():
                bar.close()
            bars.clear()
            bars[step] = progress_bar(total, "game", step, enabled=not args.quiet)
        bars[step].update(done - bars[step].n)

    def report(record: dict[str, Any]) -> None:
        for bar in bars.values():
            bar.close()
        bars.clear()
        m = record["match"]
        print(f"round {record['round']}: generation {record['candidate']} vs {record['against']}: win share "
              f"{m['win_share']:.3f} [{m['ci95'][0]:.3f}, {m['ci95'][1]:.3f}] over {m['games']} games, gate "
              f"{m['gate']:.3f}: {'kept' if record['kept'] else 'dropped'}; CPU s {record['cpu_s']}", flush=True)

    state = train(config, run_dir, args.generations, args.workers, args.ray, record_dir, command, progress, report)
    print(f"best generation: {state['best']} (run {run_dir}, kept generations in {record_dir})")
    if args.export:
        best = export_best(run_dir)
        print(f"native/evaluation_<game>.json: {args.game} is generation {best}; `make install` compiles it"
              if best else "nothing to export: generation 0 is the compiled-in evaluation")


def cmd_corpus(args: argparse.Namespace) -> None:
    from .search.corpus import write_corpus

    if args.per_stage < 1:
        raise UsageError(f"--per-stage {args.per_stage}: must be at least 1")
    count = write_corpus(args.out, games=args.game, per_stage=args.per_stage, seed=args.seed)
    print(f"wrote {count} positions to {args.out}")


def cmd_bench(args: argparse.Namespace) -> None:
    from .search.bench import run_bench, signature_report

    if args.signature:
        number, setups = signature_report()
        for setup in setups:
            print(setup.line())
        print(number)
        return
    if args.overshoot:
        print(json.dumps(_overshoot(args), indent=None if args.json else 1))
        return
    from .server.overhead import measure as outside_search

    if args.outside_search:
        print(json.dumps(outside_search(args.game), indent=None if args.json else 1))
        return
    report = run_bench(games=args.game, players=args.players, seconds=args.seconds,
                       threads=args.threads, say=lambda line: print(line, file=sys.stderr))
    report["outside_search"] = outside_search(args.game)
    print(json.dumps(report, indent=None if args.json else 1))


def _overshoot(args: argparse.Namespace) -> dict[str, Any]:
    """``bench --overshoot``: searches of each ``time_ms`` budget of a new game's first
    position, here or on ``--server``, timed from the call to the answer."""
    from .search import Budget, analyze, game_params
    from .search.bench import BENCH_PLAYERS, BENCH_SEED
    from .search.deadlines import DeadlineMargin
    from .search.overshoot import BUDGETS_MS, DEFAULT_SAMPLES, measure

    game = get_game(args.game[0] if args.game else "puerto-rico")
    players = args.players[0] if args.players else next(n for n in BENCH_PLAYERS if n in game.PLAYER_COUNTS)
    if players not in game.PLAYER_COUNTS:
        raise UsageError(f"--players {players}: {game.GAME_ID} is played by {list(game.PLAYER_COUNTS)}")
    state, threads = game.new_game(players, BENCH_SEED), args.threads[0] if args.threads else 1
    budgets, samples = args.time_ms or BUDGETS_MS, DEFAULT_SAMPLES if args.samples is None else args.samples
    for flag, value in [("--samples", samples), *(("--time-ms", t) for t in budgets)]:
        if value < 1:
            raise UsageError(f"{flag} {value}: must be at least 1")
    setup = {"game": game.GAME_ID, "players": players, "threads": threads, "server": args.server}
    if not args.server:
        analyze(state, Budget(iterations=10))  # warm up: the engine loaded, its first search run
        margin = DeadlineMargin.for_time_budgets()  # this session's searches learn it, as a bot's do
        return {**setup, **measure(lambda t, seed: analyze(state, Budget(time_ms=t, threads=threads),
                                                           replace(game_params(game.GAME_ID, players), seed=seed),
                                                           time_margin=margin),
                                   budgets, samples)}
    from .remote import connect

    with connect(args) as client:
        position = to_position(state)
        client.analyze(position, iterations=10)
        return {**setup, **measure(lambda t, seed: client.analyze(position, time_ms=t, seed=seed, threads=threads),
                                   budgets, samples)}


def cmd_review(args: argparse.Namespace) -> None:
    from .review_command import run_review

    run_review(args)


def cmd_review_calibration(args: argparse.Namespace) -> None:
    from .search.review_calibration import report, run, verdict

    def progress(game: Any) -> None:
        print(f"game {game.seed}: " + ", ".join(f"{s.bot} {s.accuracy:.1f}%" for s in game.seats), file=sys.stderr)

    games = run(args.game, args.games, args.seed, args.iterations, args.workers, on_game=progress)
    print("\n".join(report(games)))
    if not verdict(games).holds:
        raise SystemExit(1)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="meeplemind", description=__doc__)
    ap.add_argument("--version", action="version", version=f"%(prog)s {version('meeplemind')}")
    sub = ap.add_subparsers(dest="command", required=True)

    def add(name: str, func: Callable[[argparse.Namespace], None], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(func=func)
        return p

    games = game_ids()
    from .remote import add_remote_arguments
    from .review_command import add_review_arguments
    from .server import add_serve_arguments

    add_serve_arguments(add("serve", cmd_serve, "run the gRPC service (Rules and Analysis)"))

    p = add("health", cmd_health, "check that a server is SERVING (grpc.health.v1; exit 2 if not)")
    p.add_argument("address", nargs="?", default="127.0.0.1:50051", metavar="HOST:PORT")
    p.add_argument("--service", default="", help="a service name (default: the whole server)")
    p.add_argument("--timeout", type=number, default=3.0, help="seconds to wait for the answer")

    p = add("new", cmd_new, "print the position of a new game")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=integer, default=4)
    p.add_argument("--seed", type=integer, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")

    p = add("moves", cmd_moves, "print the legal moves of a position file, one per line")
    p.add_argument("file", help=FILE_HELP)
    add_remote_arguments(p)

    p = add("apply", cmd_apply, "apply moves to a position file and print the new position")
    p.add_argument("file", help=FILE_HELP)
    p.add_argument("moves", nargs="+", metavar="MOVE")
    p.add_argument("--seed", type=integer, default=0, help="seed for chance (plantation draws)")
    p.add_argument("--shown", action="append", default=[], metavar="OUTCOME",
                   help="on a viewer's observation (one move): what its chance showed him, e.g. square:3.6, "
                        "small_5, message_3@2 (Rules.ApplyMove's shown)")

    p = add("observe", cmd_observe, "print what a position file's viewer sees of it (its observation)")
    p.add_argument("file", help=FILE_HELP)
    p.add_argument("--seat", type=integer, default=None,
                   help="the seat to observe for, counted from 1 as in review --seat (default: the file's viewer)")

    p = add("selfplay", cmd_selfplay, "play a whole game between bots and print the log "
                                      "(--json: a game record meeplemind review reads, and the result)")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=integer, default=4)
    p.add_argument("--bot", action="append", metavar="SPEC", help="one per seat, repeated cyclically")
    p.add_argument("--seed", type=integer, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true")

    p = add("analyze", cmd_analyze, "search a position file and print the top moves")
    p.add_argument("file", help=FILE_HELP)
    p.add_argument("--iterations", type=integer)
    p.add_argument("--time-ms", type=integer, help="wall-clock budget")
    p.add_argument("--cpu-ms", type=integer, help="CPU-time budget of each search thread (fair under load)")
    p.add_argument("--threads", type=integer, default=1)
    p.add_argument("--seed", type=integer)
    p.add_argument("--max-moves", type=integer, default=10)
    p.add_argument("--rollout", choices=["heuristic", "random"], default="heuristic",
                   help="playout policy (in-process searches only)")
    add_remote_arguments(p)
    p.add_argument("--json", action="store_true")

    p = add("review", cmd_review, "review a game record: each move played against the engine's best")
    add_review_arguments(p)
    add_remote_arguments(p)

    p = add("review-calibration", cmd_review_calibration,
            "play games between bots of known strength, review each twice and check that the review "
            "orders them (exit 1 if a goal is not met; docs/review.md)")
    p.add_argument("game", choices=games, nargs="?", default="puerto-rico")
    p.add_argument("--games", type=integer, default=8, help="games, each of the game's player counts in turn")
    p.add_argument("--seed", type=integer, default=1, help="game i is seeded seed + i")
    p.add_argument("--iterations", type=integer, help="search budget of the reviews (default: review's)")
    p.add_argument("--workers", type=integer, default=1, help="searches at once in each review")

    p = add("arena", cmd_arena, "play a seeded tournament between bots, seats rotated")
    p.add_argument("game", choices=games)
    p.add_argument("--bot", action="append", required=True, metavar="SPEC",
                   help="one per seat: NAME[:key=value[,key=value]] (random, heuristic, ismcts, "
                        "ismcts-v1) or level:N")
    p.add_argument("--players", type=integer, help="seats (default: one per --bot; bots repeat to fill)")
    p.add_argument("--games", type=integer, default=60)
    p.add_argument("--seed", type=integer, default=1)
    p.add_argument("--workers", type=integer, default=1, help="games played in parallel processes")
    p.add_argument("--ray", metavar="ADDRESS", help=RAY_HELP)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true")

    p = add("ladder", cmd_ladder, "rate bots in Elo from a round robin of pairs (default: the heuristic "
                                  "bot and BestMove's levels 1-10, 2 players)")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=integer, default=2,
                   help="seats a game (more than 2: each of a pair alone against copies of the other in half "
                        "the games, scored by places)")
    p.add_argument("--bot", action="append", metavar="SPEC", help="an entrant (the first is rated 0 Elo)")
    p.add_argument("--levels", metavar="A-B|A,B", help="BestMove levels as entrants, after the --bot ones")
    p.add_argument("--games", type=integer, default=20,
                   help="games per pair (a multiple of 2, or of 2 x players above 2: seats rotate)")
    p.add_argument("--reach", type=integer, metavar="R",
                   help="each entrant plays only the next R entrants (1: neighbours; default: all)")
    p.add_argument("--results", metavar="FILE",
                   help="append each pair's result to FILE and reuse the pairs found there (resume)")
    p.add_argument("--seed", type=integer, default=1)
    p.add_argument("--workers", type=integer, default=1, help="games played in parallel processes")
    p.add_argument("--ray", metavar="ADDRESS", help=RAY_HELP)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true")

    p = add("train", cmd_train, "expert iteration of a game's evaluation and move priors: self-play, fit, "
                                "gate against the best generation (docs/training.md)")
    p.add_argument("game", choices=games)
    p.add_argument("--generations", type=integer, default=1, help="rounds to have played (a run resumes)")
    p.add_argument("--players", type=integer, default=2)
    p.add_argument("--games", type=integer, default=200, help="self-play games a round")
    p.add_argument("--iterations", type=integer, default=800,
                   help="search iterations a move, self-play and gate (800: about 10 ms of CPU in Puerto Rico)")
    p.add_argument("--gate-games", type=integer, default=100, help="games of a candidate against the best")
    p.add_argument("--explore-moves", type=integer, default=30,
                   help="decisions of a self-play game drawn in proportion to the visits")
    p.add_argument("--window", type=integer, default=2, help="rounds of self-play a fit reads")
    p.add_argument("--seed", type=integer, default=1)
    p.add_argument("--run", metavar="DIR", help="the run directory (default runs/train-GAME)")
    p.add_argument("--record", metavar="DIR", help="where kept generations are recorded (default training/GAME)")
    p.add_argument("--export", action="store_true",
                   help="make the best generation the compiled-in weights (native/evaluation_<game>.json)")
    p.add_argument("--workers", type=integer, default=1, help="games played in parallel processes")
    p.add_argument("--ray", metavar="ADDRESS", help=RAY_HELP)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = add("corpus", cmd_corpus, "write self-play positions (JSON lines) for load tests")
    p.add_argument("--out", required=True)
    p.add_argument("--game", action="append", choices=games)
    p.add_argument("--per-stage", type=integer, default=4, help="positions per game, player count and stage")
    p.add_argument("--seed", type=integer, default=1)

    p = add("bench", cmd_bench, "measure engine and search speed (JSON)")
    p.add_argument("--game", action="append", choices=games)
    p.add_argument("--players", type=integer, action="append")
    p.add_argument("--seconds", type=number, default=2.0, help="per measurement")
    p.add_argument("--threads", type=integer, action="append")
    p.add_argument("--json", action="store_true", help="compact one-line JSON")
    p.add_argument("--signature", action="store_true",
                   help="play the fixed seeded games and searches of every game and print, per setup, "
                        "its decisions, search nodes and hash, then the signature: one number that "
                        "changes whenever the rules or the search behave differently")
    p.add_argument("--overshoot", action="store_true",
                   help="time searches of time_ms budgets from the call to the answer and print the "
                        "percentiles of their overshoot (JSON); with --server, the server's Analyze")
    p.add_argument("--outside-search", action="store_true",
                   help="only the CPU time an in-process Analyze and BestMove call of each game spends "
                        "outside its search (reading the position, answering), in ms (JSON)")
    p.add_argument("--time-ms", type=integer, action="append",
                   help="with --overshoot: a budget to measure (default: 50, 100, 200 and 1000)")
    p.add_argument("--samples", type=integer, help="with --overshoot: searches per budget (default 20)")
    add_remote_arguments(p)
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
    except KeyboardInterrupt:
        print(f"meeplemind {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"meeplemind {args.command}: error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
