// The play page: set up or load a game, draw it, let the human seats choose among the legal
// moves with live hints, and let the bots answer with BestMove.
import { beginRecord, initAnalysisBoard, readableError, recordMove, recordResult } from "./analysis_board.js";
import { drawCastlesOfBurgundy } from "./castles_of_burgundy.js";
import { esc, seatName } from "./draw.js";
import { moveLabel, titleCase } from "./labels.js";
import { drawPuertoRico } from "./puerto_rico.js";
import { serverStream, unary } from "./rpc.js";
import { drawTradersOfGenoa } from "./traders_of_genoa.js";

const DRAW = { "puerto-rico": drawPuertoRico, "castles-of-burgundy": drawCastlesOfBurgundy,
  "traders-of-genoa": drawTradersOfGenoa };
const LEVELS = Array.from({ length: 10 }, (_, i) => i + 1);
const HINT_MOVES = 6;
const params = new URLSearchParams(location.search);
const BOT_DELAY_MS = Number(params.get("botDelay") ?? 400);

const $ = (id) => document.getElementById(id);
const stateKey = (game) => game.replace(/-/g, "_");
const table = {
  games: [], facts: {}, position: null, seats: [], moves: [], result: null,
  generation: 0, hint: null, seed: 0, ply: 0,
};

/** Keys of a pasted position in proto field names (a lowerCamelCase "puertoRico" → "puerto_rico"). */
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
    beginRecord(reply.position);
    setPosition(reply.position);
  } catch (error) {
    fail(error);
  }
}

// ------------------------------------------------------------------ play
function setPosition(position) {
  table.position = position;
  table.generation += 1;
  stopHint();
  draw();
  advance(table.generation).catch(fail);
}

function boardHtml(position) {
  const drawGame = DRAW[position.game];
  return drawGame ? drawGame(position[stateKey(position.game)], table.facts[position.game], table.seats)
    : `<pre>${esc(JSON.stringify(position, null, 2))}</pre>`;
}

function draw() {
  $("board").innerHTML = boardHtml(table.position);
  $("position-json").value = JSON.stringify(table.position, null, 2);
}

async function advance(generation) {
  const position = table.position;
  const legal = await unary("Rules/LegalMoves", { position });
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
  const best = await unary("Analysis/BestMove", { position, level: who.level });
  if (generation !== table.generation) return;
  const wait = BOT_DELAY_MS - (performance.now() - started);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  if (generation === table.generation) await play(best.move);
}

async function play(move) {
  if (!table.position) return;
  stopHint();
  const generation = table.generation;
  table.ply += 1;
  const seed = (table.seed * 7919 + table.ply) % 2 ** 32;
  const seat = table.position[stateKey(table.position.game)]?.current_player ?? 0;
  const reply = await unary("Rules/ApplyMove", { position: table.position, move, seed });
  if (generation !== table.generation) return;
  setPosition(reply.position);
  recordMove(seat, move, seed, reply.position);  // after: a position stepped back to stays on the board
}

function renderMoves(seat, human) {
  const state = table.position[stateKey(table.position.game)];
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
  serverStream("Analysis/AnalyzeStream", { position: table.position, budget, report_every_ms: 100, max_moves: HINT_MOVES }, (update) => {
    if (generation !== table.generation) return;
    first ??= performance.now() - started;
    renderHint(update, first);
  }, { signal: abort.signal }).catch((error) => {
    if (error.name === "AbortError" || generation !== table.generation) return;
    $("hint-body").innerHTML = `<p class="error">No hint: ${esc(readableError(error))}</p>`;  // not "Searching…"
    fail(error);
  });
}

function renderHint(update, firstMs) {
  const state = table.position[stateKey(table.position.game)];
  const moves = update.moves ?? [];
  const most = Math.max(1, ...moves.map((m) => Number(m.visits)));
  const rows = moves.map((m, i) => `<tr>
    <td><button class="play-hint" data-move="${esc(m.move)}" title="play ${esc(m.move)}">▶</button></td>
    <td><code>${esc(m.move)}</code><div class="muted small">${esc(moveLabel(table.position.game, m.move, state))}</div>
      <div class="small pv" title="principal variation">${(m.pv ?? []).slice(1).map((x) => `<code>${esc(x)}</code>`).join(" → ")}</div></td>
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
function savePosition() {
  if (!table.position) return;
  const blob = new Blob([JSON.stringify(table.position, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${table.position.game}-position.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

async function loadPosition(text) {
  let position;
  try {
    position = snakeKeys(JSON.parse(text));
  } catch (error) {
    return status(`The position is not JSON: ${error.message}`, "error");
  }
  try {
    await unary("Rules/LegalMoves", { position });  // checked by the server: errors name the field
  } catch (error) {
    return fail(error);
  }
  const players = position[stateKey(position.game ?? "")]?.players?.length ?? 0;
  renderSeats(players);
  table.seed = Math.floor(Math.random() * 2 ** 31);
  table.ply = 0;
  beginRecord(position);
  setPosition(position);
}

// ------------------------------------------------------------------ start
async function start() {
  try {
    const [facts, games] = await Promise.all([fetch("facts.json").then((r) => r.json()), unary("Rules/ListGames", {})]);
    table.facts = facts;
    table.games = games.games;
  } catch (error) {
    return fail(error);
  }
  $("game").innerHTML = table.games.map((g) => `<option value="${esc(g.id)}">${esc(g.title)}</option>`).join("");
  $("game").addEventListener("change", () => { $("players").value = ""; renderSetup(); });
  $("players").addEventListener("change", () => renderSeats(Number($("players").value)));
  $("seats").addEventListener("change", seatChanged);
  $("start").addEventListener("click", (e) => { e.preventDefault(); newGame(); });
  $("save").addEventListener("click", savePosition);
  $("load").addEventListener("click", () => loadPosition($("position-json").value));
  $("load-file").addEventListener("change", async (e) => { if (e.target.files[0]) loadPosition(await e.target.files[0].text()); });
  $("token").addEventListener("change", (e) => sessionStorage.setItem("meeplemind-token", e.target.value.trim()));
  $("token").value = sessionStorage.getItem("meeplemind-token") ?? "";
  $("hint-on").addEventListener("change", () => table.position && setPosition(table.position));
  document.body.addEventListener("click", (e) => {
    const button = e.target.closest("button.move:not([disabled]), button.play-hint");
    if (button) play(button.dataset.move).catch(fail);
  });
  initAnalysisBoard({ draw: boardHtml, seats: () => table.seats, facts: () => table.facts });
  renderSetup();
  status("Set up a game, or load a position.");
  document.body.dataset.ready = "yes";
}

start();
