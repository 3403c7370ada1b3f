// The play page, a referee: it keeps the table's true state (every hand), shows the human only
// what his seat sees (Rules/Observe), lets him choose among his legal moves with live hints
// searched from his view, asks each bot's move with that bot as the viewer (the service masks
// the truth to the viewer's observation), and gives every move to the analysis board, which
// keeps the game record and the move log (element id "log") and steps through the game.
import { beginRecord, cancelled, gameRecord, initAnalysisBoard, readableError, recordMove, recordResult, refreshBoard } from "./analysis_board.js";
import { esc, seatName, stateKey } from "./draw.js";
import { gameModule, loadGames } from "./games.js";
import { moveLabel, titleCase } from "./labels.js";
import { serverStream, unary } from "./rpc.js";

const LEVELS = Array.from({ length: 10 }, (_, i) => i + 1);
const HINT_MOVES = 6;
const params = new URLSearchParams(location.search);
const BOT_DELAY_MS = Number(params.get("botDelay") ?? 400);
// ?botIterations=N: every bot searches N iterations instead of its level's budget (a seeded
// game then replays move for move on any machine)
const BOT_ITERATIONS = Number(params.get("botIterations") ?? 0);

const $ = (id) => document.getElementById(id);
const table = {
  games: [], facts: {}, position: null, view: null, seats: [], moves: [], result: null,
  generation: 0, hint: null, seed: 0, ply: 0,
};

/** Keys of a pasted position in proto field names (a lowerCamelCase "vpChips" → "vp_chips"). */
function snakeKeys(value) {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)]));
  }
  return value;
}

function status(text, kind = "") {
  const box = $("status");
  box.textContent = text;
  box.className = kind;
}

function fail(error) {
  status(readableError(error), "error");
  console.error(error);
}

// ------------------------------------------------------------------ set-up
function gameInfo() {
  return table.games.find((g) => g.id === $("game").value);
}

function renderSetup() {
  const info = gameInfo();
  const players = $("players");
  const chosen = Number(players.value) || info.player_counts[1] || info.player_counts[0];
  players.innerHTML = info.player_counts.map((n) => `<option${n === chosen ? " selected" : ""}>${n}</option>`).join("");
  $("options").innerHTML = info.options.map((o) => `<label>${esc(titleCase(o.name))} ${o.values.length
    ? `<select data-option="${esc(o.name)}" data-default="${esc(o.default_value)}">${o.values.map((v) => `<option${v === o.default_value ? " selected" : ""}>${esc(v)}</option>`).join("")}</select>`
    : `<input data-option="${esc(o.name)}" data-default="" placeholder="default" size="14">`}</label>`).join("");
  renderSeats(Number(players.value));
}

function renderSeats(count) {
  while (table.seats.length < count) table.seats.push(table.seats.length === 0 ? { kind: "human", level: 3 } : { kind: "bot", level: 2 });
  table.seats.length = count;
  $("seats").innerHTML = table.seats.map((seat, i) => `<label>Seat ${i + 1}
    <select data-seat="${i}"><option value="human"${seat.kind === "human" ? " selected" : ""}>human</option>
    ${LEVELS.map((l) => `<option value="${l}"${seat.kind === "bot" && seat.level === l ? " selected" : ""}>bot level ${l}</option>`).join("")}</select></label>`).join("");
}

function seatChanged(event) {
  const select = event.target.closest("select[data-seat]");
  if (!select) return;
  const seat = Number(select.dataset.seat);
  table.seats[seat] = select.value === "human" ? { kind: "human", level: 3 } : { kind: "bot", level: Number(select.value) };
  if (table.position) setPosition(table.position);  // the seat to move may have changed hands
}

async function newGame() {
  const options = Object.fromEntries([...document.querySelectorAll("[data-option]")]
    .filter((s) => s.value.trim() !== s.dataset.default).map((s) => [s.dataset.option, s.value.trim()]));  // defaults left out
  const seedText = $("seed").value.trim();
  table.seed = seedText === "" ? Math.floor(Math.random() * 2 ** 31) : Number(seedText);
  table.ply = 0;
  try {
    const reply = await unary("Rules/NewGame", { game: $("game").value, players: Number($("players").value), seed: table.seed, options });
    setPosition(reply.position, { start: true });
  } catch (error) {
    fail(error);
  }
}

// ------------------------------------------------------------------ play
/** The first human seat: whose view the page shows (none: every seat is a bot). */
function humanSeat() {
  const seat = table.seats.findIndex((s) => s.kind === "human");
  return seat < 0 ? null : seat;
}

const asViewer = (position, seat) => ({ ...position, viewer: seat });
/** The seed of the next move's chance (ahead 1) or of a search before it (0): a game's seed
 * replays the whole game, the bots' choices too. */
const plySeed = (ahead = 0) => (table.seed * 7919 + table.ply + ahead) % 2 ** 32;

/** The table's true state is now ``position`` (after a move, ``logged`` is its analysis-board
 * entry and the human's view before it; ``{start: true}`` for a new game): show the human's view of it and go on. */
function setPosition(position, logged = null) {
  table.position = position;
  table.generation += 1;
  stopHint();
  const generation = table.generation;
  refresh(generation, logged).then(() => generation === table.generation && advance(generation)).catch(fail);
}

/** What the human sees (the truth itself when no seat is human), drawn and logged. */
async function refresh(generation, logged) {
  const seat = humanSeat();
  const view = seat === null ? table.position
    : (await unary("Rules/Observe", { position: asViewer(table.position, seat) })).position;
  if (generation !== table.generation) return;
  table.view = view;
  if (logged?.start) beginRecord(table.position, view);
  else if (logged) Object.assign(logged.entry, { after: view, note: drawnCards(logged.before, view) });
  draw();
  refreshBoard();  // the board follows the game: the log, the last move highlighted
}

/** A position's board as HTML (the analysis board draws the positions stepped to with it). */
function boardHtml(position) {
  const game = gameModule(position.game);
  return game ? game.draw(position[stateKey(position.game)], table.facts[position.game], table.seats)
    : `<pre>${esc(JSON.stringify(position, null, 2))}</pre>`;
}

function draw() {
  $("board").innerHTML = boardHtml(table.view);
  $("position-json").value = JSON.stringify(table.view, null, 2);  // the human's view, never the truth
}

async function advance(generation) {
  let position = table.position;
  let legal = await unary("Rules/LegalMoves", { position });
  if (legal.current_player !== undefined && legal.current_player !== (position.viewer ?? 0)) {
    position = table.position = asViewer(position, legal.current_player);  // the mover's moves, as he knows them
    legal = await unary("Rules/LegalMoves", { position });
  }
  if (generation !== table.generation) return;
  table.moves = legal.moves ?? [];
  table.result = legal.result ?? null;
  const seat = legal.current_player;
  if (!table.moves.length) return showResult();
  $("result").hidden = true;
  const who = table.seats[seat] ?? { kind: "human" };
  renderMoves(seat, who.kind === "human");
  if (who.kind === "human") {
    status(`${seatName(seat, table.seats)} to move: choose a move or a hint.`);
    startHint(generation);
    return;
  }
  status(`${seatName(seat, table.seats)} is thinking…`);
  const started = performance.now();
  const strength = BOT_ITERATIONS > 0 ? { budget: { iterations: BOT_ITERATIONS, threads: 1 } } : { level: who.level };
  const best = await unary("Analysis/BestMove", { position: asViewer(position, seat), ...strength, seed: plySeed() });
  if (generation !== table.generation) return;
  const wait = BOT_DELAY_MS - (performance.now() - started);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  if (generation === table.generation) await play(best.move);
}

async function play(move) {
  if (!table.position) return;
  stopHint();
  const generation = table.generation;
  const seat = table.position.viewer ?? 0;  // advance() made the mover the truth's viewer
  const before = table.view;
  const seed = plySeed(1);
  table.ply += 1;
  const reply = await unary("Rules/ApplyMove", { position: table.position, move, seed });
  if (generation !== table.generation) return;
  setPosition(reply.position, { entry: recordMove(seat, move, seed), before });  // recorded at once; its view comes in refresh
}

/** Cards a move drew, as the human sees them (``before`` and ``after`` his views), in the
 * words of the game's page module (a game whose moves draw none has no drawnCards). */
function drawnCards(before, after) {
  const game = before?.game;
  const drawn = gameModule(game)?.drawnCards;
  if (!drawn || !after) return "";
  const parts = drawn(before[stateKey(game)], after[stateKey(game)], humanSeat(), table.facts[game]);
  return parts.length ? ` (${parts.join("; ")})` : "";
}

function renderMoves(seat, human) {
  const state = table.view[stateKey(table.view.game)];
  $("moves-title").textContent = human ? `Your moves (${seatName(seat, table.seats)})` : `Moves of ${seatName(seat, table.seats)}`;
  $("moves").innerHTML = table.moves.map((m) => `<button class="move" data-move="${esc(m.notation)}" ${human ? "" : "disabled"}
    title="${esc(moveLabel(table.position.game, m.notation, state))}"><code>${esc(m.notation)}</code> <span>${esc(moveLabel(table.position.game, m.notation, state))}</span></button>`).join("");
}

function showResult() {
  $("moves").innerHTML = "";
  $("moves-title").textContent = "Moves";
  const box = $("result");
  box.hidden = false;
  const result = table.result;
  if (!result) {
    box.innerHTML = `<h2>Game over</h2><p class="muted">This server does not report results.</p>`;
    status("Game over.");
    return;
  }
  recordResult(result);
  const winners = new Set(result.winners ?? []);
  const rows = (result.scores ?? []).map((score, seat) => `<tr class="${winners.has(seat) ? "winner" : ""}" data-seat="${seat}">
    <td>${result.ranks?.[seat] ?? ""}</td><td>${seatName(seat, table.seats)}</td><td class="score">${score}</td><td>${result.tiebreaks?.[seat] ?? ""}</td><td>${winners.has(seat) ? "🏆 winner" : ""}</td></tr>`).join("");
  box.innerHTML = `<h2>Game over</h2><table class="result"><thead><tr><th>Rank</th><th>Seat</th><th>Score</th><th>Tie-break</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
  status(`Game over: ${[...winners].map((s) => seatName(s, table.seats)).join(" and ")} won.`);
}

// ------------------------------------------------------------------ hints
function stopHint() {
  if (table.hint) table.hint.abort();
  table.hint = null;
  $("hint-body").innerHTML = `<p class="muted">Hints show here on your turn.</p>`;
}

function startHint(generation) {
  stopHint();
  if (!$("hint-on").checked) {
    $("hint-body").innerHTML = `<p class="muted">Hints are off.</p>`;
    return;
  }
  const abort = new AbortController();
  table.hint = abort;
  const started = performance.now();
  let first = null;
  $("hint-body").innerHTML = `<p class="muted">Searching…</p>`;
  const budget = { iterations: Number($("hint-iterations").value) };
  serverStream("Analysis/AnalyzeStream", { position: asViewer(table.position, humanSeat() ?? table.position.viewer ?? 0), budget, seed: plySeed(), report_every_ms: 100, max_moves: HINT_MOVES }, (update) => {
    if (generation !== table.generation) return;
    first ??= performance.now() - started;
    renderHint(update, first);
  }, { signal: abort.signal }).catch((error) => {
    if (cancelled(error) || generation !== table.generation) return;
    $("hint-body").innerHTML = `<p class="error">No hint: ${esc(readableError(error))}</p>`;  // not "Searching…"
    fail(error);
  });
}

function renderHint(update, firstMs) {
  const state = table.view[stateKey(table.view.game)];
  const moves = update.moves ?? [];
  const most = Math.max(1, ...moves.map((m) => Number(m.visits)));
  const rows = moves.map((m, i) => `<tr>
    <td><button class="play-hint" data-move="${esc(m.move)}" title="play ${esc(m.move)}">▶</button></td>
    <td><code>${esc(m.move)}</code><div class="muted small">${esc(moveLabel(table.position.game, m.move, state))}</div>
      <div class="small pv" title="principal variation">${(m.pv ?? []).slice(1).map((x, i) => `<span class="muted">S${Number(m.pv_players?.[i + 1] ?? 0) + 1}</span> <code>${esc(x)}</code>`).join(" → ")}</div></td>
    <td class="num">${(100 * m.win_rate).toFixed(1)}%</td>
    <td><div class="bar"><span style="width:${(100 * Number(m.visits) / most).toFixed(1)}%"></span></div><span class="small">${m.visits}</span></td>
    <td class="small">${(m.expected_scores ?? []).map((x, seat) => `<div title="${seatName(seat, table.seats)}">S${seat + 1}: ${Number(x).toFixed(1)}</div>`).join("")}</td></tr>`).join("");
  const stats = update.stats ?? {};
  $("hint-body").innerHTML = `<table class="hints"><thead><tr><th></th><th>Move</th><th>Win</th><th>Visits</th><th>Expected scores</th></tr></thead>
    <tbody>${rows}</tbody></table>
    <p class="small muted" id="hint-stats" data-final="${update.final ? "yes" : "no"}">${update.final ? "final" : "searching"} · ${stats.iterations ?? 0} iterations ·
      first update after <span id="hint-first-ms">${firstMs.toFixed(0)}</span> ms</p>`;
}

// ------------------------------------------------------------------ positions
function download(value, name) {
  const blob = new Blob([JSON.stringify(value, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The human's view of the table (what the page shows). */
function savePosition() {
  if (table.view) download(table.view, `${table.view.game}-position.json`);
}

/** The game so far as a GameRecord (the analysis board's): the true start and each move with
 * its chance seed, so it replays exactly (meeplemind review reads it). */
function saveGame() {
  const record = gameRecord();
  if (record.start) download(record, `${record.start.game}-game.json`);
}

/** A pasted or loaded position, or a saved game (a GameRecord, e.g. ``meeplemind selfplay
 * --json``: its start and its moves replayed with their seeds onto the analysis board). */
async function loadPosition(text) {
  let data;
  try {
    data = snakeKeys(JSON.parse(text));
  } catch (error) {
    return status(`The position is not JSON: ${error.message}`, "error");
  }
  const record = data?.start && Array.isArray(data.moves) ? data : null;
  let position = record ? record.start : data;
  try {
    await unary("Rules/LegalMoves", { position });  // checked by the server: errors name the field
  } catch (error) {
    return fail(error);
  }
  renderSeats(position[stateKey(position.game ?? "")]?.players?.length ?? 0);
  const seen = async (truth) => humanSeat() === null ? truth
    : (await unary("Rules/Observe", { position: asViewer(truth, humanSeat()) })).position;
  const moves = record?.moves ?? [];
  try {
    let view = await seen(position);
    beginRecord(position, view);
    for (const [i, played] of moves.entries()) {
      status(`Replaying move ${i + 1} of ${moves.length}…`);
      const seed = played.seed ?? 0;
      const seat = (await unary("Rules/LegalMoves", { position })).current_player;
      position = (await unary("Rules/ApplyMove", { position, move: played.move, seed })
        .catch((error) => { throw new Error(`moves[${i}] (${played.move}): ${readableError(error)}`); })).position;
      const after = await seen(position);
      Object.assign(recordMove(seat, played.move, seed), { after, note: drawnCards(view, after) });
      view = after;
    }
  } catch (error) {
    return fail(error);
  }
  table.seed = Math.floor(Math.random() * 2 ** 31);
  table.ply = moves.length;
  setPosition(position);
}

// ------------------------------------------------------------------ start
async function start() {
  try {
    const [facts, games] = await Promise.all([fetch("facts.json").then((r) => r.json()), unary("Rules/ListGames", {})]);
    table.facts = facts;
    table.games = games.games;
    await loadGames(table.games.map((g) => g.id));
  } catch (error) {
    return fail(error);
  }
  $("game").innerHTML = table.games.map((g) => `<option value="${esc(g.id)}">${esc(g.title)}</option>`).join("");
  $("game").addEventListener("change", () => { $("players").value = ""; renderSetup(); });
  $("players").addEventListener("change", () => renderSeats(Number($("players").value)));
  $("seats").addEventListener("change", seatChanged);
  $("start").addEventListener("click", (e) => { e.preventDefault(); newGame(); });
  $("save").addEventListener("click", savePosition);
  $("save-game").addEventListener("click", saveGame);
  $("load").addEventListener("click", () => loadPosition($("position-json").value));
  $("load-file").addEventListener("change", async (e) => { if (e.target.files[0]) loadPosition(await e.target.files[0].text()); });
  $("token").addEventListener("change", (e) => sessionStorage.setItem("meeplemind-token", e.target.value.trim()));
  $("token").value = sessionStorage.getItem("meeplemind-token") ?? "";
  $("hint-on").addEventListener("change", () => table.position && setPosition(table.position));
  initAnalysisBoard({ draw: boardHtml, seats: () => table.seats, facts: () => table.facts });
  document.body.addEventListener("click", (e) => {
    const button = e.target.closest("button.move:not([disabled]), button.play-hint");
    if (button) play(button.dataset.move).catch(fail);
  });
  renderSetup();
  status("Set up a game, or load a position.");
  document.body.dataset.ready = "yes";
}

start();
