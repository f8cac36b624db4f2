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

Most of a build's time is the C compiler's, and it grows with the C: so the C is made smaller and
compiled once where it can be.
- mypyc's global optimisations, which it turns off for separate groups (a group might be compiled
  without the others seeing its subclasses), are on when the build says the groups' classes are
  closed (`closed`: no compiled class derives from another group's class, except from the
  runtime's classes open to interpreted subclasses, which mypyc never takes for final). Then an
  attribute set by every constructor is read without a test that it is set, and a method nothing
  overrides is called directly: a tenth less C, and no slower.
- The C compiler's costly checks that find nothing in mypyc's C are off (`QUIET`): Python's own
  flags turn on -Wall, whose -Wmisleading-indentation took two fifths of GCC's time on a large
  engine's C (the machine code is the same without it).
- mypyc puts its own C library (lib-rt) into every group's C file; here it is compiled once, at
  the runtime's optimisation level, and linked into every group's library.
- A module's top level, which runs once at import, is compiled without optimisation (GCC only):
  for a game it is one function of megabytes that -O1 spends a sixth of the game's time on. So is
  the code the build names cold (`cold`: functions that only load, save or show a state, never
  play one) and the getters and setters of the fields of the classes it names (`cold_fields`:
  the Python-facing access to a compiled object's fields, which compiled code never calls).

The generating process ends without tearing down its objects (mypy's and mypyc's gigabyte of
them: seconds of CPU to free), and runs without the cycle collector (it finds nothing to free
there, and scans that gigabyte again and again as it grows).

    python -P native_mypyc.py generate SPEC.json OUT.json
    python -P native_mypyc.py compile OUT.json JOBS
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

LIBRT = "__native_librt.c"  # lib-rt's C files, compiled once for every group (in the build folder)
# The C compiler's checks that cost much and find nothing in mypyc's C (Python's own flags turn on
# -Wall): -Wmisleading-indentation tracks every token's column, and takes two fifths of the time
# GCC spends on a large engine's C at -O1 (the machine code is the same without it).
QUIET = ("-Wno-misleading-indentation",)
COLD = re.compile(r"__top_level__$|_trait_vtable_setup$|_coroutine_setup$")  # run once, at import


def generate(spec_path: str, out_path: str) -> None:
    """SPEC: {"modules": [path], "groups": [[[path], name or null]], "opt_level", "debug_level",
    "closed": bool}."""
    gc.disable()
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    groups = [(list(paths), name) for paths, name in spec["groups"]]
    modules = list(spec["modules"])
    opt_level, debug_level = str(spec["opt_level"]), str(spec["debug_level"])
    extensions = None
    if spec.get("closed"):
        extensions = _generate_closed(modules, groups, opt_level, debug_level)
    if extensions is None:
        from mypyc.build import mypycify

        extensions = mypycify(modules, opt_level=opt_level, debug_level=debug_level, separate=groups)
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
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # everything is written: nothing to tear down


def _generate_closed(
    modules: list[str], groups: list[tuple[list[str], str | None]], opt_level: str, debug_level: str
) -> list[Any] | None:
    """What mypycify does for `separate=groups`, with mypyc's global optimisations on (its own
    functions, which it does not document: None, and nothing written, where this mypyc lacks them)."""
    try:
        from mypyc.build import (
            build_single_module,
            build_using_shared_lib,
            get_cflags,
            mypyc_build,
            setup_mypycify_vars,
        )
        from mypyc.options import CompilerOptions

        options = CompilerOptions(separate=True)
        if not hasattr(options, "global_opts") or not options.include_runtime_files:
            return None
        options.global_opts = True
        cflags = get_cflags(opt_level=opt_level, debug_level=debug_level)
    except (ImportError, TypeError):
        return None
    built, cfiles, _ = mypyc_build(modules, compiler_options=options, separate=groups)
    setup_mypycify_vars()
    extensions = []
    for (sources, lib_name), (names, deps) in zip(built, cfiles, strict=True):
        if lib_name:
            extensions += build_using_shared_lib(
                sources, lib_name, names, deps, options.target_dir, cflags, []
            )
        else:
            extensions += build_single_module(sources, names, cflags, [])
    return extensions


def compile_extensions(extensions_path: str, jobs: int) -> None:
    """EXTENSIONS: {"extensions": [Extension's arguments], "librt_opt_level": "3", "cold": [regex of
    C function names], "cold_fields": [regex of C names of the classes whose getters and setters
    are cold]} (the last two optional)."""
    from setuptools import Extension, setup  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    with open(extensions_path, encoding="utf-8") as f:
        spec: dict[str, Any] = json.load(f)
    specs: list[dict[str, Any]] = spec["extensions"]
    for s in specs:
        s["extra_compile_args"] = [*s["extra_compile_args"], *QUIET]
    librt, args = _share_librt(specs, str(spec["librt_opt_level"]))
    gcc = _is_gcc()
    cold = re.compile("|".join([COLD.pattern, *spec.get("cold", [])]))
    cold_fields = re.compile("|".join(spec.get("cold_fields", [])) or r"(?!)")
    for s in specs:
        for source in s["sources"]:
            if gcc and Path(source).name.startswith("__native"):
                path = Path(source)
                text = cold_unoptimised(path.read_text(encoding="utf-8"), cold, cold_fields)
                path.write_text(text, encoding="utf-8")
    extensions = [Extension(**s) for s in specs]

    class BuildExt(build_ext):  # type: ignore[misc]
        def build_extensions(self) -> None:
            if librt is not None:  # once, before the groups that link it are compiled
                objects = self.compiler.compile(
                    [librt], output_dir=self.build_temp, include_dirs=args[0], extra_postargs=args[1]
                )
                for ext in self.extensions:
                    if ext.name in args[2]:
                        ext.extra_objects = [*ext.extra_objects, *objects]
            super().build_extensions()

    setup(
        name="rulewright_native",
        ext_modules=extensions,
        cmdclass={"build_ext": BuildExt},
        script_args=["build_ext", "--inplace", "--parallel", str(max(1, jobs))],
    )


def _share_librt(
    specs: list[dict[str, Any]], opt_level: str
) -> tuple[str | None, tuple[list[str], list[str], set[str]]]:
    """Take lib-rt out of every group's C file that opens with it (its `#include <x.c>` lines) into
    one file of its own, LIBRT, beside them: that file, its include folders and C options, and
    the groups that now link its object; (None, ...) when no group's C opens that way."""
    opening: list[str] | None = None
    sharing: list[dict[str, Any]] = []
    for s in specs:
        if len(s["sources"]) != 1 or not Path(s["sources"][0]).name.startswith("__native"):
            continue
        path = Path(s["sources"][0])
        lines = path.read_text(encoding="utf-8").split("\n")
        n = 0
        while n < len(lines) and re.fullmatch(r"#include <\w+\.c>", lines[n]):
            n += 1
        if n == 0 or opening not in (None, lines[:n]):
            continue
        opening = lines[:n]
        path.write_text("\n".join(lines[n:]), encoding="utf-8")
        sharing.append(s)
    if opening is None:
        return None, ([], [], set())
    first = sharing[0]
    librt = Path(first["sources"][0]).parents[-2] / LIBRT  # in mypyc's build folder
    librt.write_text("\n".join(opening) + "\n", encoding="utf-8")
    args = [
        f"-O{opt_level}" if a.startswith("-O") and a[2:].isdigit() else a for a in first["extra_compile_args"]
    ]
    return str(librt), (list(first["include_dirs"]), args, {s["name"] for s in sharing})


def _is_gcc() -> bool:
    """Whether the C compiler setuptools runs is GCC (whose `#pragma GCC optimize` the cold code's
    marking uses; the marks are also guarded in the C, for a compiler that only claims to be GCC)."""
    import subprocess
    import sysconfig

    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    try:
        done = subprocess.run([*compiler, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in done.stdout and "clang" not in done.stdout.lower()


_C_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?\*/|//[^\n]*|^[ \t]*#(?:[^\n\\]|\\.)*|[{};]',
    re.S | re.M,
)
_FUNCTION_HEADER = re.compile(r"\b(\w+)\s*\([^;{}=]*\)\s*$")
_GETSET = re.compile(r"\bvoid\s*\*\s*closure\s*\)\s*$")  # a getter's or setter's parameters end so
_O0_START = '#if defined(__GNUC__) && !defined(__clang__)\n#pragma GCC push_options\n#pragma GCC optimize ("O0")\n#endif\n'
_O0_END = "\n#if defined(__GNUC__) && !defined(__clang__)\n#pragma GCC pop_options\n#endif"


def cold_unoptimised(
    text: str, cold: re.Pattern[str] = COLD, cold_fields: re.Pattern[str] | None = None
) -> str:
    """The C file `text` with each function definition at file scope whose name `cold` matches, and
    each getter or setter (its last parameter `void *closure`) whose name `cold_fields` matches,
    compiled without optimisation. Brackets in strings, characters, comments and preprocessor
    lines do not count; a file scope item is taken for a function when its `{` follows a name and
    a parameter list."""
    cuts: list[tuple[int, int]] = []  # (start, end) of each cold definition
    depth = 0
    item = 0  # where the current file scope item began
    start = -1
    for m in _C_TOKEN.finditer(text):
        token = m.group()
        if token == "{":
            if depth == 0:
                start = -1
                header = _FUNCTION_HEADER.search(text, item, m.start())
                if header is not None and (
                    cold.search(header.group(1))
                    or cold_fields is not None
                    and _GETSET.search(header.group())
                    and cold_fields.search(header.group(1))
                ):
                    start = text.rfind("\n", 0, _first_code(text, item, header.start())) + 1
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return text  # not C as mypyc writes it: left as it is
            if depth == 0:
                if start >= 0:
                    cuts.append((start, m.end()))
                start = -1
                item = m.end()
        elif token == ";" and depth == 0:
            item = m.end()
        elif token.lstrip().startswith("#") and depth == 0:
            item = m.end()
    if depth != 0:
        return text
    out = []
    at = 0
    for begin, end in cuts:
        out += [text[at:begin], _O0_START, text[begin:end], _O0_END]
        at = end
    out.append(text[at:])
    return "".join(out)


def _first_code(text: str, begin: int, end: int) -> int:
    """Where the first line of C (not blank) between `begin` and `end` starts."""
    k = begin
    while k < end and text[k] in " \t\r\n":
        k += 1
    return k


def main(argv: list[str]) -> None:
    if len(argv) == 3 and argv[0] == "generate":
        generate(argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "compile":
        compile_extensions(argv[1], int(argv[2]))
    else:
        raise SystemExit(f"usage: {__doc__}")


if __name__ == "__main__":
    main(sys.argv[1:])
