"""Reference: grids with 2 x c boxes counted by a band DP over digit types (the colour-set method).

Boxes 2 x c: n = 2c digits, c bands of two rows, two stacks of c columns. Write P_t[x, b] for the
column within stack t ("colour") of digit x in band b. Each digit takes every colour once per stack
over the c bands, each colour is taken by exactly two digits per band and stack, and the band's two
rows split the digits into S_b and its complement, each side holding every colour once in each
stack. Given band b's colours, the digits sharing a stack-1 colour and those sharing a stack-2
colour form two perfect matchings whose union has `k` cycles, and S_b can be chosen in 2^k ways:

    grids(2 x c) = sum over (P_1, P_2) of prod_b 2^cycles(band b).

A digit's *type* is (U1, U2), the colours it used so far in stacks 1 and 2. Digits are symmetric,
so a state is a multiset of types, taken up to renaming the colours of each stack (S_c x S_c).
`forward` pushes orbit sums band by band (the sum, over every labelled state of an orbit, of the
weighted number of ways to reach it); the last bands are read backwards, since completing a state
V is reaching the complement of V from the start, so

    grids = sum over orbits O at level m of F_m(O) * F_{c-m}(complement O) / |complement O|.

Exact for every c, and independent of the package's count (satdoku.counting.two_row_split, which
sums F(G)^2 over band-split classes): tests/test_grids.py and benchmarks/bench_grids.py check one
against the other for c <= 4; it ships in neither the package nor the `grids` command. It does
not make 2x5 feasible: from the 7 one-band orbits, bands 1 -> 2 alone walk 1.3e9 labelled band
pairs (about half an hour here), and bands 2 -> 3 tens of thousands of orbits with ~8e5 pairs each.
"""
from __future__ import annotations

from itertools import permutations
from math import factorial

from satdoku.counting.grids import Progress

Type = int                    # (U1 << c) | U2
State = tuple[Type, ...]      # sorted, one type per digit


def perm_tables(c: int) -> list[list[int]]:
    """For each permutation of the c colours, the image of every colour mask.

    >>> perm_tables(2)
    [[0, 1, 2, 3], [0, 2, 1, 3]]
    """
    tables = []
    for perm in permutations(range(c)):
        tables.append([sum(1 << perm[i] for i in range(c) if mask >> i & 1) for mask in range(1 << c)])
    return tables


class Canon:
    """Canonical forms and colour-stabilizer sizes of states under S_c x S_c."""

    def __init__(self, c: int) -> None:
        self.c, self.tables, self.memo = c, perm_tables(c), {}

    def __call__(self, state: State) -> tuple[State, int]:
        """The least relabelled image of a state and the number of relabellings reaching it.

        >>> Canon(2)(((1 << 2) | 2, (2 << 2) | 1))
        ((5, 10), 2)
        """
        if state in self.memo:
            return self.memo[state]
        c, low = self.c, (1 << self.c) - 1
        firsts, seconds = [t >> c for t in state], [t & low for t in state]
        best, hits = None, 0
        for t1 in self._least_first(firsts):
            mapped = [t1[u] << c for u in firsts]
            for t2 in self.tables:
                key = tuple(sorted([m | t2[v] for m, v in zip(mapped, seconds)]))
                if best is None or key < best:
                    best, hits = key, 1
                elif key == best:
                    hits += 1
        self.memo[state] = (best, hits)
        return best, hits

    def _least_first(self, firsts: list[int]) -> list[list[int]]:
        """The stack-1 relabellings giving the least sorted stack-1 masks: a key's high bits."""
        best, chosen = None, []
        for t1 in self.tables:
            key = sorted(t1[u] for u in firsts)
            if best is None or key < best:
                best, chosen = key, [t1]
            elif key == best:
                chosen.append(t1)
        return chosen


def colourings(used: list[int], c: int) -> list[tuple[int, ...]]:
    """Every way to give each digit a colour outside its used mask, each colour to exactly two digits.

    >>> colourings([0, 0], 1)
    [(0, 0)]
    >>> len(colourings([0] * 4, 2))
    6
    """
    n, counts, chosen, out = len(used), [0] * c, [0] * len(used), []

    def extend(i: int) -> None:
        if i == n:
            out.append(tuple(chosen))
            return
        for colour in range(c):
            if counts[colour] < 2 and not used[i] >> colour & 1:
                counts[colour] += 1
                chosen[i] = colour
                extend(i + 1)
                counts[colour] -= 1

    extend(0)
    return out


def partners(colouring: tuple[int, ...]) -> tuple[int, ...]:
    """For each digit, the other digit given the same colour (the band's matching in one stack).

    >>> partners((1, 0, 0, 1))
    (3, 2, 1, 0)
    """
    first: dict[int, int] = {}
    out = [0] * len(colouring)
    for digit, colour in enumerate(colouring):
        if colour in first:
            out[digit], out[first[colour]] = first[colour], digit
        else:
            first[colour] = digit
    return tuple(out)


def matching_cycles(first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """Cycles of the union of two perfect matchings given as partner tuples (a shared pair is one).

    >>> matching_cycles((1, 0, 3, 2), (1, 0, 3, 2)), matching_cycles((1, 0, 3, 2), (2, 3, 0, 1))
    (2, 1)
    """
    seen = [False] * len(first)
    cycles = 0
    for start in range(len(first)):
        if seen[start]:
            continue
        cycles += 1
        digit = start
        while not seen[digit]:
            seen[digit] = seen[first[digit]] = True
            digit = second[first[digit]]
    return cycles


def successors(state: State, c: int, limit: int | None = None) -> dict[State, int]:
    """Every labelled state one band on (as a sorted multiset) with its summed weight 2^cycles.

    With a limit, only the first `limit` stack-1 colourings are tried (for timing samples).
    """
    low = (1 << c) - 1
    firsts = colourings([t >> c for t in state], c)
    seconds = [(b, partners(b)) for b in colourings([t & low for t in state], c)]
    weights: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    out: dict[State, int] = {}
    for a in firsts[:limit]:
        grown = [t | 1 << (c + x) for t, x in zip(state, a)]
        pa = partners(a)
        for b, pb in seconds:
            pair = (pa, pb)
            weight = weights.get(pair)
            if weight is None:
                weight = weights[pair] = 1 << matching_cycles(pa, pb)
            key = tuple(sorted([g | 1 << y for g, y in zip(grown, b)]))
            out[key] = out.get(key, 0) + weight
    return out


def partitions(total: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """The partitions of a number, parts in decreasing order.

    >>> partitions(4)
    [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    """
    largest = total if largest is None else largest
    if total == 0:
        return [()]
    return [(part,) + rest for part in range(min(total, largest), 0, -1) for rest in partitions(total - part, part)]


def cycle_state(parts: tuple[int, ...], c: int) -> State:
    """A one-band state whose band graph has a cycle through 2k colours for each part k.

    >>> cycle_state((1, 1), 2)      # two doubled edges: digits 0, 1 on colours (0, 0), 2, 3 on (1, 1)
    (5, 5, 10, 10)
    """
    types, start = [], 0
    for k in parts:
        for i in range(k):
            a, b, b_next = start + i, start + i, start + (i + 1) % k
            types += [1 << (c + a) | 1 << b, 1 << (c + a) | 1 << b_next]
        start += k
    return tuple(sorted(types))


def first_band(c: int, canon: Canon) -> dict[State, int]:
    """F_1 without enumerating the (n!/2^c)^2 labelled bands: one orbit per cycle type of the band
    graph, every labelled state in it reached once with weight 2^cycles."""
    return {canon(state)[0]: orbit_size(state, canon) << len(parts)
            for parts in partitions(c) for state in [cycle_state(parts, c)]}


def transition_pairs(state: State, c: int) -> int:
    """How many (stack-1, stack-2) band colourings `successors` walks through from a state.

    >>> transition_pairs(cycle_state((1, 1), 2), 2)
    1
    """
    low = (1 << c) - 1
    return len(colourings([t >> c for t in state], c)) * len(colourings([t & low for t in state], c))


def forward(c: int, levels: int, progress: Progress | None = None) -> list[dict[State, int]]:
    """Orbit sums F_k for k = 0..levels: canonical state -> weighted ways to reach its orbit."""
    canon = Canon(c)
    layers = [{(0,) * (2 * c): 1}]
    if levels >= 1:
        layers.append(first_band(c, canon))
    for level in range(2, levels + 1):
        following: dict[State, int] = {}
        for done, (state, total) in enumerate(layers[-1].items()):
            if progress:
                progress(f"band {level}", done, len(layers[-1]))
            for successor, weight in successors(state, c).items():
                key = canon(successor)[0]
                following[key] = following.get(key, 0) + total * weight
        layers.append(following)
    return layers


def orbit_size(state: State, canon: Canon) -> int:
    """The number of labelled states (digits and colours named) in the orbit of a state.

    >>> orbit_size((5, 5, 10, 10), Canon(2))     # which two digits share colour 0, and its partner
    12
    """
    c = canon.c
    digits = factorial(len(state))
    for t in set(state):
        digits //= factorial(state.count(t))
    return digits * factorial(c) ** 2 // canon(state)[1]


def complement(state: State, c: int) -> State:
    """Each digit's unused colours.

    >>> complement((5, 10), 2)
    (5, 10)
    """
    full = (1 << 2 * c) - 1
    return tuple(sorted(full ^ t for t in state))


def count_two_row_grids_dp(c: int, progress: Progress | None = None) -> tuple[int, int]:
    """Grids with 2 x c boxes by the band DP, and the number of middle states summed over.

    >>> count_two_row_grids_dp(1), count_two_row_grids_dp(2)
    ((2, 1), (288, 2))
    """
    middle = (c + 1) // 2
    layers = forward(c, middle, progress)
    canon = Canon(c)
    total = 0
    for state, reached in layers[middle].items():
        rest = canon(complement(state, c))[0]
        completions, size = layers[c - middle].get(rest, 0), orbit_size(rest, canon)
        assert completions % size == 0, "an orbit sum is a multiple of its orbit size"
        total += reached * (completions // size)
    return total, len(layers[middle])
