"""The docs and the example specs, wherever the package is: `rulewright docs` reads them here.

An installed wheel carries them as data of this package (rulewright/bundle/docs and
rulewright/bundle/specs; setup.py maps the checkout's docs/ and specs/ there); a checkout, or an
editable install of one, reads the checkout's own docs/ and specs/ beside this package.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from runtime.text import quoted

HERE = Path(__file__).resolve().parent
MAX_TOPIC_BYTES = 4_000_000  # a page is printed whole; no page of ours comes near this


class DocsError(Exception):
    """A topic that is not there, or docs that are missing from this installation."""


def _first(*candidates: tuple[Path, str]) -> Path | None:
    """The first folder holding a file its pattern matches: the wheel's data before a checkout's
    folder."""
    return next((folder for folder, pattern in candidates if any(folder.glob(pattern))), None)


def docs_folder() -> Path:
    """The folder of the docs (the Markdown pages, their images, and games/)."""
    found = _first((HERE / "bundle" / "docs", "tutorial.md"), (HERE.parent / "docs", "tutorial.md"))
    if found is None:
        raise DocsError(f"the docs are not installed with this rulewright (looked in {HERE / 'bundle'})")
    return found


def specs_folder() -> Path:
    """The folder of the example specs: one spec folder per bundled game."""
    found = _first((HERE / "bundle" / "specs", "*/game.yaml"), (HERE.parent / "specs", "*/game.yaml"))
    if found is None:
        raise DocsError(
            f"the example specs are not installed with this rulewright (looked in {HERE / 'bundle'})"
        )
    return found


@dataclass(frozen=True)
class Topic:
    """One page: its name (`dsl`, `games/kuhn_poker`), its file and its title (its first heading)."""

    name: str
    path: Path
    title: str


def _title(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as f:
        for _, line in zip(range(20), f, strict=False):
            if line.startswith("# "):
                return line[2:].strip()
    return ""


def topics() -> list[Topic]:
    """Every page of the docs, top-level pages first, each group by name."""
    root = docs_folder()
    pages = sorted(root.rglob("*.md"), key=lambda p: (len(p.relative_to(root).parts), p.as_posix()))
    return [Topic(p.relative_to(root).with_suffix("").as_posix(), p, _title(p)) for p in pages]


def topic(name: str) -> Topic:
    """The page called `name` (also with `.md` or a leading `docs/`); never a path outside the docs."""
    known = {t.name: t for t in topics()}
    wanted = name.strip().removeprefix("docs/").removesuffix(".md")
    if wanted in known:
        return known[wanted]
    close = difflib.get_close_matches(wanted, list(known), n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise DocsError(f"no page named {quoted(name, 60)}{hint} (`rulewright docs` lists them)")


def text(page: Topic) -> str:
    """A page's Markdown, as written."""
    with page.path.open("rb") as f:
        data = f.read(MAX_TOPIC_BYTES + 1)
    if len(data) > MAX_TOPIC_BYTES:
        raise DocsError(f"{page.path} is larger than {MAX_TOPIC_BYTES} bytes")
    return data.decode("utf-8", errors="replace")
