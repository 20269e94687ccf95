"""UTF-8 Inspector: look at bytes the way a UTF-8 decoder sees them.

The :mod:`inspector.core` package is the Qt-free library (byte source, decoder,
scanner, reports, command line); :mod:`inspector.gui` is the desktop window on top.
"""

__version__ = "0.1.0"
