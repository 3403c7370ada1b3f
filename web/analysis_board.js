// The analysis board (lichess's analysis board, Board Game Arena's log): the game's record
// (its true start and each move's chance seed, what "Save game" writes), the move log (element
// id "log") with who played each move, every position of the game to step through (buttons, ← → Home End) on the
// page's board, the last move highlighted, a review run from the page (ReviewGame) with its win-rate graph,
// the mistakes marked in the log with the engine's better move, and the final score.
import { esc, seatName, stateKey } from "./draw.js";
import { gameModule } from "./games.js";
import { moveLabel, titleCase } from "./labels.js";
import { drawReviewGraph } from "./review_graph.js";
import { RpcError, serverStream } from "./rpc.js";

const REVIEW_ITERATIONS = 500;

const $ = (id) => document.getElementById(id);
const board = { start: null, view: null, moves: [], at: 0, draw: null, seats: () => [], facts: () => ({}), reviews: new Map(),
  summary: null, abort: null, result: null };

/** The mark of a reviewed move, `typical` the review's mean stake and `rule` the game's facts'
 *  review_marks (the service's one rule, meeplemind.client.types.MARKS: the margin lost beyond
 *  the noise in shares of the move's stake, and a floor in mean stakes): [symbol, name] or
 *  null when it lost less than an inaccuracy. */
export function mark(review, typical, rule) {
  if (!rule || !review || review.margin_loss === undefined || review.margin_loss === null) return null;
  const lost = Number(review.margin_loss) - Number(review.noise ?? 0);
  const stake = Number(review.stake ?? 0);
  if (stake <= 0 || lost < rule.floor * typical) return null;
  const found = rule.marks.find(([share]) => lost >= share * stake);
  return found ? [found[1], found[2]] : null;
}

/** The review's mean stake over the moves reviewed so far. */
function meanStake() {
  const stakes = [...board.reviews.values()].map((r) => Number(r.stake ?? 0));
  return stakes.length ? stakes.reduce((a, b) => a + b, 0) / stakes.length : 0;
}

/** Whether a call failed because it was cancelled (a newer position, hints turned off). */
export const cancelled = (error) => error?.name === "AbortError" || error?.code === "canceled";

/** A readable message for a failed call: a server that does not answer is named as such. */
export function readableError(error) {
  if (error instanceof RpcError) {
    if (error.code === "unavailable") return `The server does not answer (${error.detail}): is it running? Reload the page once it is.`;
    return error.message;
  }
  if (error instanceof TypeError) return "The server does not answer: is it running? (reload the page once it is)";
  return String(error?.message ?? error);
}

/** Set up the board: `draw(position)` gives a position's HTML, `seats()` the page's seats. */
export function initAnalysisBoard({ draw, seats, facts }) {
  board.draw = draw;
  board.seats = seats;
  board.facts = facts;
  $("analysis-first").addEventListener("click", () => show(0));
  $("analysis-back").addEventListener("click", () => show(board.at - 1));
  $("analysis-forward").addEventListener("click", () => show(board.at + 1));
  $("analysis-last").addEventListener("click", () => show(board.moves.length));
  $("analysis-review").addEventListener("click", () => review().catch(failed));
  $("log").addEventListener("click", (e) => {
    const item = e.target.closest("[data-ply]");
    if (item) show(Number(item.dataset.ply));
  });
  $("analysis-graph").addEventListener("click", (e) => {
    const point = e.target.closest("[data-ply]");
    if (point) show(Number(point.dataset.ply));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea") || !board.start || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: board.at - 1, ArrowRight: board.at + 1, Home: 0, End: board.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
}

function failed(error) {
  $("analysis-status").textContent = readableError(error);
  $("analysis-status").className = "error";
}

/** A new game or position: the board starts over from `position` (the truth, what the record
 * holds), drawn as `view` (what the human sees of it). */
export function beginRecord(position, view = position) {
  stopReview();
  Object.assign(board, { start: position, view, moves: [], at: 0, reviews: new Map(), summary: null, result: null });
  render();
}

/** A move played at the table: `seat` played `move` with chance seed `seed`. The entry is in the
 * record at once; the page sets its `after` (the human's view after it) and its log `note`,
 * then calls refreshBoard. */
export function recordMove(seat, move, seed) {
  const entry = { seat, move, seed, after: null, note: "" };
  const following = board.at === board.moves.length;
  board.moves.push(entry);
  if (following) board.at = board.moves.length;
  return entry;
}

/** Draw the board again (a move's view has come). */
export function refreshBoard() {
  render();
}

/** The game ended with `result` (GameResult): the score breakdown shows at the last position. */
export function recordResult(result) {
  board.result = result;
  render();
}

/** The GameRecord of the board's game (start and moves with their seeds). */
export function gameRecord() {
  return { start: board.start, moves: board.moves.map((m) => ({ move: m.move, seed: String(m.seed) })) };
}

function stopReview() {
  if (board.abort) board.abort.abort();
  board.abort = null;
}

/** Review the whole game on the server, the graph and the log filling in as moves come. */
async function review() {
  if (!board.moves.length) return;
  stopReview();
  const abort = new AbortController();
  board.abort = abort;
  board.reviews = new Map();
  board.summary = null;
  const iterations = Number($("analysis-iterations").value) || REVIEW_ITERATIONS;
  $("analysis-status").className = "";
  $("analysis-status").textContent = `Reviewing ${board.moves.length} moves…`;
  render();
  const refined = new Set();  // the moves that came again with more rounds
  await serverStream("Analysis/ReviewGame", { game: gameRecord(), budget: { iterations } }, (message) => {
    if (message.move) {
      const index = Number(message.move.index ?? 0);
      if (board.reviews.has(index)) refined.add(index);
      board.reviews.set(index, message.move);
      $("analysis-status").textContent = refined.size
        ? `Refining the accuracies: ${refined.size} moves given more rounds…`
        : `Reviewed ${board.reviews.size} of ${board.moves.length} moves…`;
    }
    if (message.summary) board.summary = message.summary;
    render();
  }, { signal: abort.signal }).catch((error) => {
    if (!cancelled(error)) throw error;
  });
  if (board.abort === abort) {
    board.abort = null;
    $("analysis-status").textContent = board.summary ? `Review done: ${board.reviews.size} moves.` : "Review stopped.";
    $("analysis").dataset.reviewed = board.summary ? "yes" : "no";
  }
}

function show(ply) {
  if (!board.start) return;
  board.at = Math.max(0, Math.min(board.moves.length, ply));
  render();
}

function position(ply) {
  return ply === 0 ? board.view : board.moves[ply - 1].after ?? position(ply - 1);
}

function render() {
  const section = $("analysis");
  section.hidden = !board.start;
  if (!board.start) return;
  const game = board.start.game;
  const seats = board.seats();
  $("analysis-ply").textContent = `${board.at} / ${board.moves.length}`;
  $("analysis-first").disabled = $("analysis-back").disabled = board.at === 0;
  $("analysis-last").disabled = $("analysis-forward").disabled = board.at === board.moves.length;
  $("analysis-review").disabled = !board.moves.length;
  section.dataset.ply = String(board.at);
  const typical = meanStake(), rule = board.facts()[game]?.review_marks;
  const marked = (r) => mark(r, typical, rule);
  renderLog(game, marked);
  renderSummary(seats);
  $("analysis-graph").innerHTML = drawReviewGraph(board.moves.length, [...board.reviews.values()], board.at,
    board.start[stateKey(game)]?.players?.length ?? seats.length, marked);
  const here = position(board.at);
  const last = board.at > 0 ? board.moves[board.at - 1] : null;
  const before = board.at > 0 ? position(board.at - 1)[stateKey(game)] : null;
  $("analysis-last-move").innerHTML = last
    ? `Last move: <b>${esc(seatName(last.seat, seats))}</b> <code>${esc(last.move)}</code> ${esc(moveLabel(game, last.move, before))}${betterMove(board.at - 1, game, before, marked)}`
    : "The start of the game.";
  $("board").innerHTML = board.draw(here);  // the table shows the position stepped to
  if (last) highlight($("board"), last);
  $("analysis-score").innerHTML = board.at === board.moves.length && board.result ? scoreBreakdown(here, seats) : "";
}

function betterMove(index, game, state, marked) {
  const r = board.reviews.get(index);
  const m = marked(r);
  if (!r || !m) return "";
  return ` <span class="mark ${m[1]}">${m[0]} ${m[1]}</span> <span class="better">better: <code>${esc(r.best.move)}</code>
    ${esc(moveLabel(game, r.best.move, state))} (−${Number(r.margin_loss).toFixed(1)} margin of ${Number(r.stake ?? 0).toFixed(1)} at stake)</span>`;
}

function renderLog(game, markOf) {
  const rows = board.moves.map((m, i) => {
    const r = board.reviews.get(i);
    const marked = markOf(r);
    const before = position(i)[stateKey(game)];
    const better = marked ? `<div class="better small">better: <code>${esc(r.best.move)}</code> ${esc(moveLabel(game, r.best.move, before))}</div>` : "";
    return `<li data-ply="${i + 1}" class="${i + 1 === board.at ? "current" : ""}${marked ? ` ${marked[1]}` : ""}"><span class="seat-dot seat-${m.seat}"></span>${esc(seatName(m.seat, []))}: <code>${esc(m.move)}</code><span class="muted">${esc(m.note)}</span>${marked ? ` <span class="mark ${marked[1]}" title="${marked[1]}">${marked[0]}</span>` : ""}${better}</li>`;
  }).join("");
  $("log").innerHTML = rows;
  $("log").querySelector("li.current")?.scrollIntoView({ block: "nearest" });
}

function renderSummary(seats) {
  const players = board.summary?.players ?? [];
  $("analysis-summary").innerHTML = players.length ? `<table class="score-breakdown"><thead><tr><th>Seat</th><th class="num">Accuracy</th>
    <th class="num">Mean loss</th><th class="num">Noise</th></tr></thead><tbody>${players.map((p) => `<tr>
    <td>${esc(seatName(Number(p.player ?? 0), seats))}</td><td class="num" title="± its standard error">${Number(p.accuracy ?? 100).toFixed(1)}% ± ${Number(p.accuracy_se ?? 0).toFixed(1)}</td>
    <td class="num">${Number(p.mean_margin_loss ?? 0).toFixed(2)}</td><td class="num">${Number(p.noise_floor ?? 0).toFixed(2)}</td></tr>`).join("")}</tbody></table>` : "";
}

/** Mark the parts of the drawn board the last move touched: the mover's area, and the
 *  tiles, roles, ships or buildings its notation names. */
function highlight(root, last) {
  root.querySelector(`section.player[data-seat="${last.seat}"]`)?.classList.add("last-mover");
  const [, rest = ""] = last.move.split(":");
  const names = rest.split(/[@+/.>]/).filter((w) => w && Number.isNaN(Number(w))).map((w) => titleCase(w).toLowerCase());
  if (!names.length) return;
  const scope = root.querySelector(`section.player[data-seat="${last.seat}"]`) ?? root;
  for (const where of [scope, root.querySelector(".common")]) {
    for (const el of where?.querySelectorAll(".tile, .role, .supply-building, .good, .ship") ?? []) {
      const text = `${el.getAttribute("title") ?? ""} ${el.textContent}`.toLowerCase();
      if (names.some((n) => text.includes(n))) el.classList.add("last-move");
    }
  }
}

/** The final score of each seat, split into the parts its game's page module names (scoreParts). */
function scoreBreakdown(final, seats) {
  const result = board.result;
  const state = final[stateKey(final.game)];
  const facts = board.facts()[final.game];
  const winners = new Set(result.winners ?? []);
  const split = gameModule(final.game)?.scoreParts;
  const scores = result.scores ?? [];
  const parts = scores.map((score, seat) => split && facts ? split(state?.players?.[seat] ?? {}, score, facts) : []);
  const rows = scores.map((score, seat) => {
    const cells = parts[seat].map(([, value]) => `<td class="num">${value}</td>`).join("");
    return `<tr class="${winners.has(seat) ? "winner" : ""}"><td>${esc(seatName(seat, seats))}</td>${cells}
      <td class="num">${score}</td><td class="num">${result.tiebreaks?.[seat] ?? ""}</td></tr>`;
  }).join("");
  const head = (parts[0] ?? []).map(([name]) => `<th class=num>${esc(name)}</th>`).join("");
  return `<h3>Final score</h3><table class="score-breakdown"><thead><tr><th>Seat</th>${head}<th class="num">Total</th>
    <th class="num">Tie-break</th></tr></thead><tbody>${rows}</tbody></table>`;
}
