"""The command that installs an extra, as it works where the program runs: with the pip of its
own virtual environment, and from the checkout itself when it was installed from one
(`pip install -e .`), not a package of that name from an index."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path
from urllib.parse import unquote, urlparse


def install_command(project: str, extras: Sequence[str], dist: Distribution | None = None) -> str:
    """`pip install 'bohnanza[telegram]'`; from a checkout, `.venv/bin/pip install -e
    '.[telegram]'` (paths relative to the working folder when they are under it)."""
    if dist is None:
        try:
            dist = distribution(project)
        except PackageNotFoundError:
            dist = None
    wanted = ",".join(extras)
    checkout = _editable_source(dist) if dist is not None else None
    if checkout is not None:
        return f"{_pip()} install -e {shlex.quote(f'{_shown(checkout)}[{wanted}]')}"
    return f"{_pip()} install {shlex.quote(f'{project}[{wanted}]')}"


def _editable_source(dist: Distribution) -> Path | None:
    """The folder an editable install was made from (PEP 610's direct_url.json)."""
    try:
        text = dist.read_text("direct_url.json")
        found = json.loads(text) if text else None
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or not found.get("dir_info", {}).get("editable"):
        return None
    url = urlparse(str(found.get("url", "")))
    return Path(unquote(url.path)) if url.scheme == "file" else None


def _pip() -> str:
    """The pip of the running program's virtual environment, else `pip`."""
    if sys.prefix == sys.base_prefix:
        return "pip"
    pip = Path(sys.executable).parent / "pip"
    return shlex.quote(_shown(pip)) if pip.exists() else "pip"


def _shown(path: Path) -> str:
    """A path as typed from the working folder: relative under it ('.', '.venv/bin/pip')."""
    try:
        relative = path.absolute().relative_to(Path.cwd())
    except ValueError:
        return str(path)
    return str(relative)
