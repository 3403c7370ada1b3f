// The review's graph (SVG): each seat's win rate at his reviewed moves over the game, the
// marked moves as dots, the position on the board as a vertical line; a point's ply is its
// data-ply (the analysis board steps there when it is clicked).

const WIDTH = 600, HEIGHT = 160, PAD = 24;

/** The graph of `reviews` (MoveReview messages) in a game of `total` moves and `players` seats. */
export function drawReviewGraph(total, reviews, ply, players, mark) {
  if (!reviews.length) return "";
  const x = (index) => PAD + (WIDTH - 2 * PAD) * (total > 1 ? index / (total - 1) : 0.5);
  const y = (rate) => HEIGHT - PAD - (HEIGHT - 2 * PAD) * Math.max(0, Math.min(1, rate));
  const sorted = [...reviews].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
  const lines = [], dots = [];
  for (let seat = 0; seat < players; seat++) {
    const mine = sorted.filter((r) => Number(r.player ?? 0) === seat);
    if (!mine.length) continue;
    const points = mine.map((r) => `${x(Number(r.index ?? 0)).toFixed(1)},${y(Number(r.best?.win_rate ?? 0)).toFixed(1)}`);
    lines.push(`<polyline class="seat-line seat-${seat}" points="${points.join(" ")}"><title>Seat ${seat + 1}</title></polyline>`);
    for (const r of mine) {
      const index = Number(r.index ?? 0);
      const m = mark(r);
      const cx = x(index).toFixed(1), cy = y(Number(r.best?.win_rate ?? 0)).toFixed(1);
      dots.push(`<circle class="point${m ? ` marked ${m[1]}` : ""} seat-${seat}" data-ply="${index + 1}" cx="${cx}" cy="${cy}" r="${m ? 5 : 3}">
        <title>move ${index + 1}, Seat ${seat + 1}: ${r.played?.move ?? ""}${m ? ` (${m[1]}; better ${r.best?.move ?? ""})` : ""}</title></circle>`);
    }
  }
  const cursor = ply > 0 ? `<line class="cursor" x1="${x(ply - 1)}" x2="${x(ply - 1)}" y1="${PAD}" y2="${HEIGHT - PAD}"></line>` : "";
  const grid = [0, 0.5, 1].map((v) => `<line class="grid" x1="${PAD}" x2="${WIDTH - PAD}" y1="${y(v)}" y2="${y(v)}"></line>
    <text class="axis" x="2" y="${y(v) + 3}">${Math.round(100 * v)}%</text>`).join("");
  return `<svg class="review-graph" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="win rate of each seat over the game">
    ${grid}<text class="axis" x="${WIDTH - PAD}" y="${HEIGHT - 4}" text-anchor="end">move ${total}</text>
    ${cursor}${lines.join("")}${dots.join("")}</svg>`;
}
