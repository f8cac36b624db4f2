"""`rulewright build --native` (rulewright/native.py): mypyc-compiled engines play exactly the games
the interpreted ones play, a rule that calls itself without end is a located rule error there too
(not a crash), a native build older than its sources is refused, and an unchanged one is kept.

One workspace, built natively once for the module: the features game of tests/specs/ and the
hostile spec whose function recurs for ever. About 30 s of compiling; skipped where this machine
cannot compile (no mypyc, no C compiler or no Python headers), saying which.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.native import missing_tools, native_key

ROOT = Path(__file__).resolve().parents[1]
WHY_NOT = missing_tools()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=f"no native build here: {WHY_NOT}")


def _run(ws: Path, *argv: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    # the native folders of these workspaces go to a cache of their own, beside them; the C is
    # compiled without optimisation or debug information (MYPYC_OPT_LEVEL, MYPYC_DEBUG_LEVEL, read
    # by mypyc): these tests check what the engines do, not how fast, and it takes half the CPU
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_CACHE_HOME": str(cache or ws.parent / (ws.name + "-cache")),
        "MYPYC_OPT_LEVEL": "0",
        "MYPYC_DEBUG_LEVEL": "0",
    }
    env.pop("RULEWRIGHT_NATIVE", None)
    return subprocess.run(
        [sys.executable, "-m", "rulewright", *argv],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("native")
    shutil.copytree(ROOT / "tests" / "specs" / "features", folder / "specs" / "features")
    hostile = ROOT / "tests" / "hostile" / "specs" / "bound-function-recursion-never-stops"
    shutil.copytree(hostile, folder / "specs" / "loops", ignore=shutil.ignore_patterns("*.txt"))
    shutil.copytree(
        ROOT / "tests" / "golden" / "tiny",
        folder / "specs" / "tiny",
        ignore=shutil.ignore_patterns("*.golden"),
    )
    assert _run(folder, "build").returncode == 0
    done = _run(folder, "build", "--native", "features", "loops")  # tiny stays interpreted
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        f"native engines of features, loops in {folder.parent / (folder.name + '-cache')}/rulewright/native/"
        in done.stdout
    )
    # written outside the workspace, which people share: nothing but the engines' output there
    assert sorted(p.name for p in folder.iterdir()) == ["generated", "specs"]
    return folder


def _without_speed(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "games/s" not in line)


def test_native_engines_play_the_same_games(ws: Path) -> None:
    native = _run(ws, "simulate", "features", "-n", "40", "-j", "1", "--native")
    interpreted = _run(ws, "simulate", "features", "-n", "40", "-j", "1")
    assert native.returncode == 0 and interpreted.returncode == 0, native.stderr + interpreted.stderr
    assert ", native engines" in native.stdout
    assert _without_speed(native.stdout).replace(", native engines", "") == _without_speed(interpreted.stdout)
    two = _run(ws, "simulate", "features", "-n", "40", "-j", "2", "--native")
    assert _without_speed(two.stdout) == _without_speed(native.stdout)


def test_bench_plays_the_native_engines(ws: Path) -> None:
    done = _run(ws, "bench", "features", "--native", "--no-check", "--seconds", "0.2", "--json")
    assert done.returncode == 0, done.stderr
    assert '"games_per_s_cpu"' in done.stdout


def test_a_game_left_out_plays_interpreted_on_the_compiled_runtime(ws: Path) -> None:
    native = _run(ws, "simulate", "tiny", "-n", "20", "-j", "1", "--native")
    interpreted = _run(ws, "simulate", "tiny", "-n", "20", "-j", "1")
    assert native.returncode == 0, native.stderr
    assert _without_speed(native.stdout).replace(", native engines", "") == _without_speed(interpreted.stdout)


def test_a_rule_that_recurs_for_ever_is_a_located_error_natively(ws: Path) -> None:
    done = _run(ws, "simulate", "loops", "-n", "1", "-j", "1", "--native")
    assert done.returncode == 1, (done.returncode, done.stderr)  # not a crash (a negative signal)
    assert "the rules nest calls 200 deep: a rule that calls itself without end?" in done.stderr
    assert "(in function climb (specs/loops/game.yaml:4))" in done.stderr


def test_the_native_generator_draws_the_interpreted_numbers(ws: Path) -> None:
    # natively the generator draws on mypyc's 64-bit integers (runtime/rng.py): every die, pick and
    # shuffle must be the interpreted one's, rejected draws included (ranges near 2**62 reject
    # about a third), and a range from 2**62 up still draws (the interpreted way)
    from runtime.rng import Rng

    native = ws.parent / (ws.name + "-cache") / "rulewright" / "native" / native_key(ws)
    sizes = [1, 2, 6, 7, 110, 3 << 60, (1 << 62) - 1, 1 << 62, 1 << 63]
    states = [0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 0x9E3779B97F4A7C15, 12345678901234567890]
    script = (
        "import json, sys\n"
        "import runtime.rng as r\n"
        "assert r._NATIVE, r.__file__\n"
        "out = []\n"
        f"for state in {states}:\n"
        "    g = r.Rng(0)\n"
        "    g.state = state\n"
        f"    out.append([g.below(n) for n in {sizes}] + [g.roll(6), g.state])\n"
        "    items = list(range(40))\n"
        "    g.shuffle(items)\n"
        "    out.append(items + [g.state])\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-B", "-c", f"import sys; sys.path.insert(0, {str(native)!r})\n{script}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    expected = []
    for state in states:
        g = Rng(0)
        g.state = state
        expected.append([g.below(n) for n in sizes] + [g.roll(6), g.state])
        items = list(range(40))
        g.shuffle(items)
        expected.append(items + [g.state])
    assert json.loads(done.stdout) == expected


def test_coverage_is_refused_natively(ws: Path) -> None:
    done = _run(ws, "simulate", "features", "-n", "1", "--native", "--coverage")
    assert done.returncode == 2 and "rule coverage traces the interpreted engines" in done.stderr


def test_a_native_build_older_than_its_sources_is_refused(ws: Path) -> None:
    engine = ws / "generated" / "features" / "engine.py"
    spec = ws / "specs" / "features" / "game.yaml"
    text, rules = engine.read_text(encoding="utf-8"), spec.read_text(encoding="utf-8")
    try:
        engine.write_text(text + "\n# changed\n", encoding="utf-8")  # by hand: not build's file
        done = _run(ws, "simulate", "features", "-n", "1", "--native")
        assert done.returncode == 2
        assert "generated/features/engine.py is not the file your `rulewright build` wrote" in done.stderr
        spec.write_text(rules + "\n# changed\n", encoding="utf-8")  # rebuilt from the spec
        assert _run(ws, "build", "features").returncode == 0
        done = _run(ws, "simulate", "features", "-n", "1", "--native")
        assert done.returncode == 2
        assert (
            "the native build is out of date (engines/features/__init__.py, engines/features/engine.py"
            in done.stderr
        )
    finally:
        spec.write_text(rules, encoding="utf-8")
        assert _run(ws, "build", "features").returncode == 0
        assert engine.read_text(encoding="utf-8") == text


def test_an_unchanged_build_compiles_nothing_again(ws: Path) -> None:
    # each group (the runtime, a game) is reused from the last build when made from the same
    # sources; the folder it is reused from passes the checks --native makes (rulewright/native.py)
    done = _run(ws, "build", "--native", "features", "loops")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the runtime and features, loops are unchanged since the last native build: kept" in done.stdout
    native = _run(ws, "simulate", "features", "-n", "10", "-j", "1", "--native")
    assert native.returncode == 0 and ", native engines" in native.stdout, native.stderr


def test_no_native_build_is_a_usage_error(ws: Path, tmp_path: Path) -> None:
    # the module's workspace, built, with a cache that holds no native build of it
    done = _run(ws, "simulate", "features", "-n", "1", "--native", cache=tmp_path / "empty-cache")
    assert done.returncode == 2 and "run `rulewright build --native` first" in done.stderr


def test_only_the_code_run_once_at_import_is_compiled_without_optimisation() -> None:
    from rulewright.native_mypyc import cold_unoptimised

    c = "\n".join(
        [
            "#include <Python.h>",
            'static const char *s = "{ not a block";',
            "static PyMethodDef methods[] = {",
            '    {"f", (PyCFunction)CPyPy_m___f, METH_FASTCALL, NULL},',
            "};",
            "char CPyDef_m_____top_level__(void) {",
            "    PyObject *x; /* '}' */",
            "    if (1) {",
            "        x = NULL;",
            "    }",
            "    return 1;",
            "}",
            "static bool",
            "CPyDef_m___C_trait_vtable_setup(void)",
            "{",
            "    return 1;",
            "}",
            "        PyObject *CPyPy_m___f(PyObject *self) {",
            "            return Py_None;",
            "        }",
            "",
        ]
    )
    out = cold_unoptimised(c)
    assert out.count('#pragma GCC optimize ("O0")') == 2 and out.count("#pragma GCC pop_options") == 2
    assert out.replace(c.split("char CPyDef_m")[0], "", 1).startswith("#if defined(__GNUC__)")
    hot = out.split("#pragma GCC pop_options\n#endif")[-1]
    assert "CPyPy_m___f(PyObject *self) {" in hot and "optimize" not in hot
    assert "\n".join(
        line
        for line in out.splitlines()
        if "pragma" not in line and "#if" not in line and "#endif" not in line
    ) == c.rstrip("\n")
    assert (
        cold_unoptimised("char CPyDef_m_____top_level__(void) {\n}\n}\n")
        == "char CPyDef_m_____top_level__(void) {\n}\n}\n"
    )


def test_the_cold_functions_and_fields_the_build_names_are_compiled_without_optimisation() -> None:
    import re

    from rulewright.native import cold_functions
    from rulewright.native_mypyc import COLD, cold_unoptimised

    functions = {  # name -> cold: loading and saving, not play
        "CPyDef_ws___g___engine___State____load_vars": True,
        "CPyPy_ws___g___engine___State____dump_vars": True,
        "CPyDef_ws___g___engine___State____load_vars__GameState_glue": True,
        "CPyDef_ws___g___engine___f_load_vars": False,  # a rule's function of that name
        "CPyPy_runtime___engine___Frame___from_data": True,
        "CPyPy_ws___g___engine___Proc_a___to_data": True,
        "CPyDef_ws___g___engine___f_to_data": False,  # a rule's function of that name
        "CPyDef_ws___g___engine___Proc_a___step": False,
        "CPyDef_runtime___engine___GameState___restore": False,  # not `_restore`
        "CPyDef_runtime___engine___GameState____restore": True,
        "CPyDef_runtime___engine___GameState___apply_action": False,
    }
    getters = {"ws___g___engine___Proc_a_get_l_x": True, "runtime___engine___GameState_get_seed": False}
    c = "".join(f"char {name}(PyObject *self) {{\n    return 1;\n}}\n" for name in functions) + "".join(
        f"static PyObject *\n{name}(PyObject *self, void *closure)\n{{\n    return NULL;\n}}\n"
        for name in getters
    )
    cold = re.compile("|".join([COLD.pattern, *cold_functions("ws")]))
    out = cold_unoptimised(c, cold, re.compile("^ws___"))
    for part in out.split("#pragma GCC pop_options")[:-1]:
        assert 'optimize ("O0")' in part
    marked = [part.split("#pragma GCC pop_options")[0] for part in out.split('optimize ("O0")')[1:]]
    assert sorted(n for n, is_cold in {**functions, **getters}.items() if is_cold) == sorted(
        n for n in {**functions, **getters} if any(f"{n}(" in m for m in marked)
    )


def test_the_runtime_functions_named_cold_exist() -> None:
    import ast

    from rulewright.native import RUNTIME_COLD

    names = set()
    for module in ("engine.py", "rng.py"):
        for node in ast.parse((ROOT / "runtime" / module).read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                names |= {f"{node.name}.{f.name}" for f in node.body if isinstance(f, ast.FunctionDef)}
    assert [name for name in RUNTIME_COLD if name not in names] == []


def test_global_optimisations_only_when_no_class_derives_from_another_group(tmp_path: Path) -> None:
    from rulewright.native import _closed

    (tmp_path / "runtime").mkdir()
    (tmp_path / "runtime" / "engine.py").write_text(
        "@mypyc_attr(allow_interpreted_subclasses=True)\nclass Frame: ...\nclass Decision: ...\n",
        encoding="utf-8",
    )
    (tmp_path / "runtime" / "rng.py").write_text("class Rng: ...\n", encoding="utf-8")
    engine = tmp_path / "pkg" / "g" / "engine.py"
    engine.parent.mkdir(parents=True)
    engine.write_text("class F(Frame): ...\nclass G(F): ...\n", encoding="utf-8")
    assert _closed(tmp_path, "pkg", ["g"])
    for bases in ("Decision", "runtime.engine.Frame", "Frame, metaclass=M"):
        engine.write_text(f"class F({bases}): ...\n", encoding="utf-8")
        assert not _closed(tmp_path, "pkg", ["g"]), bases
