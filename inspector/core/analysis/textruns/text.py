"""A run's text, read when it is wanted (the runs themselves hold only offsets)."""

from __future__ import annotations

from inspector.core.units import kinds as K

UTF8, UTF16LE, UTF16BE = "utf-8", "utf-16-le", "utf-16-be"
ENCODINGS = (UTF8, UTF16LE, UTF16BE)  # a run's encoding is its index here
_CODECS = {UTF8: "utf-8", UTF16LE: "utf-16-le", UTF16BE: "utf-16-be"}


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


def texts_utf8(batch, source, dialect: str = K.UTF8) -> list[bytes]:
    """Each run's text of a batch as UTF-8 bytes (the bytes themselves for UTF-8 runs,
    which are always well-formed, except the pairs of CESU-8 / Modified UTF-8)."""
    encodings = batch.encoding.tolist()
    as_is = dialect not in K.PAIR_UNIT_DIALECTS
    out = []
    for i, e in enumerate(encodings):
        raw = batch.raw(i, source)
        if e == 0 and as_is:
            out.append(raw)
        else:
            out.append(decode_run(raw, ENCODINGS[e], dialect).encode("utf-8"))
    return out
