"""Reference: a tiny generic Algorithm X (Assaf's dicts of sets with select/deselect), over a ReducedCover.

Not part of the package: it is short enough to check by eye, works on any exact-cover problem, and
tests/test_dlx.py and benchmarks/bench_dlx.py compare the bit-sliced solver of
`satdoku.backends.dlx` against it.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator

from satdoku.models.matrix import ReducedCover

Item = Hashable
Option = Hashable


def algorithm_x(items: dict[Item, set[Option]], option_items: dict[Option, list[Item]],
                chosen: list[Option] | None = None, secondary: frozenset = frozenset()) -> Iterator[list[Option]]:
    """Every exact cover of `items` (item -> its options), each a list of options; edits `items` while it runs.

    Items in `secondary` need not be covered, but never twice (Knuth's secondary items).

    >>> items = {1: {"A", "B"}, 2: {"B", "C"}, 3: {"A", "C"}, 4: {"D"}}
    >>> options = {"A": [1, 3], "B": [1, 2], "C": [2, 3], "D": [4], "E": [1, 2, 3, 4]}
    >>> items = {i: {o for o in options if i in options[o]} for i in items}
    >>> sorted(sorted(c) for c in algorithm_x(items, options))
    [['E']]
    """
    chosen = [] if chosen is None else chosen
    primary = [i for i in items if i not in secondary]
    if not primary:
        yield list(chosen)
        return
    item = min(primary, key=lambda i: len(items[i]))
    for option in list(items[item]):
        chosen.append(option)
        removed = select(items, option_items, option)
        yield from algorithm_x(items, option_items, chosen, secondary)
        deselect(items, option_items, option, removed)
        chosen.pop()


def select(items: dict[Item, set[Option]], option_items: dict[Option, list[Item]], option: Option) -> list[set[Option]]:
    """Cover every item of `option`, removing the options that clash with it; returns what deselect needs."""
    removed = []
    for item in option_items[option]:
        for rival in items[item]:
            for other in option_items[rival]:
                if other != item:
                    items[other].remove(rival)
        removed.append(items.pop(item))
    return removed


def deselect(items: dict[Item, set[Option]], option_items: dict[Option, list[Item]], option: Option,
             removed: list[set[Option]]) -> None:
    """Undo `select`, in reverse order."""
    for item in reversed(option_items[option]):
        items[item] = removed.pop()
        for rival in items[item]:
            for other in option_items[rival]:
                if other != item:
                    items[other].add(rival)


def reduced_covers(reduced: ReducedCover) -> Iterator[list[int]]:
    """Every exact cover of a reduced sudoku matrix, givens included, as lists of options."""
    if reduced.dead:
        return
    alive = set(reduced.options.tolist())
    open_items = set(reduced.items.tolist())
    option_items = {o: [i for i in reduced.matrix.option_items[o] if i in open_items] for o in alive}
    items = {int(i): set(opts.tolist()) for i, opts in zip(reduced.items, reduced.item_options)}
    secondary = frozenset(i for i in items if i >= reduced.matrix.n_primary)
    givens = reduced.selected.tolist()
    for cover in algorithm_x(items, option_items, secondary=secondary):
        yield givens + cover
