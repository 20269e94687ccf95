"""The command line: ``utf8-inspector [PATH]`` opens the window; ``units`` and ``scan``
are the Qt-free subcommands. Each subcommand lives in its own module and is imported
only when it is used, so the command line never loads Qt unless it opens the window."""

from __future__ import annotations

import sys

SUBCOMMANDS = {
    "units": "inspector.cli.units",
    "scan": "inspector.cli.scan",
}

EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


def parse_offset(text: str) -> int:
    """A byte offset typed by a person: decimal or ``0x`` hex, ``_`` allowed as a
    separator. Raises ValueError with a message that says what was wrong."""
    t = text.strip().replace("_", "")
    if not t:
        raise ValueError("an offset is needed (decimal, or hex with 0x)")
    try:
        value = int(t, 16) if t.lower().startswith("0x") else int(t, 10)
    except ValueError:
        raise ValueError(f"{text!r} is not an offset (use decimal like 4096 or hex like 0x1000)") from None
    if value < 0:
        raise ValueError(f"{text!r} is negative; offsets start at 0")
    return value


def main(argv: list[str] | None = None) -> int:
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
