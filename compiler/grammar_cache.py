"""The DSL parser's tables, cached where only this user can write, and as data, never a pickle.

Building the LALR tables from grammar.lark takes about 0.17 s, a third of checking a small spec;
loading them back takes 0.02 s. Lark's own `cache=True` keeps them as a pickle at a name anyone can
guess in the shared temporary folder, so another user of the host could plant one there, and
unpickling it would run their code in ours. This cache differs in three ways:

- it is JSON, turned back into a parser by lark's deserializer, which builds only lark's own Rule
  and TerminalDef classes: a forged file could at worst give a wrong parser, never run code;
- it lives in $XDG_CACHE_HOME/rulewright (or ~/.cache/rulewright), made with mode 0o700, and is
  used only while that is a real folder of this user that no one else may enter;
- a file's name holds the sha256 of the grammar, of lark's version and of Python's, and a file
  beside it the sha256 of its bytes, checked before they are read: a torn or stale file is rebuilt.

Anything amiss, and the parser is built from the grammar as if there were no cache.

`load_data` keeps other data made from the grammar the same way: parse.py's own tables, derived
from lark's, with which a spec that parses is parsed without importing lark at all.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

_FORMAT = "rulewright-grammar-cache-1"
_MAX_BYTES = 4 * 1024 * 1024  # the tables of grammar.lark take 0.23 MB


def load(grammar: str, build: Callable[[str], Lark]) -> Lark:
    """The parser of `grammar` from the cache, or built by `build(grammar)` (and then cached)."""
    import lark  # only here: a spec that parses needs no lark (see load_data)

    key = hashlib.sha256(
        "\0".join((_FORMAT, lark.__version__, sys.version, grammar)).encode("utf-8")
    ).hexdigest()
    folder = _private_folder()
    if folder is None:
        return build(grammar)
    try:
        cached = _read(folder, key)
        if cached is not None:
            return cached
        parser = build(grammar)
        _write(folder, key, parser)
        return parser
    finally:
        os.close(folder)


def load_data(kind: str, grammar: str, make: Callable[[], Any]) -> Any:
    """JSON data of some `kind` that `make()` derives from `grammar` with lark, from the cache, or
    made (and then cached). Lark's version counts in the key without lark being imported: the
    sha256 of its package's first file, which holds the version."""
    key = hashlib.sha256(
        "\0".join((_FORMAT, kind, _lark_fingerprint(), sys.version, grammar)).encode("utf-8")
    ).hexdigest()
    folder = _private_folder()
    if folder is None:
        return make()
    try:
        data = _read_checked(folder, key)
        if data is not None:
            try:
                return json.loads(data)
            except ValueError:  # a cache: whatever is wrong with it, the data is made afresh
                pass
        made = make()
        _write_checked(folder, key, json.dumps(made).encode("utf-8"))
        return made
    finally:
        os.close(folder)


def _lark_fingerprint() -> str:
    spec = importlib.util.find_spec("lark")
    if spec is None or spec.origin is None:
        return "no lark"
    try:
        return hashlib.sha256(Path(spec.origin).read_bytes()).hexdigest()
    except OSError:
        return "unreadable lark"


def _private_folder() -> int | None:
    """A descriptor of this user's cache folder, if it is safe to use (else None)."""
    if not hasattr(os, "getuid") or not hasattr(os, "O_NOFOLLOW"):
        return None  # no owner to check: no cache
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    path = Path(base) / "rulewright"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        # the descriptor pins the folder checked here, whatever is renamed around it later
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    st = os.fstat(fd)
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        os.close(fd)
        return None
    return fd


def _read_small(folder: int, name: str) -> bytes | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_size > _MAX_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(_MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_checked(folder: int, key: str) -> bytes | None:
    """The bytes of the file of `key`, if its sha256 is the one written beside it."""
    data = _read_small(folder, f"{key}.json")
    digest = _read_small(folder, f"{key}.sha256")
    if data is None or digest is None or hashlib.sha256(data).hexdigest().encode() != digest.strip():
        return None
    return data


def _write_checked(folder: int, key: str, data: bytes) -> None:
    _write_file(folder, f"{key}.json", data)
    _write_file(folder, f"{key}.sha256", hashlib.sha256(data).hexdigest().encode() + b"\n")


def _read(folder: int, key: str) -> Lark | None:
    from lark import Lark

    data = _read_checked(folder, key)
    if data is None:
        return None
    try:
        tables = json.loads(data, object_hook=_decode)
        parser: Lark = Lark._load_from_dict(tables["data"], tables["memo"])  # type: ignore[no-untyped-call]
        return parser
    except Exception:  # a cache: whatever is wrong with it, the parser is built afresh instead
        return None


def _write(folder: int, key: str, parser: Lark) -> None:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    try:
        text = json.dumps({"data": _encode(data), "memo": _encode(memo)}).encode("utf-8")
    except TypeError:  # tables this encoding does not know (another lark): no cache
        return
    _write_checked(folder, key, text)


def _write_file(folder: int, name: str, data: bytes) -> None:
    """Write under a temporary name, then rename: a reader sees the old file or the new one."""
    tmp = f"{name}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        try:
            os.unlink(tmp, dir_fd=folder)
        except OSError:
            pass


# JSON has no integer keys and no tuples: a mapping whose keys are not all strings is written as
# {"__pairs__": [[key, value], ...]}, and lark reads lists where it wrote tuples.
def _encode(x: Any) -> Any:
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {k: _encode(v) for k, v in x.items()}
        if not all(isinstance(k, int) for k in x):
            raise TypeError("keys that are neither strings nor integers")
        return {"__pairs__": [[k, _encode(v)] for k, v in x.items()]}
    if isinstance(x, (list, tuple)):
        return [_encode(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"a {type(x).__name__} in the parser tables")


def _decode(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and "__pairs__" in obj:
        return {k: v for k, v in obj["__pairs__"]}
    return obj
