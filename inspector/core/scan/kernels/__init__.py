"""The scanner's vectorised cuts, no per-byte Python loop: a window of any dialect cut
into rows of units (:mod:`.rows`), the utf-8 dialect's dense stretches counted at byte
level (:mod:`.bytelevel`), and the kind codes and per-byte tables both index
(:mod:`.codes`, which the views' page cut shares)."""
