"""`rulewright games`: the compiled games this run sees, with their players and options (or as JSON)."""

from __future__ import annotations

import argparse
import json

from rulewright.commands.exits import EXIT_OK
from rulewright.commands.lookup import current_workspace, game_entries
from runtime.text import escaped, escaped_lines


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--json", action="store_true", help="as JSON")


def run(args: argparse.Namespace) -> int:
    ws = current_workspace(args)
    listed = [entry for entry, _ in game_entries(ws)]
    if args.json:
        text = json.dumps(listed, indent=1, ensure_ascii=False)
        if escaped_lines(text) != text:  # a title with a bidi override, say: JSON's own escapes
            text = json.dumps(listed, indent=1)
        print(text)
        return EXIT_OK
    if not listed:
        print("no compiled games (write a spec in specs/GAME/, then `rulewright build`)")
    refusals = sorted({e["refused"] for e in listed if "refused" in e})
    for e in listed:
        if "refused" in e:
            print(f"{e['name']}: not loaded [workspace: not built by you]")
            continue
        counts = e["players"]
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        by = f", set by option {e['players_option']}" if e["players_option"] else ""
        where = e["source"]
        where += "; shadows the bundled game of that name" if e["shadows_bundled"] else ""
        print(escaped(f"{e['name']}: {e['title']} ({players} players{by}) [{where}]"))
        for o in e["options"]:
            choices = f", one of {', '.join(map(str, o['choices']))}" if o["choices"] else ""
            doc = f": {o['doc']}" if o["doc"] else ""
            default = o["default"] if isinstance(o["default"], str) else json.dumps(o["default"])
            typ = o["type"].removeprefix("enum:")
            print(escaped(f"  -o {o['name']}={default}  ({typ}{choices}){doc}"))
    for why in refusals:
        print(escaped(why))
    return EXIT_OK
