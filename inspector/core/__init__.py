"""The Qt-free core: byte sources, the unit decoder, the scanner and the reports."""
