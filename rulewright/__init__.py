"""Rulewright's command line and developer tools: the one layer that imports both halves.

The layers; an arrow is "imports", and nothing imports upwards (tests/test_layers.py checks it):

    rulewright ──┬──▶ compiler     (nothing of ours: it writes engines, never imports the runtime)
                 └──▶ runtime  ◀── generated   (engines import only the names in runtime.exported)

rulewright/ holds the `rulewright` command (cli.py, the table of commands, and commands/, a module
per command), rule coverage, verify, golden playthroughs, `diff`'s impact analysis, bench, the
scenario runner, the play-log format, and specs compiled on the fly (spec_loader.py). runtime/ imports nothing from compiler/ or rulewright/, so a compiled
engine runs with the runtime alone; it finds built engines by name (`importlib`, runtime/game.py),
not by importing generated/.
"""
