"""The two halves of a native build (rulewright/native.py), each run as a script in a process of
its own, in the staging folder: `generate` turns the Python modules into C with mypyc, one
compilation group per game (and one for the runtime), and writes what is to be compiled as JSON;
`compile` compiles that C into extension modules, several groups at once.

Two processes, because mypyc's front end holds gigabytes for a large engine and a process keeps
its peak: the C compiler starts after that memory is given back. One group per game, because a
group is one C file for the C compiler: smaller units, compiled in parallel, and a game's group
depends only on its own engine and on the runtime (so an unchanged game's compiled module can be
reused). Run with `python -P` (its own folder, rulewright/, is not put first on sys.path: nothing of
the workspace is imported here, only mypyc and setuptools).

    python -P native_mypyc.py generate SPEC.json OUT.json
    python -P native_mypyc.py compile OUT.json JOBS
"""

from __future__ import annotations

import json
import sys
from typing import Any


def generate(spec_path: str, out_path: str) -> None:
    """SPEC: {"modules": [path], "groups": [[[path], name or null]], "opt_level", "debug_level"}."""
    from mypyc.build import mypycify

    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    groups = [(list(paths), name) for paths, name in spec["groups"]]
    extensions = mypycify(
        list(spec["modules"]),
        opt_level=str(spec["opt_level"]),
        debug_level=str(spec["debug_level"]),
        separate=groups,
    )
    out = [
        {
            "name": ext.name,
            "sources": list(ext.sources),
            "include_dirs": list(ext.include_dirs),
            "depends": list(ext.depends),
            "extra_compile_args": list(ext.extra_compile_args),
        }
        for ext in extensions
    ]
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)


def compile_extensions(extensions_path: str, jobs: int) -> None:
    from setuptools import Extension, setup  # type: ignore[import-untyped]

    with open(extensions_path, encoding="utf-8") as f:
        specs: list[dict[str, Any]] = json.load(f)
    setup(
        name="rulewright_native",
        ext_modules=[Extension(**spec) for spec in specs],
        script_args=["build_ext", "--inplace", "--parallel", str(max(1, jobs))],
    )


def main(argv: list[str]) -> None:
    if len(argv) == 3 and argv[0] == "generate":
        generate(argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "compile":
        compile_extensions(argv[1], int(argv[2]))
    else:
        raise SystemExit(f"usage: {__doc__}")


if __name__ == "__main__":
    main(sys.argv[1:])
