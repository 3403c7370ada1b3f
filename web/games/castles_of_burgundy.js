// The Castles of Burgundy board (estate board No. 1), drawn from a position's castles_of_burgundy part.
import { esc, pill, seatName } from "../draw.js";
import { titleCase } from "../labels.js";

const HEX = 22;  // hex radius in SVG units
const GOODS = [1, 2, 3, 4, 5, 6];

const SHORT = { boarding_house: "boarding", city_hall: "city hall", watchtower: "tower", warehouse: "wareh.", carpenter: "carp." };
const short = (tile) => SHORT[tile] ?? tile.replace(/^knowledge/, "K").replace(/^chickens/, "chick").replace(/^cows/, "cow");

function tileChip(tile, facts) {
  if (!tile) return `<span class="cob-tile empty">—</span>`;
  const colour = facts.tile_colours[tile] ?? "unknown";
  return `<span class="cob-tile colour-${colour}" title="${esc(titleCase(tile))}">${esc(short(tile))}</span>`;
}

function hexPoints(cx, cy) {
  return Array.from({ length: 6 }, (_, i) => {
    const angle = Math.PI / 180 * (60 * i - 30);
    return `${(cx + HEX * Math.cos(angle)).toFixed(1)},${(cy + HEX * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

function estate(player, facts) {
  const placed = player.estate ?? {};
  const width = HEX * Math.sqrt(3);
  const centres = facts.cells.map((c) => [width * (c.q + c.r / 2), HEX * 1.5 * c.r]);
  const xs = centres.map(([x]) => x), ys = centres.map(([, y]) => y);
  const [minX, minY] = [Math.min(...xs) - HEX, Math.min(...ys) - HEX];
  const [w, h] = [Math.max(...xs) + HEX - minX, Math.max(...ys) + HEX - minY];
  const cells = facts.cells.map((cell, i) => {
    const [cx, cy] = centres[i];
    const tile = placed[cell.space] ?? placed[String(cell.space)];
    const label = tile ? `<text x="${cx}" y="${cy + 3}" class="hex-tile">${esc(short(tile))}</text>`
      : `<text x="${cx}" y="${cy + 4}" class="hex-die">${cell.die}</text>`;
    return `<g class="hex colour-${cell.colour}${tile ? " placed" : ""}" data-space="${cell.space}">
      <title>space ${cell.space}: ${cell.colour}, die ${cell.die}${tile ? ` — ${titleCase(tile)}` : ""}</title>
      <polygon points="${hexPoints(cx, cy)}"/>${label}<text x="${cx}" y="${cy - 10}" class="hex-space">${cell.space}</text></g>`;
  }).join("");
  return `<svg class="estate" viewBox="${minX} ${minY} ${w} ${h}" role="img" aria-label="estate">${cells}</svg>`;
}

function goods(counts, cls = "") {
  return GOODS.map((g, i) => counts?.[i] ? `<span class="cob-goods g${g} ${cls}" title="goods ${g}">${g}×${counts[i]}</span>` : "").join("") || `<span class="muted">none</span>`;
}

function playerBoard(player, seat, s, facts, seats) {
  const dice = (player.dice ?? []).map((d) => `<span class="die${d ? "" : " used"}">${d || "·"}</span>`).join("");
  const storage = (player.storage ?? []).map((t) => tileChip(t, facts)).join("") || `<span class="muted">empty</span>`;
  const bonus = Object.entries(player.bonus_tiles ?? {}).map(([colour, which]) => `${colour} (${which})`).join(", ") || "none";
  return `<section class="player${seat === s.current_player ? " to-move" : ""}" data-seat="${seat}">
    <h3>${seatName(seat, seats)}${seat === s.current_player ? ' <span class="badge move">to move</span>' : ""}</h3>
    <div class="stats">${pill("VP", player.vp)} ${pill("silverlings", player.silverlings)} ${pill("workers", player.workers)} <span class="pill"><span class="muted">dice</span> ${dice}</span></div>
    <div class="row"><b>Goods</b> ${goods(player.goods)} <b>Sold</b> ${goods(player.sold, "sold")}</div>
    <div class="row"><b>Storage</b> ${storage} <b>Bonus tiles</b> ${esc(bonus)}</div>
    ${estate(player, facts)}
  </section>`;
}

function depots(s, facts) {
  return (s.depots ?? []).map((depot, i) => `<div class="depot"><b>${i + 1}</b>
    <div>${(depot.tiles ?? []).map((t) => tileChip(t, facts)).join("")}</div>
    <div>${goods(depot.goods)}</div></div>`).join("");
}

/** The whole table of a Castles of Burgundy position. */
export function drawCastlesOfBurgundy(s, facts, seats) {
  const over = s.current_player === -1 || s.stage === "end";
  const order = (s.turn_order ?? []).map((seat) => seatName(seat, seats)).join(" → ");
  const roundGoods = (s.round_goods ?? []).map((g) => g ? `<span class="cob-goods g${g}">${g}</span>` : `<span class="cob-goods taken">·</span>`).join("");
  const pending = s.pending?.tile ? pill("placing", `${titleCase(s.pending.tile)}${s.pending.cell ? ` on ${s.pending.cell}` : ""}`) : "";
  return `<div class="cob">
    <section class="common">
      <div class="stats">${pill("phase", s.phase)} ${pill("round", s.round)} ${pill("stage", over ? "game over" : s.stage)}
        ${pill("black depot bought", s.bought ? "yes" : "no")} ${pending}</div>
      <div class="row"><b>Turn order</b> ${esc(order)}</div>
      <div class="row"><b>Goods of the round spaces</b> ${roundGoods}</div>
      <div class="depots">${depots(s, facts)}</div>
      <div class="row"><b>Black depot</b> ${(s.black_depot ?? []).map((t) => tileChip(t, facts)).join("")}</div>
    </section>
    <div class="players">${(s.players ?? []).map((p, seat) => playerBoard(p, seat, s, facts, seats)).join("")}</div>
  </div>`;
}

// ------------------------------------------------------------------ the page's hooks (web/games.js)
export { drawCastlesOfBurgundy as draw, castlesOfBurgundy as moveLabel };

/** A readable label for a move's notation in a position (`state`: the game's part). */
function castlesOfBurgundy(move, state) {
  const [head, die] = move.split("@");
  const withDie = die ? ` with the ${die}` : "";
  const [kind, arg = ""] = head.split(":");
  const depotTile = (depot, slot) => state?.depots?.[depot - 1]?.tiles?.[slot - 1];
  switch (kind) {
    case "take": {
      const [depot, slot] = arg.split(".").map(Number);
      return `Take ${titleCase(depotTile(depot, slot) || "a tile")} from depot ${depot}${withDie}`;
    }
    case "place": return `Place ${titleCase(state?.pending?.tile || "a stored tile")} on space ${arg}${withDie}`;
    case "sell": return `Sell goods ${arg}${withDie}`;
    case "workers": return `Take workers${withDie}`;
    case "tile": return `Place the ${titleCase(arg)}`;
    case "discard": return `Discard the stored ${titleCase(arg)}`;
    case "buy": {
      if (arg.startsWith("black")) {
        const slot = Number(arg.slice(5));
        return `Buy ${titleCase(state?.black_depot?.[slot - 1] || "a tile")} from the black depot`;
      }
      const [depot, slot] = arg.split(".").map(Number);
      return `Buy ${titleCase(depotTile(depot, slot) || "a tile")} from depot ${depot}`;
    }
    case "ship": return `Ship the goods of depot ${arg.replace("+", " and ")}`;
    case "goods": return `Take the goods ${arg}`;
    case "pass": return "Pass";
    default: return titleCase(move);
  }
}
