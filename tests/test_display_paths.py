"""The names files of a spec are shown by: each folder resolved once, the same names as display_path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from compiler.load import _DisplayPaths, display_path


@pytest.mark.parametrize("where", ["inside", "outside", "below", "same"])
def test_names_as_display_path_gives_them(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "spec"
    (spec / "scenarios").mkdir(parents=True)
    (spec / "x.yaml").mkdir()  # a folder named like a file (listed, then refused when read)
    other = tmp_path / "other"
    other.mkdir()
    cwd = {"inside": tmp_path, "outside": other, "below": spec / "x.yaml", "same": spec}[where]
    monkeypatch.chdir(cwd)
    names = _DisplayPaths()
    paths = [
        spec / "game.yaml",
        spec / "x.yaml",
        spec / "scenarios" / "a.yaml",
        spec / "scenarios" / ".." / "b.yaml",
        Path(os.path.relpath(spec / "game.yaml")),
    ]
    for path in paths * 2:  # (the second time from what was kept)
        assert names(path) == display_path(path)
