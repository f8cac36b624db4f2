"""A Markdown page that teaches by commands -> its steps, run in a folder and checked.

The docs that walk a reader through files and commands (docs/tutorial.md,
docs/howto-add-a-card.md) are written so a test can replay them, and so they cannot rot:

- a ```yaml block whose first line is `# file: PATH` is a file to write (relative to the folder
  the commands run in). The first line may go on to say where the block goes instead:
  `# file: PATH (add at the end)`, `# file: PATH (add before the line with `TEXT`)` or
  `# file: PATH (replace the line with `TEXT`)`, where TEXT is found on exactly one line. A whole
  file keeps its `# file:` line, so the line numbers in diagnostics are the reader's; a block that
  goes into a file leaves it out.
- a ```diff block is a patch with `--- a/PATH` and `+++ b/PATH` headers, applied by `git apply`.
- a ```console block holds commands, each on a line starting with `$ `; the lines up to the next
  `$ ` are its expected output. `# exit N` at the end of a command says it fails on purpose with
  exit code N (otherwise 0 is expected). Output is compared loosely: each expected line that is
  not `...` must occur, stripped, in some output line, in order; a `...` inside a line stands for
  any text (timings, temporary paths).

Other fenced blocks (```text, ```python, ...) are illustrations and are not run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND_TIMEOUT = 120  # seconds; every command of the docs takes a few

_FENCE = re.compile(r"^```(\w*)\s*$")
_FILE = re.compile(
    r"^# file: (?P<path>\S+)"
    r"(?: \((?:(?P<end>add at the end)|(?P<verb>add before|replace) the line with `(?P<anchor>[^`]+)`)\))?\s*$"
)
_EXIT = re.compile(r"\s+# exit (\d+)\s*$")


@dataclass(frozen=True)
class FileStep:
    """Write a file, or put a block into one: mode is 'whole', 'end', 'before' or 'replace'."""

    line: int  # where the block starts in the page, 1-based
    path: str
    mode: str
    anchor: str
    text: str

    @property
    def title(self) -> str:
        return f"{self.mode} {self.path}"


@dataclass(frozen=True)
class PatchStep:
    """Apply a unified diff with `git apply`."""

    line: int
    paths: tuple[str, ...]
    text: str

    @property
    def title(self) -> str:
        return "patch " + ", ".join(self.paths)


@dataclass(frozen=True)
class CommandStep:
    """Run a shell command and compare its output and exit code."""

    line: int
    command: str
    expected: tuple[str, ...]
    exit_code: int

    @property
    def title(self) -> str:
        return "$ " + self.command


Step = FileStep | PatchStep | CommandStep


class DocError(Exception):
    """The page is not written in the runnable form described above."""


def parse(page: Path) -> list[Step]:
    """Every runnable step of a Markdown page, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    steps: list[Step] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        kind, start = m.group(1), i + 1
        end = start
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise DocError(f"{page}:{start}: a fenced block that never closes")
        body = lines[start:end]
        if kind == "yaml":
            steps.append(_file_step(page, start, body))
        elif kind == "diff":
            steps.append(_patch_step(page, start, body))
        elif kind == "console":
            steps.extend(_command_steps(page, start, body))
        i = end + 1
    return steps


def _file_step(page: Path, line: int, body: list[str]) -> FileStep:
    m = _FILE.match(body[0]) if body else None
    if m is None:
        raise DocError(
            f"{page}:{line}: a yaml block must start with `# file: PATH` (see tests/runnable_docs.py)"
        )
    if m.group("end"):
        mode = "end"
    elif m.group("verb"):
        mode = "before" if m.group("verb") == "add before" else "replace"
    else:
        mode = "whole"
    kept = body if mode == "whole" else body[1:]
    return FileStep(line, m.group("path"), mode, m.group("anchor") or "", "\n".join(kept) + "\n")


def _patch_step(page: Path, line: int, body: list[str]) -> PatchStep:
    paths = tuple(b[len("+++ b/") :] for b in body if b.startswith("+++ b/"))
    if not paths:
        raise DocError(f"{page}:{line}: a diff block needs `--- a/PATH` and `+++ b/PATH` headers")
    return PatchStep(line, paths, "\n".join(body) + "\n")


def _command_steps(page: Path, line: int, body: list[str]) -> Iterator[CommandStep]:
    if body and not body[0].startswith("$ "):
        raise DocError(f"{page}:{line + 1}: a console block must start with a `$ ` command")
    at = 0
    while at < len(body):
        command, start = body[at][2:], line + at + 1
        at += 1
        expected = []
        while at < len(body) and not body[at].startswith("$ "):
            expected.append(body[at])
            at += 1
        exit_code = 0
        if m := _EXIT.search(command):
            exit_code, command = int(m.group(1)), command[: m.start()]
        yield CommandStep(start, command.strip(), tuple(expected), exit_code)


# ---- running ------------------------------------------------------------------------------


def rulewright_shim(folder: Path) -> dict[str, str]:
    """The environment in which `rulewright` is this checkout's CLI (`python -m rulewright`)."""
    folder.mkdir(parents=True, exist_ok=True)
    shim = folder / "rulewright"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m rulewright "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RULEWRIGHT_", "PYTHON"))}
    env["PATH"] = f"{folder}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@dataclass
class Outcome:
    """What became of one step: 'passed', 'failed' (with a message) or 'skipped' (with a reason)."""

    status: str
    message: str = ""


@dataclass
class Session:
    """The folder a page's steps run in, and where the reader currently is (`cd` moves it)."""

    folder: Path
    env: dict[str, str]
    # a command and the folder it would run in -> a reason to skip it, or None to run it (it
    # may do a stand-in's work, so that the steps after it can run)
    skip: Callable[[CommandStep, Path], str | None] | None = None
    cwd: Path = field(init=False)

    def __post_init__(self) -> None:
        self.cwd = self.folder

    def run_all(self, steps: list[Step]) -> list[Outcome]:
        """Run every step in order; after the first failure, the rest are not run."""
        outcomes: list[Outcome] = []
        failed_at = 0
        for step in steps:
            if failed_at:
                outcomes.append(Outcome("skipped", f"not run: the step at line {failed_at} failed"))
                continue
            outcome = self.run(step)
            if outcome.status == "failed":
                failed_at = step.line
            outcomes.append(outcome)
        return outcomes

    def run(self, step: Step) -> Outcome:
        match step:
            case FileStep():
                return self._write(step)
            case PatchStep():
                return self._patch(step)
            case CommandStep():
                return self._command(step)
        raise AssertionError(f"unknown step {step!r}")

    def _write(self, step: FileStep) -> Outcome:
        path = self.cwd / step.path
        if step.mode == "whole":
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(step.text, encoding="utf-8")
            return Outcome("passed")
        if not path.is_file():
            return Outcome("failed", f"{step.path} does not exist yet")
        text = path.read_text(encoding="utf-8")
        if step.mode == "end":
            path.write_text(text + ("" if text.endswith("\n") else "\n") + step.text, encoding="utf-8")
            return Outcome("passed")
        lines = text.splitlines(keepends=True)
        hits = [i for i, line in enumerate(lines) if step.anchor in line]
        if len(hits) != 1:
            return Outcome("failed", f"`{step.anchor}` is on {len(hits)} lines of {step.path}, not on one")
        i = hits[0]
        if step.mode == "replace":
            lines[i] = step.text
        else:
            lines.insert(i, step.text)
        path.write_text("".join(lines), encoding="utf-8")
        return Outcome("passed")

    def _patch(self, step: PatchStep) -> Outcome:
        # git must not take a repository around the folder for the one the patch goes into
        env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(self.cwd.parent)}
        done = subprocess.run(
            ["git", "apply", "--whitespace=nowarn", "-"],
            input=step.text,
            cwd=self.cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        if done.returncode != 0:
            return Outcome("failed", f"git apply failed:\n{done.stderr}")
        return Outcome("passed")

    def _command(self, step: CommandStep) -> Outcome:
        if self.skip is not None and (reason := self.skip(step, self.cwd)):
            return Outcome("skipped", reason)
        words = shlex.split(step.command)
        if words[:2] == ["pip", "install"]:
            return Outcome("skipped", "pip install: the package under test is this checkout")
        if words[0] == "cd":
            target = (self.cwd / words[1]).resolve()
            if not target.is_dir():
                return Outcome("failed", f"cd: no folder {target}")
            self.cwd = target
            return Outcome("passed")
        done = subprocess.run(
            ["bash", "-c", step.command],
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        problems = []
        if done.returncode != step.exit_code:
            problems.append(f"exit code {done.returncode}, expected {step.exit_code}")
        if missing := first_missing(step.expected, done.stdout):
            problems.append(f"expected output line not found (in order): {missing!r}")
        if problems:
            return Outcome("failed", "; ".join(problems) + "\n--- actual output ---\n" + done.stdout)
        return Outcome("passed")


def first_missing(expected: tuple[str, ...], output: str) -> str | None:
    """The first expected line that does not occur, in order, in the output (None if all do)."""
    actual = [line.strip() for line in output.splitlines()]
    at = 0
    for want in expected:
        want = want.strip()
        if not want or want == "...":
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in want.split("...")))
        while at < len(actual) and not pattern.search(actual[at]):
            at += 1
        if at == len(actual):
            return want
        at += 1
    return None
