"""The program's data files (palettes, samples, docs, icon, desktop entry).

This folder is the package ``inspector.resources`` of an installed wheel; the program
finds its files through :mod:`inspector.resources_access`, never by path.
"""
