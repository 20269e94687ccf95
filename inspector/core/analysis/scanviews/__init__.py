"""What the window shows of a scan, worked out without Qt: the problem list's rows
(``problemrows``), the statistics' figures (``scanfigures``), the overview's bins
(``overviewbins``, also the HTML report's picture) and the search for the next or
previous problem (``problemsearch``). The window's docks and panes only paint these
and take input."""
