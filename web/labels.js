// Readable labels for moves in each game's notation (the notation stays the button's name):
// each game's own (its page module's moveLabel, web/games.js).
import { gameModule } from "./games.js";

export const titleCase = (name) => String(name).replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());

/** A readable label for `move` (notation) in a position of `game` (`state`: its game's part). */
export function moveLabel(game, move, state) {
  const label = gameModule(game)?.moveLabel;
  return label ? label(move, state) : titleCase(move);
}
