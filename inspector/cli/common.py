"""What every subcommand shares: exit statuses and reading an offset a person typed."""

from __future__ import annotations

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
