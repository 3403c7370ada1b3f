"""``meeplemind review --plot``: every player's win rate over the game, mistakes marked
(matplotlib, drawn off-screen; the file's extension picks the format)."""

from __future__ import annotations

from .client.types import Review
from .engine.seats import seat_name


def plot_review(review: Review, path: str) -> None:
    """Draw ``review`` to ``path``: per player, the win rate the search gave him at each of
    his reviewed moves (that of the best move), his biggest mistakes as crosses."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'meeplemind[plot]'") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(10, 4.5))
    try:
        for player in review.players:
            moves = [m for m in review.moves if m.player == player.player]
            line, = axes.plot([m.index + 1 for m in moves], [m.best.win_rate for m in moves],
                              label=f"{seat_name(player.player)} ({player.accuracy:.0f}% accuracy)", linewidth=1.2)
            mistakes = player.mistakes
            axes.scatter([m.index + 1 for m in mistakes], [m.best.win_rate for m in mistakes], marker="x",
                         s=60, color=line.get_color(), zorder=3)
            for m in mistakes:
                axes.annotate(f"{m.played.move} (-{m.win_rate_loss or 0:.2f})", (m.index + 1, m.best.win_rate),
                              textcoords="offset points", xytext=(4, 6), fontsize=7, color=line.get_color())
        axes.set(xlabel="move", ylabel="win rate of the player to move", ylim=(0, 1),
                 title="win rate over the game (x: the three biggest mistakes of each player)")
        axes.grid(alpha=0.3)
        axes.legend(loc="best", fontsize=8)
        figure.tight_layout()
        try:
            figure.savefig(path)
        except (OSError, ValueError) as e:
            raise ValueError(f"--plot {path}: {e}") from None
    finally:
        pyplot.close(figure)
