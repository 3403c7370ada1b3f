// Each game's page module, web/games/<game>.js (its drawing, move labels and what else the page
// asks of it, below), and style sheet, web/games/<game>.css, loaded for every game the service
// lists (Rules/ListGames): no game is named outside its own files. <game> is the game's field
// in a Position (stateKey). A page module exports
//   draw(state, facts, seats)               the board's HTML (state: the position's game part)
//   moveLabel(move, state)                  a readable label for a move's notation
//   drawnCards(was, now, human, facts)      optional: what a move drew, as seat `human` sees it
//   scoreParts(player, score, facts)        optional: a final score's [name, value] parts
import { stateKey } from "./draw.js";

const modules = new Map();

/** A game's style sheet, added to the page; resolves once it is loaded. */
function addStyleSheet(href) {
  const sheet = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
  const loaded = new Promise((resolve, reject) => {
    sheet.addEventListener("load", resolve);
    sheet.addEventListener("error", () => reject(new Error(`${href}: not loaded`)));
  });
  document.head.append(sheet);
  return loaded;
}

/** Loads the page module and style sheet of every game id of `ids`. */
export async function loadGames(ids) {
  await Promise.all(ids.map(async (id) => {
    const [module] = await Promise.all([import(`./games/${stateKey(id)}.js`), addStyleSheet(`games/${stateKey(id)}.css`)]);
    modules.set(id, module);
  }));
}

/** The page module of a game (undefined before loadGames). */
export const gameModule = (id) => modules.get(id);
