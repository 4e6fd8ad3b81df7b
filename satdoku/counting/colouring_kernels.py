"""Compiled kernels for counting partial edge colourings of band graphs (numba when installed).

A state is a partial colouring up to relabelling colours: for each of the c colours, the mask of
digits that already have it (its column), the c columns sorted and packed into one int64 with the
largest column most significant. A row step colours the edges of one row (a set of c digits) with
the c colours, one each, never giving a digit a colour twice; weights are summed per state in an
open-addressing hash table. Without numba the same functions run as plain Python (slowly).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

try:
    import numba
    COMPILED = True
except ImportError:                      # pragma: no cover - exercised only without numba
    numba = None
    COMPILED = False


def njit(cache: bool = True) -> Callable[[Callable], Callable]:
    """numba.njit, caching the machine code on disk where numba finds a place to write it.

    Without numba the function is returned as it is and runs as plain Python.
    """
    def compile_(function: Callable) -> Callable:
        if numba is None:
            return function
        try:
            return numba.njit(cache=cache)(function)
        except RuntimeError:             # no writable cache location: compile on every run
            return numba.njit(function)
    return compile_

EMPTY = -1


@njit(cache=True)
def _slot(key: int, mask: int) -> int:
    """The first slot to probe for a key in a table of mask + 1 slots."""
    mixed = key ^ (key >> 21) ^ (key >> 37)
    return ((mixed * 0x5BD1E995) >> 11) & mask


@njit(cache=True)
def _grow(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The table rehashed into twice as many slots."""
    size = 2 * len(keys)
    new_keys = np.full(size, EMPTY, np.int64)
    new_values = np.zeros(size, np.int64)
    mask = size - 1
    for i in range(len(keys)):
        key = keys[i]
        if key != EMPTY:
            slot = _slot(key, mask)
            while new_keys[slot] != EMPTY:
                slot = (slot + 1) & mask
            new_keys[slot] = key
            new_values[slot] = values[i]
    return new_keys, new_values


@njit(cache=True)
def _pack(columns: np.ndarray, c: int, n: int) -> int:
    """Sort the columns (largest first) in place and pack them into one key."""
    for i in range(1, c):
        value = columns[i]
        j = i - 1
        while j >= 0 and columns[j] < value:
            columns[j + 1] = columns[j]
            j -= 1
        columns[j + 1] = value
    key = 0
    for i in range(c):
        key = (key << n) | columns[i]
    return key


@njit(cache=True)
def _unpack(key: int, columns: np.ndarray, c: int, n: int) -> None:
    """The columns of a packed key, largest first."""
    full = (1 << n) - 1
    for i in range(c - 1, -1, -1):
        columns[i] = key & full
        key >>= n


@njit(cache=True)
def _next_matching(options: np.ndarray, size: int, left: np.ndarray, used: np.ndarray,
                   chosen: np.ndarray, level: int, start: int) -> int:
    """Walk on, depth first, to the next choice of one distinct bit per position from `start` on.

    options[i] holds position i's candidate bits, left[i] those not yet tried, used[i] the bits
    taken before position i. Returns size - 1 with chosen[] complete, or start - 1 when done.
    """
    while level >= start:
        if left[level] == 0:
            level -= 1
            continue
        bit = left[level] & -left[level]
        left[level] ^= bit
        chosen[level] = bit
        if level == size - 1:
            return level
        used[level + 1] = used[level] | bit
        level += 1
        left[level] = options[level] & ~used[level]
    return level


@njit(cache=True)
def row_step(keys: np.ndarray, values: np.ndarray, row: int, c: int,
             n: int) -> tuple[np.ndarray, np.ndarray]:
    """The states and weights after colouring one more row, from those before it."""
    size = 1024
    while size < 2 * len(keys):
        size *= 2
    table_keys = np.full(size, EMPTY, np.int64)
    table_values = np.zeros(size, np.int64)
    filled = 0
    columns = np.empty(c, np.int64)
    allowed = np.empty(c, np.int64)
    chosen = np.empty(c, np.int64)
    left = np.empty(c, np.int64)
    used = np.zeros(c + 1, np.int64)
    grown = np.empty(c, np.int64)
    for i in range(len(keys)):
        weight = values[i]
        _unpack(keys[i], columns, c, n)
        for j in range(c):
            allowed[j] = row & ~columns[j]
        left[0] = allowed[0]
        level = 0
        while True:
            level = _next_matching(allowed, c, left, used, chosen, level, 0)
            if level < 0:
                break
            for j in range(c):
                grown[j] = columns[j] | chosen[j]
            key = _pack(grown, c, n)
            mask = size - 1
            slot = _slot(key, mask)
            while table_keys[slot] != EMPTY and table_keys[slot] != key:
                slot = (slot + 1) & mask
            if table_keys[slot] == EMPTY:
                table_keys[slot] = key
                filled += 1
            table_values[slot] += weight
            if 2 * filled > size:
                table_keys, table_values = _grow(table_keys, table_values)
                size *= 2
    out_keys = np.empty(filled, np.int64)
    out_values = np.empty(filled, np.int64)
    k = 0
    for slot in range(size):
        if table_keys[slot] != EMPTY:
            out_keys[k] = table_keys[slot]
            out_values[k] = table_values[slot]
            k += 1
    return out_keys, out_values


@njit(cache=True)
def orbit_sizes(keys: np.ndarray, c: int, n: int) -> np.ndarray:
    """For each state, how many labelled states its orbit holds: c! over each run of equal columns' factorial."""
    columns = np.empty(c, np.int64)
    sizes = np.empty(len(keys), np.int64)
    factorial = 1
    for i in range(2, c + 1):
        factorial *= i
    for i in range(len(keys)):
        _unpack(keys[i], columns, c, n)
        size = factorial
        run = 1
        for j in range(1, c):
            if columns[j] == columns[j - 1]:
                run += 1
                size //= run
            else:
                run = 1
        sizes[i] = size
    return sizes


@njit(cache=True)
def join(back_keys: np.ndarray, back_values: np.ndarray, relabel: np.ndarray,
         front_keys: np.ndarray, front_each: np.ndarray, c: int, n: int) -> tuple[int, float]:
    """Sum over back states W of weight(W) * front(complement of W relabelled); also as a float.

    front_keys is sorted; front_each[i] is the colourings count of one labelled state of that
    orbit. The float sum lets the caller detect int64 overflow.
    """
    full = (1 << n) - 1
    columns = np.empty(c, np.int64)
    total = 0
    approx = 0.0
    for i in range(len(back_keys)):
        _unpack(back_keys[i], columns, c, n)
        for j in range(c):
            columns[j] = relabel[columns[j]] ^ full
        key = _pack(columns, c, n)
        at = np.searchsorted(front_keys, key)
        if at < len(front_keys) and front_keys[at] == key:
            total += back_values[i] * front_each[at]
            approx += float(back_values[i]) * float(front_each[at])
    return total, approx


@njit(cache=True)
def _cycles(rest: np.ndarray, n: int) -> int:
    """The cycles of a 2-regular bipartite graph given as n column masks of two digits each."""
    first = np.full(n, -1, np.int64)
    second = np.full(n, -1, np.int64)
    for j in range(n):
        mask = rest[j]
        while mask:
            bit = mask & -mask
            mask ^= bit
            d = 0
            while (1 << d) != bit:
                d += 1
            if first[d] < 0:
                first[d] = j
            else:
                second[d] = j
    seen = np.zeros(n, np.bool_)
    cycles = 0
    for start in range(n):
        if seen[start]:
            continue
        cycles += 1
        column, came = start, 0
        while not seen[column]:
            seen[column] = True
            mask = rest[column]
            bit = mask & -mask
            if bit == came:
                bit = mask ^ bit
            d = 0
            while (1 << d) != bit:
                d += 1
            column = second[d] if first[d] == column else first[d]
            came = bit
    return cycles


@njit(cache=True)
def band_fillings(columns: np.ndarray, n: int, k: int) -> int:
    """Proper k-edge-colourings (k = 1, 2 or 3) of a k-regular bipartite graph of n column masks.

    k = 3 peels the perfect matchings through the first edge (colour 1, times 3 by symmetry) and
    counts each 2-regular rest as 2 ** cycles.
    """
    if k == 1:
        return 1
    if k == 2:
        return 1 << _cycles(columns, n)
    chosen = np.zeros(n, np.int64)
    left = np.zeros(n, np.int64)
    used = np.zeros(n + 1, np.int64)
    rest = np.empty(n, np.int64)
    total = 0
    chosen[0] = columns[0] & -columns[0]
    used[1] = chosen[0]
    left[1] = columns[1] & ~used[1]
    level = 1
    while True:
        level = _next_matching(columns, n, left, used, chosen, level, 1)
        if level < 1:
            break
        for j in range(n):
            rest[j] = columns[j] ^ chosen[j]
        total += 1 << _cycles(rest, n)
    return 3 * total


@njit(cache=True)
def two_band_completions(second: np.ndarray, third: np.ndarray, counts: np.ndarray, r: int,
                         table_keys: np.ndarray, class_of: np.ndarray, fillings: np.ndarray) -> int:
    """Sum over one option per stack of N(band 2's profile) * N(band 3's profile).

    second[s, i, d] is the column (0, 1, 2) of digit d in band 2 when stack s takes its option i,
    third likewise for band 3; counts[s] is how many options stack s has. A profile is looked up
    by its table key (2 bits per cell of [3]^r, the count of digits there) in the sorted
    table_keys, whose class_of gives the class and fillings[class] its N.
    """
    n = second.shape[2]
    pick = np.zeros(r, np.int64)
    total = 0
    while True:
        key2 = 0
        key3 = 0
        for d in range(n):
            cell2 = 0
            cell3 = 0
            for s in range(r):
                cell2 = 3 * cell2 + second[s, pick[s], d]
                cell3 = 3 * cell3 + third[s, pick[s], d]
            key2 += 1 << (2 * cell2)
            key3 += 1 << (2 * cell3)
        at2 = np.searchsorted(table_keys, key2)
        at3 = np.searchsorted(table_keys, key3)
        total += fillings[class_of[at2]] * fillings[class_of[at3]]
        s = r - 1
        while s >= 0:
            pick[s] += 1
            if pick[s] < counts[s]:
                break
            pick[s] = 0
            s -= 1
        if s < 0:
            return total
