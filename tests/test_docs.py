"""The documentation: a README a newcomer reads in ten minutes, links that stay inside the
repository and find their file and anchor, and an API reference that is the proto comments'."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as '-'."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#+ (.+)$", text, re.M)}


def test_the_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 400


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_in_the_repository_and_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in LINK.findall(text):
        assert not re.match(r"^[a-z]+:", target) and not target.startswith("/"), f"{target}: leaves the repository"
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), f"{target}: leaves the repository"
        assert resolved.exists(), f"{target}: no such file"
        if anchor and resolved.suffix == ".md":
            assert anchor in anchors(resolved), f"{target}: no such heading"


def test_the_api_reference_is_generated_from_the_protos() -> None:
    check = runpy.run_path(str(ROOT / "tools" / "api_reference.py"))["main"]
    assert check(["--check"]) == 0, "docs/api.md is stale: run .venv/bin/python tools/api_reference.py"
