"""The Qt-free modules the first window needs, imported before PySide6 is.

PySide6 hooks the import statement: for each module imported once it is loaded (and for
each module an import statement names, loaded or not), it reads the module's whole
source to look for the word "PySide6" and keeps the lines in ``linecache``. Numpy and
the core imported first are spared most of that: measured ~25 ms of start-up on this
project's 2-core machine, and the source of numpy's ~80 modules not held in memory.

:mod:`inspector.gui.app` imports this module before it imports PySide6; a test checks
that no core module or numpy module of the first window is left to load after Qt.
"""

from __future__ import annotations

import numpy

from inspector.core.analysis import copyformats, findings, search, summary, verdict
from inspector.core.analysis.encodings import families
from inspector.core.analysis.scanviews import overviewbins, problemrows, problemsearch, scanfigures
from inspector.core.scan import blockindex, lines, navigation, pagecut, tally
from inspector.core.source import bytesource
from inspector.core.units import decoder, unitinfo

# Named here so that they count as used; importing them was the point.
PRELOADED = (numpy, copyformats, findings, search, summary, verdict, families, overviewbins,
             problemrows, problemsearch, scanfigures, blockindex, lines, navigation, pagecut,
             tally, bytesource, decoder, unitinfo)
