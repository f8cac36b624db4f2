"""What the user typed, checked: numbers, seeds, seconds, game options, folders; and the options
several commands take alike (-o, --html, --native).

`rulewright check` imports this module (through rulewright/commands/lookup.py): it imports neither
the game log nor the engine."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulewright.commands.exits import UsageError
from runtime.text import quoted


def _whole_number(text: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise argparse.ArgumentTypeError(f"expected a whole number, not {quoted(text)}")
    if len(t.lstrip("+-")) > 30:  # beyond every bound below; int() would refuse 4,300 digits anyway
        raise argparse.ArgumentTypeError(f"{quoted(text)} is far too large")
    return int(t)


def positive_int(text: str) -> int:
    n = _whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {quoted(text)}")
    return n


def nonnegative_int(text: str) -> int:
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, not {quoted(text)}")
    return n


def seed_number(text: str) -> int:
    from rulewright.gamelog import SEED_LIMIT  # (only a command that takes a seed needs the log)

    n = _whole_number(text)
    if not 0 <= n < SEED_LIMIT:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to {SEED_LIMIT - 1}, not {quoted(text)}"
        )
    return n


def positive_seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {quoted(text)}") from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {quoted(text)}")
    return x


OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"-o takes KEY=VALUE, not {quoted(pair)}")
        if not OPTION_NAME.fullmatch(key.strip()) or len(value) > 100:
            # no option is named so, or takes such a value: refuse before the game echoes it in full
            raise UsageError(
                f"-o {quoted(pair)}: not an option setting (KEY is a name, VALUE a number, true/false or a value's name)"
            )
        out[key.strip()] = value.strip()
    return out


def is_dir(path: Path) -> bool:
    """Path.is_dir, but False (not OSError) for a name too long for the system."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def game_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a game option (repeatable): a number, true/false or, for an enum option, a value's name "
        "(`rulewright games` lists each game's options and their choices)",
    )


def html_arguments(sp: argparse.ArgumentParser, what: str) -> None:
    sp.add_argument(
        "--html",
        metavar="FILE",
        help=f"write {what} as one self-contained HTML page to step through, from every player's "
        "perspective and everyone's (docs/viewing.md)",
    )
    sp.add_argument(
        "--html-steps",
        type=positive_int,
        metavar="N",
        help="the page shows only the first N decisions (default: all)",
    )


def native_argument(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--native",
        action="store_true",
        help="play the engines `rulewright build --native` compiled (refused if they are out of date)",
    )
