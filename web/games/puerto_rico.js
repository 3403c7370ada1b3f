// The Puerto Rico board (base game and The New Buildings), drawn from a position's puerto_rico part.
import { esc, pill, seatName } from "../draw.js";
import { titleCase } from "../labels.js";

const GOOD_CLASS = (good) => `good good-${good}`;

function goodsRow(goods, facts, { zero = false } = {}) {
  return facts.goods.filter((g) => zero || goods?.[g]).map((g) =>
    `<span class="${GOOD_CLASS(g)}" title="${g}">${g} ${goods?.[g] ?? 0}</span>`).join(" ") || "<span class=muted>none</span>";
}

function circles(filled, total) {
  return Array.from({ length: total }, (_, i) => `<span class="circle${i < filled ? " filled" : ""}"></span>`).join("");
}

function island(player, facts) {
  const tiles = [];
  for (const good of facts.goods) {
    const count = player.plantations?.[good] ?? 0;
    const manned = player.plantation_colonists?.[good] ?? 0;
    for (let i = 0; i < count; i++) tiles.push(`<div class="tile plantation ${GOOD_CLASS(good)}" title="${good} plantation">${good}<br>${circles(i < manned ? 1 : 0, 1)}</div>`);
  }
  for (let i = 0; i < (player.quarries ?? 0); i++) {
    tiles.push(`<div class="tile quarry" title="quarry">quarry<br>${circles(i < (player.quarry_colonists ?? 0) ? 1 : 0, 1)}</div>`);
  }
  for (let i = 0; i < (player.forests ?? 0); i++) tiles.push(`<div class="tile forest" title="forest">forest</div>`);
  while (tiles.length < facts.island_spaces) tiles.push(`<div class="tile empty"></div>`);
  return `<div class="island">${tiles.join("")}</div>`;
}

function city(player, facts) {
  const byName = Object.fromEntries(facts.buildings.map((b) => [b.name, b]));
  const spaces = [];
  for (const built of player.buildings ?? []) {
    const b = byName[built.building] ?? { circles: 1, spaces: 1, vp: 0 };
    const kind = b.good ? `production prod-${b.good}` : "violet";
    spaces.push(`<div class="tile building ${kind}${b.spaces === 2 ? " large" : ""}" title="${esc(titleCase(built.building))}: ${b.vp} VP. ${esc(b.effect ?? "")}">
      ${esc(titleCase(built.building))}<br>${circles(built.colonists ?? 0, b.circles)}</div>`);
  }
  const used = (player.buildings ?? []).reduce((n, built) => n + (byName[built.building]?.spaces ?? 1), 0);
  for (let i = used; i < facts.city_spaces; i++) spaces.push(`<div class="tile empty"></div>`);
  return `<div class="city">${spaces.join("")}</div>`;
}

function playerBoard(player, seat, s, facts, seats) {
  const classes = ["player"];
  if (seat === s.current_player) classes.push("to-move");
  const placing = s.phase === "mayor" && seat === s.current_player && s.progress?.to_place
    ? ` <span class="pill to-place">${s.progress.to_place} colonist${s.progress.to_place === 1 ? "" : "s"} to place</span>` : "";
  return `<section class="${classes.join(" ")}" data-seat="${seat}">
    <h3>${seatName(seat, seats)}${seat === s.governor ? ' <span class="badge">governor</span>' : ""}${seat === s.current_player ? ' <span class="badge move">to move</span>' : ""}</h3>
    <div class="stats">${pill("doubloons", player.doubloons)} ${pill("VP chips", player.vp_chips)} ${pill("San Juan colonists", player.san_juan)}
      ${player.forests !== undefined && player.forests !== null ? pill("forests", player.forests) : ""}${placing}</div>
    <div class="row"><b>Goods</b> ${goodsRow(player.goods, facts)}</div>
    <div class="boards"><div><b>Island</b>${island(player, facts)}</div><div><b>City</b>${city(player, facts)}</div></div>
  </section>`;
}

function roles(s) {
  return (s.roles ?? []).map((r) => `<div class="role${r.taken ? " taken" : ""}" title="${r.taken ? "taken this round" : "available"}">
    ${esc(titleCase(r.role))}${r.doubloons ? `<span class="coin">${r.doubloons}</span>` : ""}</div>`).join("");
}

function ships(s) {
  return (s.ships ?? []).map((ship) => {
    const holds = Array.from({ length: ship.capacity }, (_, i) =>
      `<span class="hold${i < ship.count ? ` ${GOOD_CLASS(ship.good)}` : ""}"></span>`).join("");
    return `<div class="ship" title="ship of ${ship.capacity}${ship.good ? `: ${ship.count} ${ship.good}` : ", empty"}">
      <span class="ship-label">${ship.capacity}</span>${holds}</div>`;
  }).join("");
}

function tradingHouse(s, facts) {
  const barrels = facts.goods.flatMap((g) => Array(s.trading_house?.[g] ?? 0).fill(g));
  const slots = Array.from({ length: 4 }, (_, i) => barrels[i]
    ? `<span class="hold ${GOOD_CLASS(barrels[i])}" title="${barrels[i]}"></span>` : `<span class="hold"></span>`);
  return slots.join("");
}

function supply(s, facts) {
  const byName = Object.fromEntries(facts.buildings.map((b) => [b.name, b]));
  const inGame = Object.entries(s.building_supply ?? {}).filter(([name, count]) => count !== null && count !== undefined && byName[name]);
  return inGame
    .sort(([a], [b]) => byName[a].cost - byName[b].cost)
    .map(([name, count]) => {
      const b = byName[name];
      return `<div class="supply-building${count ? "" : " gone"}${b.good ? ` production prod-${b.good}` : " violet"}" title="${esc(titleCase(name))}: cost ${b.cost}, ${b.vp} VP, ${b.circles} circle(s). ${esc(b.effect)}">
        <span>${esc(titleCase(name))}</span><span class="muted">${b.cost}d · ${b.vp}VP · ×${count}</span></div>`;
    }).join("");
}

function effects(s, facts) {
  const inGame = new Set(Object.entries(s.building_supply ?? {}).filter(([, count]) => count !== null && count !== undefined).map(([name]) => name));
  return facts.buildings.filter((b) => inGame.has(b.name))
    .map((b) => `<dt>${esc(titleCase(b.name))}</dt><dd>${esc(b.effect)}</dd>`).join("");
}

/** The whole table of a Puerto Rico position. */
export function drawPuertoRico(s, facts, seats) {
  const phase = s.phase === "end" ? "game over" : s.phase;
  const progress = s.progress ?? {};
  const extras = [];
  if (s.new_buildings) extras.push(pill("forests left", s.new_buildings.forest_supply));
  if (progress.window) extras.push(pill("Guest House window", progress.window));
  const market = progress.black_market;
  if (market?.building) extras.push(pill("Black Market", `${titleCase(market.building)} (${market.due} due${market.colonist_declined ? ", without the University colonist" : ""})`));
  return `<div class="pr">
    <section class="common">
      <div class="stats">${pill("phase", phase)} ${pill("colonist ship", s.colonist_ship)} ${pill("colonist supply", s.colonist_supply)}
        ${pill("VP supply", s.vp_supply)} ${pill("quarries", s.quarry_supply)} ${s.end_triggered ? pill("end", "last round") : ""} ${extras.join(" ")}</div>
      <div class="row"><b>Roles</b><div class="roles">${roles(s)}</div></div>
      <div class="row"><b>Ships</b><div class="ships">${ships(s)}</div><b>Trading house</b><div class="ship">${tradingHouse(s, facts)}</div></div>
      <div class="row"><b>Face-up plantations</b> ${goodsRow(s.faceup_plantations, facts)}</div>
      <div class="row"><b>Plantations face down</b> ${goodsRow(s.plantation_stack, facts, { zero: true })}</div>
      <div class="row"><b>Goods supply</b> ${goodsRow(s.goods_supply, facts, { zero: true })}</div>
      ${s.new_buildings?.violet_buildings?.length ? `<div class="row"><b>Violet buildings in play</b> ${s.new_buildings.violet_buildings.map((b) => esc(titleCase(b))).join(", ")}</div>` : ""}
      <details open><summary>Buildings for sale</summary><div class="supply">${supply(s, facts)}</div></details>
      <details class="effects"><summary>What the buildings do</summary><dl class="effects">${effects(s, facts)}</dl></details>
    </section>
    <div class="players">${(s.players ?? []).map((p, seat) => playerBoard(p, seat, s, facts, seats)).join("")}</div>
  </div>`;
}

// ------------------------------------------------------------------ the page's hooks (web/games.js)
export { drawPuertoRico as draw, puertoRico as moveLabel };

/** A readable label for a move's notation. */
function puertoRico(move) {
  if (move.endsWith("/decline")) {
    const from = move.startsWith("build:") ? "University" : "Hospice";
    return `${puertoRico(move.slice(0, -"/decline".length))} without the ${from} colonist`;
  }
  const [kind, rest = ""] = move.split(":");
  const [what, at] = rest.split("@");
  const name = titleCase(what || "");
  switch (kind) {
    case "role": return `Take the ${name} role`;
    case "decline": return what === "mayor" ? "Take the Mayor role without its privilege" : `Decline the ${name}'s privilege`;
    case "settle": return what === "quarry" ? "Settle a quarry" : `Settle a ${what} plantation`;
    case "hacienda":
      if (!rest) return "Draw a plantation with the Hacienda";
      return what === "forest" ? "Place the Hacienda tile as a forest" : "Plant the Hacienda tile";
    case "build": return `Build the ${name}`;
    case "place": return `Put a colonist on ${["corn", "indigo", "sugar", "tobacco", "coffee"].includes(what) ? `a ${what} plantation` : `the ${name}`}`;
    case "craft": return `Take a ${what} barrel`;
    case "sell": return `Sell ${what}`;
    case "load": return `Load ${what} on the ${at}-barrel ship`;
    case "wharf": return `Ship ${what} with the Wharf`;
    case "small_wharf": return `Ship a ${what} barrel with the Small Wharf`;
    case "store": return `Keep all ${what} in a warehouse`;
    case "keep": return `Keep a ${what} barrel`;
    case "draft": return `Draft the ${name}`;
    case "forest": return `Take the ${what} plantation as a forest`;
    case "post": return `Sell ${what} to your Trading Post`;
    case "give": return at ? `Give up a colonist from ${titleCase(at)}` : what === "vp" ? "Give up a VP chip" : `Give up a ${what} barrel`;
    case "guest": return `Move a Guest House colonist to ${name}`;
    case "pass": return "Pass";
    default: return titleCase(move);
  }
}

/** A seat's final score in parts (the analysis board's breakdown): VP chips, buildings and bonuses. */
export function scoreParts(player, score, facts) {
  const vp = Object.fromEntries(facts.buildings.map((b) => [b.name, b.vp]));
  const chips = Number(player.vp_chips ?? 0);
  const buildings = (player.buildings ?? []).reduce((n, b) => n + (vp[b.building] ?? 0), 0);
  return [["VP chips", chips], ["Buildings", buildings], ["Bonuses", score - chips - buildings]];
}
