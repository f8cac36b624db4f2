"""`rulewright replay`: a logged game re-run and its recorded final state checked."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulewright.commands.arguments import html_arguments, positive_int
from rulewright.commands.exits import EXIT_OK, CommandFailed
from rulewright.commands.lookup import current_workspace
from rulewright.commands.outputs import output_file
from rulewright.commands.playing import open_logged_game, replayed, result_line, write_html
from rulewright.gamelog import MAX_LOG_BYTES, final_digest
from runtime.text import clipped, escaped, quoted


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("logfile")
    sp.add_argument(
        "--max-bytes",
        type=positive_int,
        default=MAX_LOG_BYTES,
        help=f"refuse a larger log file (default {MAX_LOG_BYTES:,})",
    )
    html_arguments(sp, "the replayed game (written only if the log replays as recorded)")


def run(args: argparse.Namespace) -> int:
    html_path = output_file(args.html, "--html") if args.html is not None else None
    log, game = open_logged_game(Path(args.logfile), args.max_bytes, current_workspace(args))
    if log.spec_digest is not None and log.spec_digest != game.info.digest:
        print("note: the spec has changed since this log was recorded")
    replay = replayed(game, log)
    state, n, unfinished = replay.state, replay.actions, replay.unfinished
    digest = final_digest(state)
    to_act = (
        "" if state.is_terminal() else f"{escaped(game.info.player_names[state.current_player()])} to act"
    )
    if digest != replay.final_digest:
        if to_act and unfinished is None:
            raise CommandFailed(
                f"{log.path}: the game goes on after the log's {n} actions ({to_act}), yet the log "
                "does not say it is unfinished: it was cut short or edited"
            )
        raise CommandFailed(
            f"{log.path}: replay finished but the final state differs from field 'final_state_sha256': "
            f"{digest} != {quoted(replay.final_digest, 20)}"
        )
    if unfinished is not None:
        now = to_act or result_line(game, state)
        print(
            f"replayed {n} actions of an unfinished game ({clipped(unfinished, 300)}); state matches "
            f"({digest}); {now}"
        )
    elif to_act:
        raise CommandFailed(
            f"{log.path}: the game had not ended ({to_act}), but the log has no field 'unfinished'"
        )
    else:
        print(f"replayed {n} actions; final state matches ({digest}). {result_line(game, state)}")
    if html_path is not None:  # only a log that replays as recorded is shown
        write_html(html_path, game, log.seed, state.history, args.html_steps, unfinished)
    return EXIT_OK
