"""mypy on source folders as the packages they install as: ``python tools/typecheck.py server app``;
a script outside the packages (``tools/fit_evaluation.py``) is checked as it stands, importing
them.

The folders are not laid out as their packages (pyproject.toml's ``package-dir``: ``app/``
is ``meeplemind``, ``server/`` is ``meeplemind.server``...), which mypy cannot follow through
the editable install's import hook.  So mypy runs on a tree of links laid out as the
packages (``.venv/typed/``), with pyproject.toml's ``[tool.mypy]`` settings, and its report
names the files by their source paths again.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
TREE = ROOT / ".venv" / "typed"
CACHE = ROOT / ".venv" / "mypy_cache"  # outside the tree, which is laid anew each run


def package_dirs() -> dict[str, str]:
    """Source folder of every package pyproject.toml maps, by dotted package name."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return mapping


def lay_tree(packages: dict[str, str]) -> dict[str, str]:
    """Lay ``TREE`` anew; the tree's folder of each source folder."""
    shutil.rmtree(TREE, ignore_errors=True)
    at: dict[str, str] = {}
    for name in sorted(packages, key=lambda n: n.count(".")):
        source, place = ROOT / packages[name], TREE.joinpath(*name.split("."))
        if name.count(".") == 0:
            place.mkdir(parents=True)
            for child in source.iterdir():
                if child.name != "__pycache__" and not (place / child.name).exists():
                    (place / child.name).symlink_to(child)
        else:
            place.symlink_to(source, target_is_directory=True)
        at[packages[name]] = place.relative_to(TREE).as_posix()
    return at


def main(paths: list[str]) -> int:
    at = lay_tree(package_dirs())
    back = sorted(((tree, source) for source, tree in at.items()), key=lambda p: -len(p[0]))

    def to_tree(path: str) -> list[str]:
        """A source path's place in the tree; a whole folder as its own files, not the
        packages linked into it (``app`` is ``meeplemind`` without ``meeplemind.server``)."""
        top, _, rest = path.rstrip("/").partition("/")
        if top not in at and path.endswith(".py") and (ROOT / path).is_file():
            return [str(ROOT / path)]
        if top not in at:
            raise SystemExit(f"typecheck: {path} is in no package of pyproject.toml's package-dir")
        if rest:
            return [f"{at[top]}/{rest}"]
        return [f"{at[top]}/{child.name}" for child in sorted((ROOT / top).iterdir())
                if child.suffix in {".py", ".pyi"} or (child / "__init__.py").exists()]

    def to_source(line: str) -> str:
        line = line.removeprefix(f"{ROOT}/")
        for tree, source in back:
            if line.startswith(tree + "/"):
                return source + line[len(tree):]
        return line

    targets = [place for path in paths for place in to_tree(path)]
    mypy = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(CACHE), *targets]
    run = subprocess.run(mypy, cwd=TREE, capture_output=True, text=True)
    sys.stdout.write("".join(to_source(line) + "\n" for line in run.stdout.splitlines()))
    sys.stderr.write(run.stderr)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
