"""PySide6 loaded without its ``__feature__`` import hook.

Loading shiboken6 replaces ``builtins.__import__`` with ``__feature_import__``: after
every import statement it reads the whole source of the module imported (and of each
module the statement names, loaded or not) to look for the word "PySide6", for
``from __feature__ import snake_case, true_property``, which this program never uses.
That cost every start about 70 ms of CPU (numpy and the window's modules; measured:
numpy 110 -> 72 ms, the window's modules 120 -> 87 ms), and ``linecache`` kept the
source lines (~2 MiB) until someone cleared them.

:func:`drop_feature_hook` puts back the import function shiboken6 wraps
(``builtins.__orig_import__``: its lazy loader, which star imports of Qt modules still
need), so only the feature selection goes. Without it every module keeps Qt's default
feature set (plain camelCase names, no true properties), which is what the program uses.
"""

from __future__ import annotations

import builtins

import PySide6.QtCore  # noqa: F401 - loads shiboken6, which installs the hook


def drop_feature_hook() -> bool:
    """Restore the import function under shiboken6's ``__feature__`` hook. Returns
    whether the hook was there (a PySide6 without it, or already dropped: False)."""
    hook = getattr(builtins, "__feature_import__", None)
    inner = getattr(builtins, "__orig_import__", None)
    if hook is None or inner is None or builtins.__import__ is not hook:
        return False
    builtins.__import__ = inner
    return True


drop_feature_hook()
