"""The examples' own contract tests are collected here as their authors run them, with each
example importable as if installed (this package puts them on the path)."""

from . import PROJECTS

__all__ = ["PROJECTS"]
