"""`rulewright schema`: where the spec files' JSON Schemas are (or a copy of them), and editor settings."""

from __future__ import annotations

import argparse
import os

from rulewright.commands.exits import EXIT_OK, CommandFailed, UsageError
from rulewright.commands.outputs import output_folder
from rulewright.gamelog import os_reason


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--out",
        metavar="DIR",
        help="copy the three schema files into this folder (made if missing), e.g. .vscode/ of "
        "your workspace, so that editor settings survive an upgrade of rulewright",
    )


def run(args: argparse.Namespace) -> int:
    """`rulewright schema`: where the spec files' JSON Schemas are (or, with --out, a copy of
    them in a folder of the user's), and what to tell an editor about them."""
    from compiler import schema
    from runtime.usercache import write_file_atomically

    paths = {kind: schema.SCHEMA_DIR / schema.file_name(kind) for kind in schema.KINDS}
    try:
        texts = {kind: path.read_bytes() for kind, path in paths.items()}
    except OSError as exc:
        raise CommandFailed(
            f"the installed schemas cannot be read ({os_reason(exc)}): reinstall rulewright"
        ) from None
    if args.out is not None:
        folder = output_folder(args.out, "--out")
        folder.mkdir(parents=True, exist_ok=True)
        paths = {kind: folder / schema.file_name(kind) for kind in schema.KINDS}
        for path in paths.values():  # all three refused, or none (each is checked again on writing)
            if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
                raise UsageError(f"--out: {path} is not a plain file (a link, a folder, ...): not written")
        for kind, data in texts.items():  # (a link that appears meanwhile is replaced, not written through)
            try:
                write_file_atomically(paths[kind], data, 0o666)
            except OSError as exc:
                raise UsageError(f"--out: cannot write {paths[kind]} ({os_reason(exc)})") from None
        print(f"wrote {', '.join(schema.file_name(k) for k in schema.KINDS)} to {folder}/")
    paths = {kind: path.absolute() for kind, path in paths.items()}
    width = max(len(w) for w in SCHEMA_KINDS.values())
    for kind in schema.KINDS:
        print(f"{SCHEMA_KINDS[kind]:<{width}}  {paths[kind]}")
    print()
    print(schema.editor_settings(paths), end="")
    return EXIT_OK


# what each schema is for, as `rulewright schema` lists them
SCHEMA_KINDS = {
    "rules": "rules files (specs/GAME/*.yaml but board.yaml):",
    "board": "specs/GAME/board.yaml:",
    "scenario": "scenario files (specs/GAME/scenarios/*.yaml):",
}
