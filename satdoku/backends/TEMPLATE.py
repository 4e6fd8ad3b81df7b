"""TEMPLATE: what a new backend family writes (copy this file, rename the class, fill in the hooks).

A family is one class. Callers only ever use the contract of `base.Backend` (`solve`,
`solutions`, `count`, `solve_many`); it turns their `time_limit` into one `Deadline`, applies
`limit`, and converts a time-out into status `unknown` (solve) or `TimeLimitReached` carrying the
count so far (solutions, count). A family writes hooks that receive that deadline:

1. `solutions_within(puzzle, deadline)` (required): every solution, each a tuple of n*n digits
   in reading order, each new. Look at the deadline while you work (`deadline.check()`, or give a
   solver `deadline.remaining()` seconds) and raise `deadline.reached()` when it has passed. Build
   the model from `satdoku.models.matrix` or an encoder in `satdoku.encoders`, never a model of
   your own: every backend translates the one exact-cover matrix.
2. `solve_within(puzzle, deadline)` (optional): one solve, faster than the first of
   `solutions_within` (a reused solver, say). Return `answer(grid)` / `answer(None)` / `out_of_time()`.
3. `count_within(puzzle, limit, deadline)` (optional): when the family counts natively (DLX's
   memoised count); raise `TimeLimitReached(..., found)` with the count so far when time runs out.

Never verify grids here: `satdoku.verified` checks every grid any command prints. Then:

- register the family in `registry.FAMILIES` ("name": "satdoku.backends.module:Class"); its module
  is imported only when the family is asked for, so import heavy libraries at the module's top
  and let ImportError say what to install (`errors.missing_library`);
- declare any keyword options in `options.BACKEND_OPTIONS` (the command line builds its flags
  from there) and set `options = options_of("name")`;
- add the family to the parametrized backend lists in `tests/` (solve, count, limits, time limits,
  `compare`), and to the README's backend list.

This file is a working example: a brute-force family over the backtracker's search, which the
tests run through the whole contract beside every real family (`tests/test_backend_contract.py`).
"""
from __future__ import annotations

from collections.abc import Iterator

from satdoku.backends.base import BuiltinBackend
from satdoku.deadline import Deadline
from satdoku.models.puzzle import Grid, Puzzle


class TemplateBackend(BuiltinBackend):
    """The smallest complete family: `solutions_within` alone; solve, count and limits come from the base.

    >>> from satdoku.models.formats import parse_puzzle
    >>> TemplateBackend().count(parse_puzzle("1000000200400300"))
    1
    """

    family = "template"

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        from satdoku.backends.backtrack import fill  # the search; a real family calls its engine here
        return fill(puzzle, deadline)
