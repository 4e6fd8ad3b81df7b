"""Regular bipartite graphs as tuples of row bitmasks: canonical forms, matchings, 1-factorizations.

A graph has rows 0..m-1 and digits 0..n-1; `rows[r]` has bit d set when row r is adjacent to digit d.
F(G), the number of ordered 1-factorizations of a k-regular G (equivalently its proper edge
colourings with k labelled colours), is what a two-row-box stack filling count reduces to.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

Rows = tuple[int, ...]


def bits(mask: int) -> list[int]:
    """The set bits of a mask, as single-bit masks, lowest first.

    >>> bits(0b1010)
    [2, 8]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def column_masks(rows: Sequence[int], n_cols: int) -> list[int]:
    """For each digit, the mask of rows adjacent to it.

    >>> column_masks((0b01, 0b11), 2)
    [3, 2]
    """
    return [sum(1 << i for i, r in enumerate(rows) if r >> d & 1) for d in range(n_cols)]


def canonical_form(rows: Sequence[int], n_cols: int) -> tuple:
    """A key equal for two graphs exactly when one is the other with rows and digits renamed.

    The key is the largest, over digit orders, column-major reading of the matrix whose rows are
    sorted (first digit most significant). Its first k columns depend only on the first k digits
    chosen, so the search keeps, level by level, only the partial orders reaching the best prefix,
    merged when they leave the same ordered row partition and the same digits (twins as one).

    >>> canonical_form((0b011, 0b110), 3) == canonical_form((0b101, 0b011), 3)
    True
    >>> canonical_form((0b011, 0b011), 3) == canonical_form((0b011, 0b110), 3)
    False
    """
    twins: dict[int, int] = {}
    for mask in column_masks(rows, n_cols):
        twins[mask] = twins.get(mask, 0) + 1
    masks = tuple(twins)
    states = {(((1 << len(rows)) - 1,), tuple(twins.values()))}
    key = []
    for _ in range(n_cols):
        best: tuple[int, ...] | None = None
        following: set = set()
        if len(next(iter(states))[0]) == len(rows):     # rows all told apart: the rest is a sort
            return tuple(key) + max(_finish(part, left, masks) for part, left in states)
        for part, left in states:
            for t, cm in enumerate(masks):
                if not left[t]:
                    continue
                column = tuple((cls & cm).bit_count() for cls in part)
                if best is None or column > best:
                    best, following = column, set()
                elif column < best:
                    continue
                following.add((_split(part, cm), left[:t] + (left[t] - 1,) + left[t + 1:]))
        key.append(best)
        states = following
    return tuple(key)


def _split(part: tuple[int, ...], cm: int) -> tuple[int, ...]:
    """Each row class split into its rows adjacent to the digit, then the others."""
    out = []
    for cls in part:
        if cls & cm:
            out.append(cls & cm)
        if cls & ~cm:
            out.append(cls & ~cm)
    return tuple(out)


def _finish(part: tuple[int, ...], left: tuple[int, ...], masks: tuple[int, ...]) -> tuple:
    """The remaining columns once rows are all told apart: each digit's column, best first."""
    columns = []
    for t, cm in enumerate(masks):
        columns += [tuple((cls & cm).bit_count() for cls in part)] * left[t]
    return tuple(sorted(columns, reverse=True))


def perfect_matchings(rows: Sequence[int]) -> Iterator[Rows]:
    """Every perfect matching, as the digit bit chosen for each row.

    >>> sorted(perfect_matchings((0b11, 0b11)))
    [(1, 2), (2, 1)]
    """
    m = len(rows)
    chosen = [0] * m

    def extend(i: int, used: int) -> Iterator[Rows]:
        if i == m:
            yield tuple(chosen)
            return
        for bit in bits(rows[i] & ~used):
            chosen[i] = bit
            yield from extend(i + 1, used | bit)

    return extend(0, 0)


def cycle_count(rows: Sequence[int], n_cols: int) -> int:
    """Cycles of a 2-regular bipartite graph (each row joins its two digits).

    >>> cycle_count((0b0011, 0b0011, 0b1100, 0b1100), 4)
    2
    """
    parent = list(range(n_cols))
    cycles = n_cols
    for r in rows:
        low = r & -r
        a, b = low.bit_length() - 1, (r ^ low).bit_length() - 1
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        if a != b:
            parent[a] = b
            cycles -= 1
    return cycles


def degree(rows: Sequence[int]) -> int:
    """The degree of a regular graph (that of its first row)."""
    return rows[0].bit_count() if rows else 0


def factorizations_3(rows: Sequence[int], n_cols: int) -> int:
    """F of a 3-regular graph: each perfect matching leaves a 2-regular rest, 2^cycles ways.

    >>> factorizations_3((0b111, 0b111, 0b111), 3)     # K3,3: the Latin squares of order 3
    12
    """
    return sum(1 << cycle_count([r ^ b for r, b in zip(rows, m)], n_cols) for m in perfect_matchings(rows))


def factorizations_4(rows: Sequence[int], n_cols: int) -> int:
    """F of a 4-regular graph: over 2-factors A, 2^cycles(A) * 2^cycles(G - A).

    A and G - A play the same part, so only the A holding row 0's lowest edge is listed (times 2).

    >>> factorizations_4((0b1111,) * 4, 4)              # K4,4: the Latin squares of order 4
    576
    """
    m = len(rows)
    once, twice = [0] * (m + 1), [0] * (m + 1)   # digits seen in >= 1, >= 2 of rows i..m-1
    for i in range(m - 1, -1, -1):
        twice[i] = twice[i + 1] | (once[i + 1] & rows[i])
        once[i] = once[i + 1] | rows[i]
    pairs = []
    for i, r in enumerate(rows):
        row_bits = bits(r)
        options = [a | b for k, a in enumerate(row_bits) for b in row_bits[k + 1:]]
        pairs.append([p for p in options if p & row_bits[0]] if i == 0 else options)
    chosen = [0] * m
    total = 0

    def extend(i: int, need2: int, need1: int) -> None:
        nonlocal total
        if need2 & ~twice[i] or need1 & ~once[i]:
            return
        open_digits = need2 | need1
        for p in pairs[i]:
            if p & open_digits != p:
                continue
            chosen[i] = p
            if i == m - 1:
                rest = [r ^ a for r, a in zip(rows, chosen)]
                total += 1 << (cycle_count(chosen, n_cols) + cycle_count(rest, n_cols))
            else:
                from_two = p & need2
                extend(i + 1, need2 ^ from_two, (need1 & ~p) | from_two)

    extend(0, (1 << n_cols) - 1, 0)
    return 2 * total


class Factorizations:
    """F(G) for regular bipartite graphs, remembered per isomorphism class above degree 4."""

    def __init__(self) -> None:
        self.memo: dict[tuple, int] = {}

    def __call__(self, rows: Sequence[int], n_cols: int) -> int:
        """The number of ordered 1-factorizations of a regular graph.

        >>> Factorizations()((0b11111,) * 5, 5)         # K5,5: the Latin squares of order 5
        161280
        """
        k = degree(rows)
        if k <= 1:
            return 1
        if k == 2:
            return 1 << cycle_count(rows, n_cols)
        if k == 3:
            return factorizations_3(rows, n_cols)
        if k == 4:
            return factorizations_4(rows, n_cols)
        key = canonical_form(rows, n_cols)
        if key not in self.memo:
            self.memo[key] = sum(self(tuple(r ^ b for r, b in zip(rows, m)), n_cols)
                                 for m in perfect_matchings(rows))
        return self.memo[key]
