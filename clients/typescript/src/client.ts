/**
 * A typed client of the meeplemind service on any Connect transport (gRPC or Connect from
 * Node: ./node.ts; Connect from a browser: ./web.ts). Messages are the types buf generates
 * from proto/ (./gen/), so their shapes have one source: the .proto files.
 */
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { createClient, type CallOptions, type Client, type Transport } from "@connectrpc/connect";
import {
  Analysis,
  GameRecordSchema,
  SearchBudgetSchema,
  type AnalyzeResponse,
  type AnalyzeStreamResponse,
  type BestMoveResponse,
  type GameRecord,
  type MoveReview,
  type ReviewSummary,
} from "./gen/meeplemind/v1/analysis_pb.js";
import { PositionSchema, type Position } from "./gen/meeplemind/v1/position_pb.js";
import type { GameResult } from "./gen/meeplemind/v1/result_pb.js";
import { Rules, type GameInfo, type LegalMove } from "./gen/meeplemind/v1/rules_pb.js";

export * from "./gen/meeplemind/v1/analysis_pb.js";
export * from "./gen/meeplemind/v1/position_pb.js";
export * from "./gen/meeplemind/v1/result_pb.js";
export * from "./gen/meeplemind/v1/rules_pb.js";

/** How long a search may run; a field left out takes the server's default. */
export interface Budget {
  iterations?: number;
  timeMs?: number;
  cpuMs?: number;
  threads?: number;
}

/** The strength of BestMove: a level from 1 to 10, or a budget; neither: the server's default. */
export type Strength = { level: number } | { budget: Budget } | Record<string, never>;

/** The position after a move and, when the move ended the game, its result. */
export interface Applied {
  position: Position;
  result?: GameResult;
}

/** A whole review: every reviewed move in game order, then the summary. */
export interface Review {
  moves: MoveReview[];
  summary: ReviewSummary;
}

/** Options of every call: a bearer token, a deadline, a signal that cancels the call. */
export interface ClientOptions {
  token?: string;
  timeoutMs?: number;
}

/** A position's proto3 JSON (a position file, e.g. `meeplemind new ... --json`) as a Position. */
export function positionFromJson(json: JsonValue): Position {
  return fromJson(PositionSchema, json);
}

/** A Position as its proto3 JSON with the proto field names (the position file's form). */
export function positionToJson(position: Position): JsonValue {
  return toJson(PositionSchema, position, { useProtoFieldName: true });
}

/** A game record's JSON ({"start": ..., "moves": [...]}, `meeplemind selfplay --json`) as a GameRecord. */
export function recordFromJson(json: JsonValue): GameRecord {
  return fromJson(GameRecordSchema, json);
}

/** The service's calls: new games, legal moves, moves applied, searches and reviews. */
export class MeeplemindClient {
  readonly rules: Client<typeof Rules>;
  readonly analysis: Client<typeof Analysis>;
  private readonly options: ClientOptions;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.rules = createClient(Rules, transport);
    this.analysis = createClient(Analysis, transport);
    this.options = options;
  }

  private call(extraMs = 0, signal?: AbortSignal): CallOptions {
    const { token, timeoutMs } = this.options;
    return {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      timeoutMs: timeoutMs === undefined ? undefined : timeoutMs + extraMs,
      signal,
    };
  }

  async listGames(): Promise<GameInfo[]> {
    return (await this.rules.listGames({}, this.call())).games;
  }

  /** The position of a new game; `options` by name (GameInfo.options). */
  async newGame(game: string, players: number, seed: bigint | number = 0,
                options: Record<string, string> = {}): Promise<Position> {
    const reply = await this.rules.newGame({ game, players, seed: BigInt(seed), options }, this.call());
    if (!reply.position) throw new Error("NewGame answered no position");
    return reply.position;
  }

  /** The legal moves, by action id; empty when the game is over. */
  async legalMoves(position: Position): Promise<LegalMove[]> {
    return (await this.rules.legalMoves({ position }, this.call())).moves;
  }

  /** The position after `move` and, when it ended the game, its result; chance from `seed`,
   * or, on one viewer's observation, from what the move `shown` him (`square:3.6`, `small_5`,
   * `message_3@2`: docs/positions.md). */
  async apply(position: Position, move: string, seed: bigint | number = 0, shown: string[] = []): Promise<Applied> {
    const reply = await this.rules.applyMove({ position, move, seed: BigInt(seed), shown }, this.call());
    if (!reply.position) throw new Error("ApplyMove answered no position");
    return { position: reply.position, result: reply.result };
  }

  /** What the position's viewer sees of it: a full position masked to its `viewer`. */
  async observe(position: Position): Promise<Position> {
    const reply = await this.rules.observe({ position }, this.call());
    if (!reply.position) throw new Error("Observe answered no position");
    return reply.position;
  }

  /** The search's statistics of the position's moves. */
  async analyze(position: Position, budget: Budget = {}, seed?: bigint | number,
                maxMoves = 0): Promise<AnalyzeResponse> {
    return this.analysis.analyze(
      { position, budget: create(SearchBudgetSchema, budget), seed: optional(seed), maxMoves },
      this.call(budget.timeMs ?? budget.cpuMs));
  }

  /** Progress reports every `reportEveryMs`, then the final one (`final`); aborting `signal`
   * (or leaving the loop) cancels the search. */
  analyzeStream(position: Position, budget: Budget = {}, reportEveryMs = 0,
                signal?: AbortSignal): AsyncIterable<AnalyzeStreamResponse> {
    return this.analysis.analyzeStream(
      { position, budget: create(SearchBudgetSchema, budget), reportEveryMs },
      this.call(budget.timeMs ?? budget.cpuMs, signal));
  }

  /** The move to play; with `wholeTurn`, `turn` holds every decision of the mover's turn,
   * to apply in order (the first is `move`). */
  async bestMove(position: Position, strength: Strength = {}, seed?: bigint | number,
                 wholeTurn = false): Promise<BestMoveResponse> {
    const chosen = "level" in strength ? { case: "level" as const, value: strength.level }
      : "budget" in strength ? { case: "budget" as const, value: create(SearchBudgetSchema, strength.budget) }
        : { case: undefined };
    return this.analysis.bestMove({ position, strength: chosen, seed: optional(seed), wholeTurn },
      this.call(wholeTurn ? undefined : "budget" in strength ? strength.budget.timeMs ?? strength.budget.cpuMs : 0));
  }

  /** The review of a game: each reviewed move (also to `onMove` as it comes; a refined move
   * comes again and replaces the earlier), then the summary. */
  async review(game: GameRecord, budget: Budget = {}, seats: number[] = [], seed?: bigint | number,
               onMove?: (move: MoveReview) => void): Promise<Review> {
    const moves = new Map<number, MoveReview>();
    const stream = this.analysis.reviewGame(
      { game, budget: create(SearchBudgetSchema, budget), seats, seed: optional(seed) },
      { headers: this.call().headers });
    for await (const reply of stream) {
      if (reply.item.case === "move") {
        moves.set(reply.item.value.index, reply.item.value);
        onMove?.(reply.item.value);
      } else if (reply.item.case === "summary") {
        return { moves: [...moves.values()].sort((a, b) => a.index - b.index), summary: reply.item.value };
      }
    }
    throw new Error("the review's stream ended without its summary");
  }
}

function optional(seed: bigint | number | undefined): bigint | undefined {
  return seed === undefined ? undefined : BigInt(seed);
}
