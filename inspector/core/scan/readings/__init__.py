"""The scan's side of the other interpretations: their windows for counting and
searching, and the encoding map's reading."""
