"""A run's text, read when it is wanted (the runs themselves hold only offsets)."""

from __future__ import annotations

from inspector.core.units import kinds as K

_CODECS = {"utf-8": "utf-8", "utf-16-le": "utf-16-le", "utf-16-be": "utf-16-be"}


def decode_run(raw: bytes, encoding: str, dialect: str = K.UTF8) -> str:
    """The text of a run's bytes. Every unit of a run is a valid printable character, so
    this never replaces anything; CESU-8 / Modified UTF-8 pairs become one character."""
    if encoding == "utf-8" and dialect in K.PAIR_UNIT_DIALECTS:
        text = raw.decode("utf-8", "surrogatepass")
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return raw.decode(_CODECS[encoding], "replace")


def run_text(source, offset: int, length: int, encoding: str, dialect: str = K.UTF8) -> str:
    """The text of the run at ``offset`` (``length`` bytes) of ``source``."""
    return decode_run(source.read(offset, length), encoding, dialect)
