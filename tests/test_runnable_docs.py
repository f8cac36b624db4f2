"""tests/runnable_docs.py: how a page's blocks become steps, how they change files, how output is
compared, and that a failing step stops the ones after it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.runnable_docs import CommandStep, DocError, FileStep, PatchStep, Session, first_missing, parse

PAGE = """# A page

```yaml
# file: specs/g/game.yaml
a: 1
b: 2
```

```yaml
# file: specs/g/game.yaml (replace the line with `b: 2`)
b: 3
```

```yaml
# file: specs/g/game.yaml (add before the line with `b: 3`)
a2: 1
```

```yaml
# file: specs/g/game.yaml (add at the end)
c: 4
```

```text
not run
```

```console
$ cd specs
$ cat g/game.yaml
# file: specs/g/game.yaml
a: 1
...
c: 4
$ false   # exit 1
$ cat missing.yaml
$ echo never
```
"""


def test_a_page_becomes_steps(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    steps = parse(page)
    assert [type(s) for s in steps] == [FileStep] * 4 + [CommandStep] * 5
    first, replace, before, end = steps[:4]
    assert isinstance(first, FileStep) and first.mode == "whole" and first.text.startswith("# file:")
    assert isinstance(replace, FileStep) and (replace.mode, replace.anchor, replace.text) == (
        "replace",
        "b: 2",
        "b: 3\n",
    )
    assert isinstance(before, FileStep) and before.mode == "before"
    assert isinstance(end, FileStep) and end.mode == "end"
    commands = [s for s in steps if isinstance(s, CommandStep)]
    assert [c.command for c in commands] == [
        "cd specs",
        "cat g/game.yaml",
        "false",
        "cat missing.yaml",
        "echo never",
    ]
    assert commands[2].exit_code == 1 and commands[1].expected[-1] == "c: 4"

    (tmp_path / "run").mkdir()
    outcomes = Session(tmp_path / "run", dict(os.environ)).run_all(steps)
    assert [o.status for o in outcomes] == ["passed"] * 7 + ["failed", "skipped"]
    assert (tmp_path / "run" / "specs/g/game.yaml").read_text(encoding="utf-8") == (
        "# file: specs/g/game.yaml\na: 1\na2: 1\nb: 3\nc: 4\n"
    )
    assert "exit code 1, expected 0" in outcomes[7].message
    assert "the step at line" in outcomes[8].message


def test_an_anchor_must_be_on_one_line(tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text("x: 1\nx: 2\n", encoding="utf-8")
    outcome = Session(tmp_path, dict(os.environ)).run(FileStep(1, "f.yaml", "replace", "x:", "y: 1\n"))
    assert outcome.status == "failed" and "on 2 lines" in outcome.message


def test_a_patch_is_applied(tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text("a: 1\nb: 2\n", encoding="utf-8")
    patch = "--- a/f.yaml\n+++ b/f.yaml\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"
    assert Session(tmp_path, dict(os.environ)).run(PatchStep(1, ("f.yaml",), patch)).status == "passed"
    assert (tmp_path / "f.yaml").read_text(encoding="utf-8") == "a: 1\nb: 3\n"


def test_a_yaml_block_must_say_where_it_goes(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```yaml\na: 1\n```\n", encoding="utf-8")
    with pytest.raises(DocError, match="# file: PATH"):
        parse(page)


def test_loose_output_matching() -> None:
    output = "built orchard in 151 ms\n3 file(s) written\n/tmp/x/specs/orchard: ok\n"
    assert first_missing(("built orchard in ... ms", "...", "specs/orchard: ok"), output) is None
    assert (
        first_missing(("specs/orchard: ok", "built orchard in ... ms"), output) == "built orchard in ... ms"
    )
    assert first_missing(("specs/orchard: 1 error(s)",), output) == "specs/orchard: 1 error(s)"
