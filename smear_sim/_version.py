"""The package's version, the one place it is written: pyproject.toml reads it from here.

A module of its own, importing nothing, so that any floor of the package can read the version (the equity
bidder's code version does) without importing the package root, which is the top floor.
"""

__version__ = "0.1.0"
