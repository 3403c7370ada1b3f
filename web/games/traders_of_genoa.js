// The Traders of Genoa board (the 8×8 town, the tower's walk, the ownership markers), drawn
// from a position's traders_of_genoa part.
import { esc, pill, seatName } from "../draw.js";
import { titleCase } from "../labels.js";

const CELL = 44;  // square side in SVG units

const SHORT = { guild_hall: "guild", city_hall: "city hall", post_office: "post", cathedral: "cathedr.",
  metal_store: "metal", spice_store: "spice", grain_store: "grain", cloth_store: "cloth", coach_house: "coach",
  trattoria: "tratt." };
const short = (name) => SHORT[name] ?? name.replace(/^villa_/, "v. ");

function counts(map, empty = "none") {
  return Object.entries(map ?? {}).filter(([, n]) => n).map(([k, n]) => `${esc(titleCase(k))} ×${n}`).join(", ") || `<span class="muted">${empty}</span>`;
}

function town(s, facts) {
  const owners = Object.fromEntries((s.marks ?? []).map((m) => [m.building, m.seats ?? []]));
  const path = s.path ?? [];
  const used = new Set(s.used_discs ?? []);
  const squares = facts.squares.map((sq, i) => {
    const [x, y] = [(i % facts.side) * CELL, Math.floor(i / facts.side) * CELL];
    const step = path.indexOf(sq.square);
    const building = sq.what !== "street" && sq.what !== "market";
    const seats = building ? owners[sq.what] ?? [] : [];
    const dots = seats.map((seat, k) => `<circle cx="${x + 8 + k * 8}" cy="${y + CELL - 7}" r="3.5" class="seat-${seat}"><title>Seat ${seat + 1}'s marker</title></circle>`).join("");
    const disc = step < 0 ? "" : `<circle cx="${x + CELL - 9}" cy="${y + 9}" r="7" class="tower${used.has(String(step + 1)) ? " used" : ""}"/><text x="${x + CELL - 9}" y="${y + 12}" class="tower-step">${step + 1}</text>`;
    const site = building && sq.what === s.site ? " site" : "";
    return `<g class="square ${building ? "building" : sq.what}${site}" data-square="${sq.square}">
      <title>${sq.square}: ${esc(titleCase(sq.what))}${seats.length ? ` — owners ${seats.map((p) => p + 1).join(", ")}` : ""}</title>
      <rect x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>${building ? `<text x="${x + CELL / 2}" y="${y + CELL / 2}" class="sq-name">${esc(short(sq.what))}</text>` : ""}${dots}${disc}</g>`;
  }).join("");
  const size = facts.side * CELL;
  return `<svg class="genoa-town" viewBox="0 0 ${size} ${size}" role="img" aria-label="town">${squares}</svg>`;
}

function offers(s, seats) {
  const steering = s.stage === "steer" || s.stage === "heed";
  if (s.stage !== "offer" && s.stage !== "decide" && !steering) return "";
  const items = (o, seat) => [`${o.ducats} ducats`,
    ...Object.entries({...o.goods, ...o.specials}).map(([name, n]) => `${n} ${titleCase(name)}`),
    ...(o.markers ? [`${o.markers} marker${o.markers > 1 ? "s" : ""}`] : []),
    ...(s.offeredCards ?? []).filter((c) => s.cards?.[c] === String(seat)).map(titleCase)].join(" + ");
  const made = (s.offers ?? []).map((o, seat) => o.ducats < 0 ? "" :
    `<span class="pill">${esc(seatName(seat, seats))}: ${esc(items(o, seat))}${o.target ? ` to steer to ${esc(o.target)}` : ""}</span>`).join("");
  const what = steering ? "Steering offers" : `Offers for the ${esc(titleCase(s.site))}`;
  return `<div class="row"><b>${what}</b> ${made || '<span class="muted">none yet</span>'}</div>`;
}

/** A card by what it is: "Small order: silver to harbor". */
export function cardLabel(card, facts) {
  return `${titleCase(card.replace(/_\d+$/, ""))}: ${titleCase(facts.cards[card] ?? card)}`;
}

/** A hand: its count per deck (public), and the cards the position knows it holds, by what
 * they are (the viewer's own; another seat's only once the game is over). */
function hand(player, seat, s, facts) {
  const mine = Object.entries(s.cards ?? {}).filter(([, where]) => where === String(seat));
  const known = mine.map(([card]) => `<span class="pill card" data-card="${esc(card)}">${esc(cardLabel(card, facts))}</span>`).join("");
  return `${counts(player.hand, "no cards")}${known ? ` — ${known}` : ""}`;
}

function playerBoard(player, seat, s, facts, seats) {
  const toMove = seat === s.to_move;
  const owner = seat === s.owner ? ' <span class="badge">tower owner</span>' : "";
  return `<section class="player${toMove ? " to-move" : ""}" data-seat="${seat}">
    <h3><span class="seat-dot seat-${seat}"></span>${seatName(seat, seats)}${owner}${toMove ? ' <span class="badge move">to move</span>' : ""}</h3>
    <div class="stats">${pill("ducats", player.ducats)} ${pill("markers", player.markers)} ${pill("in supply", player.reserve)} ${pill("actions", player.actions)}</div>
    <div class="row"><b>Goods</b> ${counts(player.goods)}</div>
    <div class="row"><b>Special cards</b> ${counts(player.specials)}</div>
    <div class="row"><b>Cards</b> ${hand(player, seat, s, facts)}</div>
  </section>`;
}

/** The whole table of a Traders of Genoa position. */
export function drawTradersOfGenoa(s, facts, seats) {
  const over = s.stage === "end";
  const site = s.site ? pill("building", titleCase(s.site)) : "";
  return `<div class="genoa">
    <section class="common">
      <div class="stats">${pill("round", s.round)} ${pill("tower owner", seatName(s.owner, seats))} ${pill("stage", over ? "game over" : s.stage)} ${site}</div>
      ${offers(s, seats)}
      ${town(s, facts)}
      <div class="row"><b>Goods in supply</b> ${counts(s.supply)}</div>
      <div class="row"><b>Special cards in supply</b> ${counts(s.special_supply)}</div>
      <div class="row"><b>Piles</b> ${counts(s.piles, "empty")}</div>
    </section>
    <div class="players">${(s.players ?? []).map((p, seat) => playerBoard(p, seat, s, facts, seats)).join("")}</div>
  </div>`;
}

// ------------------------------------------------------------------ the page's hooks (web/games.js)
export { drawTradersOfGenoa as draw, tradersOfGenoa as moveLabel };

const DIRECTIONS = { n: "north", e: "east", s: "south", w: "west" };

/** A readable label for a move's notation. */
function tradersOfGenoa(move) {
  const [kind, arg = "", bundle = ""] = move.split(":");
  switch (kind) {
    case "roll": return "Roll for the tower's start square";
    case "start": return `Play an any-start card: start on ${arg}`;
    case "move": return `Move the tower ${DIRECTIONS[arg] ?? arg}`;
    case "stop": return "Stop the tower here";
    case "give": return `Add ${/^\d+$/.test(arg) ? `${arg} ducats` : titleCase(move.slice(5))} to your offer`;
    case "offer": return arg ? `Offer ${arg.replaceAll("+", ", ")}` : "Make your offer";
    case "accept": return `Accept seat ${Number(arg) + 1}'s offer`;
    case "hear": return "Hear offers to steer the tower";
    case "steer": return bundle ? `Offer ${bundle.replaceAll("+", ", ")} to steer the tower to ${arg}`
      : `Offer to steer the tower to ${arg}`;
    case "take": return "Take the action yourself";
    case "lapse": return "Let the action lapse";
    case "privilege": return "Draw a privilege";
    case "large": return `Deliver large order ${arg}`;
    case "special": return `Take the ${titleCase(arg)} special card`;
    case "good": return `Play an any-good card for a ${arg}`;
    case "trade": return `Trade ${arg.replace(">", " for ")}`;
    case "deliver": return `Deliver small order ${arg}`;
    case "palace": return `Play a building-action card: the ${titleCase(arg)}`;
    case "done": return "Done";
    case "base": return `Use the disc on ${arg} to place markers`;
    case "mark": return `Place a marker on the ${titleCase(arg)}`;
    case "oust": {
      const [building, seat] = arg.split("@");
      return `Remove seat ${Number(seat) + 1}'s marker from the ${titleCase(building)}`;
    }
    case "pass": return "Pass";
    default: return titleCase(move);
  }
}

/** What a move drew, as the human (seat `human`) sees it (`was` and `now`: his views of the
 * game's part before and after it): his own cards by what they are, others' hidden. */
export function drawnCards(was, now, human, facts) {
  const total = (player) => Object.values(player?.hand ?? {}).reduce((a, b) => a + b, 0);
  return (now.players ?? []).map((player, seat) => {
    if (seat === human) {
      const mine = Object.entries(now.cards ?? {}).filter(([card, where]) => where === String(seat) && was.cards?.[card] !== where);
      return mine.length ? `you drew ${mine.map(([card]) => cardLabel(card, facts)).join(", ")}` : "";
    }
    const drew = total(player) - total(was.players?.[seat]);
    return drew > 0 ? `${seatName(seat, [])} drew ${drew} hidden card${drew > 1 ? "s" : ""}` : "";
  }).filter(Boolean);
}
