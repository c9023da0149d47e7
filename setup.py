"""Build step for the compiled copies of the hottest pure modules (everything else is in pyproject.toml).

The Coup engine and its bots (``COMPILED``) are also compiled with Cython, unchanged, as plain
Python semantics: about a third faster, which is what carries bench/coup_bench.py over its target
of 1,000 easy-bot games a second. The ``.py`` files stay the source of truth:

* each compiled module gets a ``<module>.source-sha256`` file beside it, the digest of the source
  it was built from; ``games/compiled.py`` loads the ``.py`` instead whenever the source has
  changed since (an edit without a rebuild never runs stale rules);
* a build that cannot compile (no C compiler, no Cython) installs the pure modules and says so:
  every extension is optional;
* ``KORCHMA_PURE_PYTHON=1`` runs the sources even when the compiled copies are current (set at
  install, it also skips the compilation).

``make`` rebuilds when one of these sources changes (its stamp depends on them).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED = ["games/coup/engine.py", "games/coup/bot.py"]
DIGEST_SUFFIX = ".source-sha256"  # games/compiled.py reads these (a twin constant there)
TRANSLATED: dict[str, str] = {}  # source path -> digest when Cython read it


def source_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class BuildWithDigests(build_ext):
    """build_ext that records, beside each compiled module, the digest of the source it came from."""

    def run(self) -> None:
        super().run()
        for ext in self.extensions:
            built = Path(self.get_ext_fullpath(ext.name))
            if built.exists():
                source = ROOT / (ext.name.replace(".", "/") + ".py")
                # The digest of the source as it was read for compiling (an edit made while the
                # build ran must not be recorded as built).
                digest = TRANSLATED.get(str(source)) or source_digest(source)
                Path(str(built) + DIGEST_SUFFIX).write_text(digest + "\n")


def extensions() -> list:
    if os.environ.get("KORCHMA_PURE_PYTHON"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("korchma: Cython is not available; the games run as pure Python")
        return []
    for path in COMPILED:  # before Cython reads them
        TRANSLATED[str(ROOT / path)] = source_digest(ROOT / path)
    try:
        # annotation_typing off: the annotations document, they must not become C type checks.
        modules = cythonize(COMPILED, build_dir="build/cython", quiet=True,
                            compiler_directives={"language_level": 3, "annotation_typing": False})
    except Exception as error:  # a Cython that cannot compile these: run the sources
        print(f"korchma: not compiling the games ({error}); they run as pure Python")
        return []
    for module in modules:
        module.optional = True  # no C compiler: install anyway, the .py runs
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildWithDigests})
