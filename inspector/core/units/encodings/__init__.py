"""Reading bytes in encodings other than UTF-8: names, code pages, UTF-16/32 and the
multi-byte legacy encodings (the unit contract's "Other interpretations")."""
