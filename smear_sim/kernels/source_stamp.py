"""The kernels' cache entries, keyed by the source of every kernel rather than by one file's.

Numba keys a function's cache entry by its own source file (a hash of it, or its time and size in older versions). A
kernel holds the code of the functions it calls from other files: it inlines or links them as it compiles. So after
one of those files changes (a ``git pull`` or an edit in a checkout), a cached kernel whose own file did not change
would still run its callees' old code, and its results would silently disagree with the source. (A driver kept the
solver's old code that way after the solver was edited.)

:func:`stamp_kernel_caches` makes Numba key each cached function of this package by :func:`source_digest` as well: a
digest of every file whose code a kernel can hold (``core`` and ``kernels``, and the count player's weights, which it
compiles in). Change any of them and each kernel compiles afresh once, then loads from the cache again. Numba picks a
function's cache locator as the function is decorated, from a list in its caching module, so this package's
``__init__`` installs the locator before any kernel module runs. Functions outside the package keep Numba's own
locators, unless their folder is named to :func:`stamp_kernel_caches` (the tests' conftest names theirs).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

# Numba whole first: importing its submodule alone takes that submodule's import lock before Numba's own, and a thread
# importing Numba meanwhile (a server's warm-up) then met a half-made ``numba.core.caching``.
import numba  # noqa: F401
from numba.core import caching

__all__ = ["PackageStampLocator", "source_digest", "stamp_kernel_caches"]

_PACKAGE = Path(__file__).resolve().parents[1]
_KERNEL_PARTS = ("core", "kernels")  # the folders whose code a kernel can hold
_COMPILED_DATA = ("data/count.json",)  # the data a kernel compiles in (the count player's weights)
_STAMPED = [_PACKAGE]  # the folders whose cached functions are keyed by source_digest()


@functools.cache
def source_digest() -> str:
    """A SHA-256 of what kernels compile (the code of ``core`` and ``kernels``, and the count player's weights): file
    names and contents, so equal on every machine that has the same code."""
    digest = hashlib.sha256()
    paths = sorted(p for part in _KERNEL_PARTS for p in (_PACKAGE / part).rglob("*.py"))
    for path in paths + [_PACKAGE / name for name in _COMPILED_DATA]:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _locator_classes() -> list:
    """Numba's list of cache locator classes, which it tries in order (named ``CacheImpl`` from Numba 0.68)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    return impl._locator_classes


class PackageStampLocator(caching._CacheLocator):
    """Where Numba's own locators would keep a function of this package, with :func:`source_digest` added to the
    function's source stamp."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return self._inner.get_source_stamp(), source_digest()

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    def __getattr__(self, name: str):
        # What Numba reads of a locator beyond its methods (``_py_file``, where it warns that a function cannot be
        # cached) is the inner locator's.
        return getattr(self._inner, name)

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        if not any(path.is_relative_to(folder) for folder in _STAMPED):
            return None
        for numba_class in _locator_classes():
            if numba_class is not cls:
                inner = numba_class.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
        return None


def stamp_kernel_caches(*folders: Path) -> None:
    """Put :class:`PackageStampLocator` first among Numba's cache locators (once), and key the cached functions of
    ``folders`` too: code outside the package whose kernels call the package's (the tests' own)."""
    if not _PACKAGE.is_dir():
        return  # the package is inside a zip file, which Numba stamps as a whole
    for folder in (Path(f).resolve() for f in folders):
        if folder not in _STAMPED:
            _STAMPED.append(folder)
    classes = _locator_classes()
    if PackageStampLocator not in classes:
        classes.insert(0, PackageStampLocator)
