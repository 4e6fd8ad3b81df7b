"""Exact counts of complete grids, by symmetry reduction (see satdoku.counting.grids)."""
from __future__ import annotations

from satdoku.counting.grids import SUPPORTED, GridCount, count_grids, is_supported

__all__ = ["SUPPORTED", "GridCount", "count_grids", "is_supported"]
