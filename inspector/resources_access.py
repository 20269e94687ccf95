"""The program's data files: palettes, samples, docs, the icon and the desktop entry.

In the source tree they live in the top-level ``resources/`` folder; a wheel carries the
same folder as the package ``inspector.resources`` (``pyproject.toml`` maps one onto the
other). Everything the program reads at run time is found here, by a name relative to
that folder, ``"palettes/light.json"``, and never by a path worked out from
``__file__`` elsewhere:

- an installed wheel (pip, pipx): ``importlib.resources`` on ``inspector.resources``;
- a source checkout (``python3 -m pytest``, ``pip install -e .``), where the package
  ``inspector`` is the checkout's own and ``inspector/resources`` does not exist: the
  checkout's ``resources/`` folder.

Used by the command line and the window; Qt-free, and importing nothing of the program
(the core, the library, needs none of these files).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.resources
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable

PACKAGE = "inspector.resources"

# What the program reads at run time (a test checks each one is found, in the checkout
# and in a built wheel).
RUNTIME = (
    "palettes/light.json",
    "palettes/dark.json",
    "samples/demo.txt",
    "icons/utf8-inspector.svg",
    "desktop/utf8-inspector.desktop",
    "docs/user-guide.md",
    "docs/utf8-units.md",
)
DEMO_SAMPLE = "samples/demo.txt"
ICON = "icons/utf8-inspector.svg"
DESKTOP_ENTRY = "desktop/utf8-inspector.desktop"


class ResourceMissing(FileNotFoundError):
    """A data file the program needs is not where it should be: a broken installation."""


_PACKAGE_DIR = Path(__file__).resolve().parent  # .../inspector
_CHECKOUT = _PACKAGE_DIR.parent  # the source tree's top, when running from one


@lru_cache(maxsize=1)
def files() -> Traversable:
    """The folder of the data files."""
    if (_PACKAGE_DIR / "resources" / "__init__.py").is_file():
        return importlib.resources.files(PACKAGE)  # an installed wheel
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "resources" / "__init__.py").is_file():
        return _CHECKOUT / "resources"  # a source checkout
    try:  # anything else importlib knows how to reach (a zip, an editable finder)
        return importlib.resources.files(PACKAGE)
    except ModuleNotFoundError:
        raise ResourceMissing(f"the program's data files ({PACKAGE}) are missing next to "
                              f"{_PACKAGE_DIR}; reinstall utf8-inspector") from None


def _split(name: str) -> list[str]:
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise ValueError(f"{name!r} is not the name of a data file (use 'folder/file')")
    return parts


def resource(name: str) -> Traversable:
    """The data file ``name`` (``"palettes/light.json"``); raises :class:`ResourceMissing`
    when it is not there."""
    node = files()
    for part in _split(name):
        node = node.joinpath(part)
    if not node.is_file():
        raise ResourceMissing(f"the data file {name} is missing from the installation "
                              f"({files()}); reinstall utf8-inspector")
    return node


def exists(name: str) -> bool:
    try:
        resource(name)
    except ResourceMissing:
        return False
    return True


def read_text(name: str) -> str:
    return resource(name).read_text(encoding="utf-8")


def read_bytes(name: str) -> bytes:
    return resource(name).read_bytes()


def names(folder: str, suffix: str = "") -> list[str]:
    """The file names in ``folder`` (those ending in ``suffix``), sorted."""
    node = files()
    for part in _split(folder):
        node = node.joinpath(part)
    if not node.is_dir():
        return []
    return sorted(child.name for child in node.iterdir()
                  if child.is_file() and child.name.endswith(suffix))


_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


def resource_path(name: str) -> Path:
    """A real path on disk for ``name``, for what needs one (a file opened with
    ``pread``, a Qt image, the desktop entry). Installed wheels and checkouts are
    folders, so this is the file itself; from a zip it is a copy that lives until the
    program ends."""
    node = resource(name)
    if isinstance(node, Path):
        return node
    return _extracted.enter_context(importlib.resources.as_file(node))

