"""``utf8-inspector [PATH] [--offset N] [--dialect NAME | --encoding NAME]``: open the window (also
``--version``, and ``--install-desktop`` / ``--uninstall-desktop``, which need no Qt)."""

from __future__ import annotations

import argparse
import gc
import sys

from inspector import resources_access
from inspector.cli.common import EXIT_ERROR, EXIT_OK, parse_offset
from inspector.core.units.encodings import codecnames
from inspector.core.units.kinds import DIALECTS, check_dialect


def demo_sample() -> str:
    """The bundled demo sample, from the installed package (or the source tree)."""
    return str(resources_access.resource_path(resources_access.DEMO_SAMPLE))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="utf8-inspector",
        description="Inspect bytes the way a UTF-8 decoder sees them. Subcommands: "
                    "'units' lists units, 'scan' checks whole files; with no subcommand "
                    "the window opens (on the demo sample when no PATH is given).")
    p.add_argument("path", nargs="?", help="file to open, or a folder to triage (default: the bundled demo sample)")
    p.add_argument("--offset", type=str, default=None, help="byte offset to open at (decimal or 0x hex)")
    reading = p.add_mutually_exclusive_group()
    reading.add_argument("--dialect", type=str, default=None, help=f"one of {', '.join(DIALECTS)}")
    reading.add_argument("--encoding", type=str, default=None, metavar="NAME",
                         help="read the bytes in this encoding instead (as View > Interpret "
                              "as does): a codec name Python knows (cp1252, koi8-r, shift_jis, "
                              "gb18030, utf-16-le...) or a UTF-8 dialect")
    p.add_argument("--version", "-V", action="store_true", help="print the version and exit")
    p.add_argument("--install-desktop", action="store_true",
                   help="add the program to the desktop's launcher and 'Open With' menus "
                        "(Linux: a desktop entry and an icon in your XDG data folder)")
    p.add_argument("--uninstall-desktop", action="store_true",
                   help="remove what --install-desktop added")
    # Checks an installation: the window opens, stays up a couple of seconds and quits
    # by itself (exit status 0 when all went well). For CI; not shown in --help.
    p.add_argument("--smoke-test", action="store_true", help=argparse.SUPPRESS)
    return p


def reading_name(dialect: str | None, encoding: str | None) -> str:
    """The reading the window starts in, checked before Qt loads (ValueError says why)."""
    if encoding is None:
        return check_dialect(dialect or "utf-8")
    name = codecnames.canonical(encoding)
    if name == codecnames.MAP:
        # The map is made by the scan, which has not run yet at start.
        raise ValueError("--encoding map: the encoding map exists once the file is "
                         "scanned; choose View > Interpret as > By the encoding map then")
    return name


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.version:
        from inspector import __version__

        print(f"utf8-inspector {__version__}")
        return EXIT_OK
    if args.install_desktop or args.uninstall_desktop:
        from inspector.cli import desktop

        return desktop.main(remove=args.uninstall_desktop)
    try:
        offset = parse_offset(args.offset) if args.offset is not None else None
        dialect = reading_name(args.dialect, args.encoding)
    except ValueError as e:
        print(f"utf8-inspector: {e}", file=sys.stderr)
        return EXIT_ERROR
    # No cyclic garbage collection until the window has painted: start-up allocates
    # hundreds of thousands of objects that live on (modules, Qt's enum classes), and
    # the collector walked them again and again (~15 ms of CPU before the first paint).
    # The window collects once after its first paint and freezes what start-up made
    # (inspector.gui.app.settle_memory), then collects when the user is still (gcpolicy).
    gc.disable()
    try:
        return _open_window(args, offset, dialect)
    finally:
        gc.enable()   # a start that failed (or a caller in the same process) collects again


def _open_window(args, offset, dialect: str) -> int:
    from inspector.gui.runtime import startup  # Qt-free: it reports a PySide6 that fails

    try:
        from inspector.gui.app import run
    except ImportError as e:
        if (e.name or "").startswith(("PySide6", "shiboken6")) or "shared object" in str(e):
            return startup.failed(e, "the window needs PySide6, which could not be loaded")
        return startup.failed(e)
    except Exception as e:
        return startup.failed(e)
    try:
        path = args.path if args.path is not None else demo_sample()
    except Exception as e:  # a broken installation: the demo is missing
        return startup.failed(e)
    return run(path, offset=offset, dialect=dialect, smoke_test=args.smoke_test)
