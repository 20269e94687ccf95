"""The command line: ``utf8-inspector [PATH]`` opens the window; ``units``, ``scan`` and
``strings`` are the Qt-free subcommands. Each subcommand lives in its own module and is imported
only when it is used, so the command line never loads Qt unless it opens the window."""

from __future__ import annotations

import os
import sys

from inspector.cli.common import EXIT_OK

SUBCOMMANDS = {
    "units": "inspector.cli.units",
    "scan": "inspector.cli.scan",
    "strings": "inspector.cli.strings",
}


def main(argv: list[str] | None = None) -> int:
    # numpy's OpenBLAS starts a thread per core as numpy is imported, and starting them
    # costs each process (every worker of a folder scan) about 50 ms of CPU. Nothing
    # here does linear algebra. A user's own setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        import importlib

        module = importlib.import_module(SUBCOMMANDS[argv[0]])
        return module.main(argv[1:])
    if argv and argv[0] in ("-V", "--version"):
        from inspector import __version__

        print(f"utf8-inspector {__version__}")
        return EXIT_OK
    from inspector.cli.window import main as window_main

    return window_main(argv)
