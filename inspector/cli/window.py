"""``utf8-inspector [PATH] [--offset N] [--dialect NAME]``: open the window."""

from __future__ import annotations

import argparse
import sys

from inspector import resources_access
from inspector.cli.common import EXIT_ERROR, parse_offset
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
    p.add_argument("path", nargs="?", help="file to open (default: the bundled demo sample)")
    p.add_argument("--offset", type=str, default=None, help="byte offset to open at (decimal or 0x hex)")
    p.add_argument("--dialect", type=str, default="utf-8", help=f"one of {', '.join(DIALECTS)}")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        offset = parse_offset(args.offset) if args.offset is not None else None
        dialect = check_dialect(args.dialect)
    except ValueError as e:
        print(f"utf8-inspector: {e}", file=sys.stderr)
        return EXIT_ERROR
    try:
        from inspector.gui.app import run
    except ImportError as e:  # pragma: no cover - depends on the installation
        print(f"utf8-inspector: the window needs PySide6 ({e})", file=sys.stderr)
        return EXIT_ERROR
    try:
        path = args.path if args.path is not None else demo_sample()
    except resources_access.ResourceMissing as e:
        print(f"utf8-inspector: {e}", file=sys.stderr)
        return EXIT_ERROR
    return run(path, offset=offset, dialect=dialect)
