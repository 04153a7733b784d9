"""The game in the terminal (Textual): ``koikoi play`` and ``koikoi watch``.

:mod:`koikoi.tui.table` turns observations into the text shown; :mod:`koikoi.tui.play`
and :mod:`koikoi.tui.watch` are the two apps, sharing :mod:`koikoi.tui.board`.
"""
