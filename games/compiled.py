"""Which copy of a compiled module runs: the compiled one only while it was built from the source
beside it (setup.py builds them with Cython and records each one's source digest).

Python's import system prefers a compiled extension to a ``.py`` of the same name, even when the
``.py`` is newer; so an edit of the rules without a rebuild would silently run the old rules. A
package whose modules may be compiled calls ``prefer_current(__name__, [...])`` in its
``__init__`` before importing them: a module whose compiled copy is missing, stale or switched off
(``KORCHMA_PURE_PYTHON=1``) is loaded from its source instead. ``implementation()`` tells which
copy a module runs (the benchmark prints it).

This reads files, as importing does; no game does I/O through it.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

DIGEST_SUFFIX = ".source-sha256"  # setup.py writes these (a twin constant there)
PURE_ENV = "KORCHMA_PURE_PYTHON"

# module name -> "compiled", "source" (nothing compiled), "stale" or "switched off" (source runs)
_CHOSEN: dict[str, str] = {}


def prefer_current(package: str, modules: list[str]) -> None:
    """Load each of ``package``'s ``modules`` (in this order: a module must come before those that
    import it) from its source unless its compiled copy is current."""
    directory = Path(sys.modules[package].__file__).parent
    for name in modules:
        full = f"{package}.{name}"
        if full in sys.modules:
            continue
        source = directory / f"{name}.py"
        state = _state(directory, name, source)
        _CHOSEN[full] = state
        if state != "compiled":
            _load_source(package, full, source)


def implementation(module: ModuleType) -> str:
    """"compiled" or "source" (with why, when a compiled copy exists but is not used)."""
    state = _CHOSEN.get(module.__name__)
    if state is None:
        return "compiled" if _is_extension(module) else "source"
    return state if state in ("compiled", "source") else f"source ({state})"


def _state(directory: Path, name: str, source: Path) -> str:
    built = _compiled_file(directory, name)
    if built is None:
        return "source"
    if os.environ.get(PURE_ENV):
        return "switched off"
    digest_file = Path(str(built) + DIGEST_SUFFIX)
    try:
        recorded = digest_file.read_text().strip()
    except OSError:
        return "stale"
    return "compiled" if recorded == hashlib.sha256(source.read_bytes()).hexdigest() else "stale"


def _compiled_file(directory: Path, name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = directory / f"{name}{suffix}"
        if candidate.exists():
            return candidate
    return None


def _is_extension(module: ModuleType) -> bool:
    return str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _load_source(package: str, full: str, source: Path) -> None:
    spec = importlib.util.spec_from_file_location(full, source)
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[full]
        raise
    setattr(sys.modules[package], full.rpartition(".")[2], module)
