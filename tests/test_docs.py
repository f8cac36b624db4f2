"""The reference pages are current (docs/cli.md from the parser, docs/api.md from the runtime's
source), the same on any terminal, and `rulewright docs` reads the pages and the example specs."""

from __future__ import annotations

import pytest

from rulewright import docgen
from rulewright.cli import main
from tests.conftest import ROOT


def test_the_reference_pages_are_current() -> None:
    for path, text in docgen.pages().items():
        assert path.is_file(), f"{path.relative_to(ROOT)} is missing: run `{docgen.REFRESH}` (or make docs)"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} is stale: run `{docgen.REFRESH}` (or make docs) and commit it"
        )


def test_the_pages_do_not_depend_on_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    wide = docgen.pages()
    monkeypatch.setenv("COLUMNS", "37")
    assert docgen.pages() == wide


def test_every_command_and_option_is_on_the_cli_page() -> None:
    from rulewright.cli import COMMANDS

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"\n## rulewright {command.name}\n" in page
        assert f"(#rulewright-{command.name})" in page
    assert "`--coverage-kinds K[,K...]`" in page and "usage: rulewright play " in page


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rulewright_docs_lists_prints_and_finds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "docs")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert {"tutorial", "dsl", "cli", "api", "glossary", "troubleshooting", "games/kuhn_poker"} <= set(names)

    code, out, _ = run(capsys, "docs", "games/kuhn_poker")
    assert code == 0 and out.startswith("# Kuhn Poker\n")
    assert run(capsys, "docs", "docs/dsl.md")[1] == (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")

    assert run(capsys, "docs", "--path")[1].strip() == str(ROOT / "docs")
    specs = run(capsys, "docs", "--specs")[1].strip()
    assert specs == str(ROOT / "specs")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["docs", "dls"], "no page named 'dls'; did you mean 'dsl'?"),
        (["docs", "../README"], "no page named '../README'"),
        (["docs", "/etc/passwd"], "no page named '/etc/passwd'"),
        (["docs", "x" * 5000], "no page named 'xxxx"),
        (["docs", "dsl", "--path"], "give a TOPIC or --path or --specs, not both"),
    ],
)
def test_rulewright_docs_refuses(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("rulewright docs: ") and said in err and len(err) < 300
