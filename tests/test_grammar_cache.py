"""The DSL parser's cache (compiler/grammar_cache.py): private, checked, and never a pickle."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from lark import Lark

from compiler import grammar_cache
from compiler.grammar_tables import GRAMMAR, build_lark_parser

TEXT = 'if x > 1 { log "a {y}" } else { for c in hand where c.ops > 2 { move c to top of deck } }'


def _load(calls: list[str]) -> Lark:
    def build(grammar: str) -> Lark:
        calls.append("built")
        return build_lark_parser(grammar)

    return grammar_cache.load(GRAMMAR.read_text(encoding="utf-8"), build)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "rulewright"


def test_the_tables_are_cached_as_data_in_a_private_folder(cache_home: Path) -> None:
    calls: list[str] = []
    built = _load(calls)
    assert calls == ["built"]
    assert stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    files = sorted(p.suffix for p in cache_home.iterdir())
    assert files == [".json", ".sha256"]
    for p in cache_home.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
        assert not p.read_bytes().startswith(b"\x80")  # not a pickle
    cached = _load(calls)
    assert calls == ["built"]  # read back, not built again
    tree = cached.parse(TEXT, start="effect")
    assert tree == built.parse(TEXT, start="effect")
    assert tree.children[0].meta.line == 1 and tree.children[0].meta.column == 1


def test_a_file_that_does_not_match_its_hash_is_not_used(cache_home: Path) -> None:
    calls: list[str] = []
    _load(calls)
    (tables,) = cache_home.glob("*.json")
    tables.write_bytes(tables.read_bytes().replace(b'"effect"', b'"effekt"'))
    _load(calls)
    assert calls == ["built", "built"]


def test_a_folder_others_may_write_is_not_used(cache_home: Path) -> None:
    cache_home.mkdir(mode=0o700)
    os.chmod(cache_home, 0o777)
    calls: list[str] = []
    _load(calls)
    _load(calls)
    assert calls == ["built", "built"]
    assert list(cache_home.iterdir()) == []


def test_a_folder_that_is_a_symlink_is_not_used(cache_home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache_home.symlink_to(elsewhere)
    calls: list[str] = []
    _load(calls)
    assert calls == ["built"]
    assert list(elsewhere.iterdir()) == []


def test_data_made_from_the_grammar_is_cached_the_same_way(cache_home: Path) -> None:
    calls: list[str] = []

    def make() -> object:
        calls.append("made")
        return {"states": [[1, 2], {"NAME": 3}]}

    assert grammar_cache.load_data("tables", "g: x", make) == {"states": [[1, 2], {"NAME": 3}]}
    assert grammar_cache.load_data("tables", "g: x", make) == {"states": [[1, 2], {"NAME": 3}]}
    assert calls == ["made"]  # read back, not made again
    assert stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    assert sorted(p.suffix for p in cache_home.iterdir()) == [".json", ".sha256"]
    (data,) = cache_home.glob("*.json")
    data.write_bytes(data.read_bytes().replace(b"3", b"4"))  # no longer matches its sha256
    assert grammar_cache.load_data("tables", "g: x", make) == {"states": [[1, 2], {"NAME": 3}]}
    grammar_cache.load_data("tables", "g: y", make)  # another grammar: other data
    assert calls == ["made", "made", "made"]


def test_data_is_made_afresh_without_a_private_folder(cache_home: Path) -> None:
    cache_home.mkdir(mode=0o700)
    os.chmod(cache_home, 0o777)
    calls: list[str] = []
    for _ in range(2):
        grammar_cache.load_data("tables", "g: x", lambda: calls.append("made"))
    assert calls == ["made", "made"]
    assert list(cache_home.iterdir()) == []
