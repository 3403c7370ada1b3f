/**
 * The TypeScript client against a real server, whose addresses the caller gives:
 * MEEPLEMIND_GRPC_URL (its gRPC port) and MEEPLEMIND_HTTP_URL (its HTTP port, Connect).
 * tests/client/test_typescript.py starts the server and runs `npm test`.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { create, type JsonObject } from "@bufbuild/protobuf";
import { ConnectError, Code } from "@connectrpc/connect";
import { connect, PositionSchema, positionFromJson, positionToJson, recordFromJson, StopReason } from "../src/node.js";

function address(name: string): string {
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set: start a server and give its URL (tests/client/test_typescript.py does)`);
  return url;
}

const grpc = connect(address("MEEPLEMIND_GRPC_URL"), { timeoutMs: 60_000 });
const web = connect(address("MEEPLEMIND_HTTP_URL"), { protocol: "connect", timeoutMs: 60_000 });

test("plays a whole game, one BestMove per turn", async () => {
  let position = await grpc.newGame("puerto-rico", 2, 3);
  let turns = 0;
  let moves = 0;
  for (;;) {
    const best = await grpc.bestMove(position, { level: 1 }, turns, true);
    turns += 1;
    assert.equal(best.turn[0].move, best.move);
    let result;
    for (const decision of best.turn) {
      const applied = await grpc.apply(position, decision.move, moves);
      position = applied.position;
      moves += 1;
      result = applied.result;
      if (result) break;
    }
    if (result) {
      assert.equal(result.scores.length, 2);
      assert.ok(result.winners.length >= 1 && result.ranks.includes(1));
      break;
    }
  }
  assert.ok(moves > 50 && turns < moves, `${moves} moves in ${turns} turns`);
  assert.deepEqual(await grpc.legalMoves(position), []);
});

test("analyzes, streams and answers a single legal move at once", async () => {
  const position = await grpc.newGame("castles-of-burgundy", 2, 1);
  const analysis = await grpc.analyze(position, { iterations: 200, threads: 1 }, 5, 3);
  assert.equal(analysis.moves.length, 3);
  assert.equal(analysis.stats?.iterations, 200n);
  assert.equal(analysis.stats?.stopReason, StopReason.ITERATIONS);
  assert.equal(analysis.moves[0].pvPlayers[0], analysis.stats?.player);
  const reports = [];
  for await (const report of grpc.analyzeStream(position, { iterations: 3000 }, 10)) reports.push(report);
  assert.ok(reports.length >= 2 && reports.at(-1)?.final && !reports[0].final);
});

test("reviews a game record", async () => {
  const start = await grpc.newGame("puerto-rico", 3, 7);
  const legal = await grpc.legalMoves(start);
  const record = recordFromJson({ start: positionToJson(start), moves: [{ move: legal[0].notation, seed: "1" }] });
  const seen: number[] = [];
  const review = await grpc.review(record, { iterations: 100 }, [], 1, (move) => seen.push(move.index));
  assert.deepEqual([...new Set(seen)], [0]);  // a refined move comes again
  assert.equal(review.summary.movesReviewed, 1);
  assert.equal(review.moves.length, 1);
  assert.equal(review.moves[0].played?.move, legal[0].notation);
});

test("speaks Connect to the HTTP port, positions as JSON files have them", async () => {
  const games = await web.listGames();
  assert.deepEqual(games.map((g) => g.id), ["puerto-rico", "castles-of-burgundy", "traders-of-genoa"]);
  const position = await web.newGame("traders-of-genoa", 3, 2);
  const json = positionToJson(position) as JsonObject;
  assert.equal(json.game, "traders-of-genoa");
  assert.ok("traders_of_genoa" in json);
  const again = positionFromJson(json);
  assert.deepEqual((await web.legalMoves(again)).map((m) => m.notation),
                   (await grpc.legalMoves(position)).map((m) => m.notation));
});

test("observes a full position for one seat, which hides the other hands", async () => {
  const truth = await grpc.newGame("traders-of-genoa", 3, 4);
  const seen = await grpc.observe(create(PositionSchema, { ...truth, viewer: 2 }));
  assert.equal(seen.viewer, 2);
  const where = (p: typeof truth) => Object.values(
    (positionToJson(p) as { traders_of_genoa: { cards: Record<string, string> } }).traders_of_genoa.cards);
  assert.ok(where(truth).includes("0") && where(truth).includes("1"));
  assert.deepEqual([...new Set(where(seen))], ["2"]);
});

test("a bad request is refused naming the field", async () => {
  await assert.rejects(grpc.newGame("puerto-rico", 9), (error: unknown) => {
    assert.ok(error instanceof ConnectError);
    assert.equal(error.code, Code.InvalidArgument);
    assert.match(error.rawMessage, /players/);
    return true;
  });
});
