"""`rulewright docs`: the docs' pages, one page, or where the docs and the example specs are."""

from __future__ import annotations

import argparse
import sys

from rulewright.commands.exits import EXIT_OK, UsageError
from rulewright.gamelog import os_reason


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "topic", nargs="?", metavar="TOPIC", help="a page to print, e.g. tutorial, dsl or games/kuhn_poker"
    )
    where = sp.add_mutually_exclusive_group()
    where.add_argument("--path", action="store_true", help="print the folder of the docs")
    where.add_argument(
        "--specs", action="store_true", help="print the folder of the example specs (one per bundled game)"
    )


def run(args: argparse.Namespace) -> int:
    """`rulewright docs`: the docs' pages, one page, or where the docs and the example specs are."""
    from rulewright import docs

    if args.topic is not None and (args.path or args.specs):
        raise UsageError("give a TOPIC or --path or --specs, not both")
    try:
        if args.path:
            print(docs.docs_folder())
        elif args.specs:
            print(docs.specs_folder())
        elif args.topic is not None:
            sys.stdout.write(docs.text(docs.topic(args.topic)))
        else:
            pages = docs.topics()
            width = max(len(t.name) for t in pages)
            for t in pages:
                print(f"{t.name:<{width}}  {t.title}")
    except docs.DocsError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot read the docs ({os_reason(exc)})") from None
    return EXIT_OK
