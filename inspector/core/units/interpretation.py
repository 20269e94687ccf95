"""Ways of reading bytes, found by name: :func:`interpretation`.

``"utf-8"`` and the other UTF-8 dialects (:mod:`inspector.core.units.dialects`), and
any encoding of text Python's codecs know, spelled as ``codecs.lookup`` knows it
(``cp1252``, ``koi8-r``, ``shift_jis``, ``utf-16-le``...): a code page of one byte per
character, UTF-16 or UTF-32, or a multi-byte legacy encoding
(:mod:`inspector.core.units.encodings.codecunits`, :mod:`inspector.core.units.encodings.multibyte`). The
encoding map's reading ("map", each region in its own encoding) needs the map, so it is
made from one (:mod:`inspector.core.scan.readings.mapreading`), not found by name.
"""

from __future__ import annotations

from functools import lru_cache

from inspector.core.units.encodings import codecnames
from inspector.core.units import kinds as K
from inspector.core.units.dialects import INTERPRETATIONS, Interpretation, Utf8Dialect

__all__ = ["INTERPRETATIONS", "Interpretation", "Utf8Dialect", "interpretation", "title_of"]

_WIDE = {"utf-16-le": (2, "little"), "utf-16-be": (2, "big"), "utf-16": (2, "bom"),
         "utf-32-le": (4, "little"), "utf-32-be": (4, "big"), "utf-32": (4, "bom")}


@lru_cache(maxsize=None)
def _codec_interpretation(codec: str) -> Interpretation:
    # Imported here: they need numpy, which a scan of a clean UTF-8 file never loads.
    from inspector.core.units.encodings.codecunits import SingleByteCodec, UtfWide, byte_table
    from inspector.core.units.encodings.multibyte import MultiByteCodec, shape_of

    title = codecnames.title(codec)
    short = title.split(" (")[0]
    if codec in _WIDE:
        width, order = _WIDE[codec]
        lengths = (2, 4) if width == 2 else (4,)
        kinds = (K.UNPAIRED_SURROGATE, K.UNDECODABLE) + ((K.OUT_OF_RANGE,) if width == 4 else ())
        return UtfWide(codec, title, short, kinds, lengths, 4, codec=codec, width=width,
                       order=order)
    if byte_table(codec) is not None:
        return SingleByteCodec(codec, title, short, (K.UNDECODABLE,), (1,), 0, codec=codec)
    shape = shape_of(codec)
    return MultiByteCodec(codec, title, short, (K.UNDECODABLE,),
                          tuple(range(1, shape.max_length + 1)), shape.max_length,
                          codec=codec, read_ahead=shape.max_length + 16)


def interpretation(name: str | Interpretation) -> Interpretation:
    """The interpretation called ``name``: a UTF-8 dialect (any spelling
    :func:`kinds.check_dialect` takes) or a codec Python knows (any spelling
    ``codecs.lookup`` takes). An Interpretation is returned as it is. ValueError names
    the choices."""
    if isinstance(name, Interpretation):
        return name
    key = codecnames.canonical(name)
    if key in INTERPRETATIONS:
        return INTERPRETATIONS[key]
    if key == codecnames.MAP:
        raise ValueError("reading by the encoding map needs the map: it is made from a "
                         "finished scan (the window's \"By the encoding map\", or "
                         "inspector.core.scan.readings.mapreading.MapReading)")
    return _codec_interpretation(key)


def title_of(name: str | Interpretation) -> str:
    """What the window calls an interpretation."""
    if isinstance(name, Interpretation):
        return name.title
    return codecnames.title(codecnames.canonical(name))
