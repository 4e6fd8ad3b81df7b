"""Givens in a reused model: fixed for the length of one solve, then freed again."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from satdoku.models.puzzle import Puzzle


class FixableModel(Protocol):
    """A model built once per geometry whose placement variables can be fixed to 1 and freed."""

    def given_options(self, puzzle: Puzzle) -> list[int]: ...

    def fix(self, options: Sequence[int]) -> None: ...

    def unfix(self, options: Sequence[int]) -> None: ...


@contextmanager
def givens_fixed(model: FixableModel, puzzle: Puzzle) -> Iterator[list[int]]:
    """Fix a puzzle's givens in a reused model for the duration of the block, then free them."""
    options = model.given_options(puzzle)
    model.fix(options)
    try:
        yield options
    finally:
        model.unfix(options)
