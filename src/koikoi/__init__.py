"""Koi-Koi, the two-player Hanafuda flower-card game.

The engine is plain Python without I/O: :mod:`koikoi.cards` (the deck as bit sets),
:mod:`koikoi.rules` (rule sets and presets) and :mod:`koikoi.yaku` (scoring).
"""

from __future__ import annotations

__version__ = "0.7.0"
