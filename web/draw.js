// Small drawing helpers shared by the boards.

/** `text` escaped for HTML. */
export const esc = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The field of a Position holding a game's state: the game id with "_" for "-" (also the name
 * of the game's files in web/games/). */
export const stateKey = (game) => game.replace(/-/g, "_");

/** A labelled value. */
export const pill = (label, value) => `<span class="pill"><span class="muted">${esc(label)}</span> ${esc(value ?? 0)}</span>`;

/** "Seat 2 (bot 3)" / "Seat 1 (you)". */
export function seatName(seat, seats) {
  const who = seats?.[seat];
  const kind = !who ? "" : who.kind === "human" ? " (you)" : ` (bot ${who.level})`;
  return `Seat ${seat + 1}${kind}`;
}
