"""``python -m koikoi``: the same as the ``koikoi`` command."""

from koikoi.cli import main

main()
