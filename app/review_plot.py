"""``meeplemind review --plot``: every player's win rate over the game, mistakes marked
(matplotlib, drawn off-screen; the file's extension picks the format)."""

from __future__ import annotations

from typing import Any

from .client.types import Review
from .engine.seats import seat_name

NOTE_INCHES = 0.14  # the height of a line of the notes under the plot (7-point text)


def check_matplotlib() -> Any:
    """The matplotlib module, or a ValueError saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'meeplemind[plot]'") from None
    return matplotlib


def plot_review(review: Review, path: str) -> None:
    """Draw ``review`` to ``path``: per player, the win rate the search gave him at each of
    his reviewed moves (that of the best move), his biggest mistakes as numbered crosses,
    the numbers explained under the plot (labels beside the points would overlap)."""
    matplotlib = check_matplotlib()
    matplotlib.use("Agg")
    from matplotlib import pyplot

    mistakes = sorted((m for p in review.players for m in p.mistakes), key=lambda m: m.index)
    height = 4.5 + NOTE_INCHES * len(mistakes)
    figure, axes = pyplot.subplots(figsize=(10, height))
    try:
        colors = {}
        for player in review.players:
            moves = [m for m in review.moves if m.player == player.player]
            line, = axes.plot([m.index + 1 for m in moves], [m.best.win_rate for m in moves],
                              label=f"{seat_name(player.player)} ({player.accuracy:.0f}% accuracy)", linewidth=1.2)
            colors[player.player] = line.get_color()
        notes = []
        for number, m in enumerate(mistakes, 1):
            axes.scatter([m.index + 1], [m.best.win_rate], marker="x", s=60, color=colors[m.player], zorder=3)
            axes.annotate(str(number), (m.index + 1, m.best.win_rate), textcoords="offset points",
                          xytext=(3, 4), fontsize=7, color=colors[m.player])
            notes.append(f"{number}: move {m.index + 1}, {seat_name(m.player)} {m.played.move} "
                         f"(-{m.margin_loss or 0:.2f} margin; best {m.best.move})")
        axes.set(xlabel="move", ylabel="win rate of the player to move", ylim=(0, 1),
                 title="win rate over the game (x: the three biggest mistakes of each player)")
        axes.grid(alpha=0.3)
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
        if notes:
            figure.text(0.01, 0.01, "\n".join(notes), fontsize=7, va="bottom", family="monospace")
        figure.tight_layout(rect=(0, (NOTE_INCHES * len(notes) + 0.15) / height if notes else 0, 1, 1))
        try:
            figure.savefig(path)
        except (OSError, ValueError) as e:
            raise ValueError(f"--plot {path}: {e}") from None
    finally:
        pyplot.close(figure)
