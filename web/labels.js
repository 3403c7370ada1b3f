// Readable labels for moves in each game's notation (the notation stays the button's name).

export const titleCase = (name) => String(name).replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());

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

const DIRECTIONS = { n: "north", e: "east", s: "south", w: "west" };

function tradersOfGenoa(move) {
  const [kind, arg = ""] = move.split(":");
  switch (kind) {
    case "roll": return "Roll for the tower's start square";
    case "start": return `Play an any-start card: start on ${arg}`;
    case "move": return `Move the tower ${DIRECTIONS[arg] ?? arg}`;
    case "stop": return "Stop the tower here";
    case "give": return `Add ${/^\d+$/.test(arg) ? `${arg} ducats` : titleCase(move.slice(5))} to your offer`;
    case "offer": return arg ? `Offer ${arg.replaceAll("+", ", ")}` : "Make your offer";
    case "accept": return `Accept seat ${Number(arg) + 1}'s offer`;
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

/** A readable label for `move` (notation) in a position of `game` (`state`: its game's part). */
export function moveLabel(game, move, state) {
  if (game === "puerto-rico") return puertoRico(move);
  if (game === "castles-of-burgundy") return castlesOfBurgundy(move, state);
  if (game === "traders-of-genoa") return tradersOfGenoa(move);
  return titleCase(move);
}
