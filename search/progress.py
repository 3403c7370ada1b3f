"""Progress bars of long runs (bench, corpus, arena, load tests): tqdm on standard error,
with rate and ETA, shown only when standard error is a terminal."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from tqdm import tqdm


def progress_bar(total: float, unit: str, desc: str, enabled: bool = True, **options: Any) -> tqdm[NoReturn]:
    """A bar of ``total`` ``unit``s named ``desc``; off unless ``enabled`` and stderr is a
    terminal."""
    return tqdm(total=total, unit=unit, desc=desc, file=sys.stderr,
                disable=not (enabled and sys.stderr.isatty()), dynamic_ncols=True, leave=False, **options)
