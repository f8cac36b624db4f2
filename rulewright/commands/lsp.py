"""`rulewright lsp`: the language server for editors, over stdio (rulewright/lsp/)."""

from __future__ import annotations

import argparse

from rulewright.commands.exits import EXIT_OK, UsageError


def arguments(sp: argparse.ArgumentParser) -> None:
    """None of its own: the editor starts it and talks to it on stdin and stdout."""


def run(args: argparse.Namespace) -> int:
    """`rulewright lsp`: the language server, over stdio (docs/editor.md)."""
    try:
        import pygls  # noqa: F401  (the lsp extra)
    except ImportError:
        raise UsageError("the language server needs the lsp extra: pip install 'rulewright[lsp]'") from None
    from rulewright.lsp.server import main as serve_lsp

    serve_lsp()
    return EXIT_OK
