"""Pictures of puzzles as SVG: the grid, region borders, the rules' marks and the digits.

Pure string building, no drawing library. A picture shows thin cell lines, thick borders wherever two
neighbouring cells lie in different boxes or jigsaw regions (and round the grid), both diagonals as
light lines when the rules have them, shaded windoku windows and extra regions (each extra region its
own light colour), a small dot per cell coloured by its position in the box for disjoint groups,
thermometers (a grey bulb and a thick grey line to the tip, under the digits), arrows (a grey circle
and a thin grey line through the arrow's cells to an open arrowhead, under the digits), killer cages (a
dashed outline just inside the cage's boundary, its total small in the top-left corner of its first
cell), kropki dots and X and V letters on the edge between their two cells, and a legend naming every
rule (anti-knight, anti-king, non-consecutive and the negative rules have nothing to draw). Givens are bold black, solved digits
blue; digits are written in the puzzle's alphabet.

>>> from satdoku.models.puzzle import Puzzle
>>> from satdoku.models.geometry import Geometry
>>> svg = puzzle_svg(Puzzle(Geometry(2, 2), (1,) + (0,) * 15), title="4x4 & co")
>>> svg.startswith("<?xml") and "4x4 &amp; co" in svg and svg.count("<svg") == 1
True
"""
from __future__ import annotations

import colorsys
import math
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from satdoku.models.geometry import Geometry, plural, windows
from satdoku.models.puzzle import Grid, Puzzle

GIVEN_COLOUR = "#000000"
SOLVED_COLOUR = "#1f5fbf"
THIN_COLOUR = "#a0a0a0"
THICK_COLOUR = "#000000"
DIAGONAL_COLOUR = "#a9c1e3"
WINDOW_COLOUR = "#d3e5f8"
EXTRA_COLOURS = ("#fde0b6", "#d6f0c6", "#f6d2e7", "#e4daf8", "#fbf3a6", "#c9eeee")
BACKGROUND = "#ffffff"
THERMO_COLOUR = "#c8c8c8"
ARROW_COLOUR = "#8c8c8c"
CAGE_COLOUR = "#000000"
MARK_COLOUR = "#000000"
TEXT_COLOUR = "#202020"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

PAD = 14
TITLE_SIZE = 14
LEGEND_SIZE = 11
MIN_INNER_WIDTH = 200
CHAR_WIDTH = 0.6  # average glyph width per font size, for wrapping

RULE_NAMES = {"diagonal-": "main diagonal", "diagonal+": "anti-diagonal", "windoku": "windoku windows (shaded)",
              "disjointgroups": "disjoint groups (dot colour = position in box)", "antiknight": "anti-knight",
              "antiking": "anti-king", "nonconsecutive": "non-consecutive",
              "negative-difference": "all white dots given", "negative-ratio": "all black dots given",
              "negative-xv": "all X and V given"}
MARK_NAMES = {"white": "white dots: differ by 1", "black": "black dots: ratio 2", "x": "X: sum 10", "v": "V: sum 5"}

SheetItem = tuple[Puzzle, Grid | None, str | None]

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class Panel:
    """One puzzle's picture: SVG elements drawn from the origin, the size they take, and where the
    grid's top-left corner lies and how large its cells are (for placing things, and for tests)."""

    body: str
    width: float
    height: float
    grid_x: float = 0.0
    grid_y: float = 0.0
    cell: int = 0


def xml_text(text: str) -> str:
    """Text made safe for XML content or a quoted attribute, in ASCII (others as character references).

    >>> xml_text('a<b & "c" \u00e9\x01')
    'a&lt;b &amp; &quot;c&quot; &#233;&#65533;'
    """
    text = _NOT_XML.sub("\ufffd", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def num(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros.

    >>> num(3.0), num(2.505), num(-0.25)
    ('3', '2.5', '-0.25')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def cell_size(n: int) -> int:
    """Pixels per cell: 36 up to 16x16, smaller for larger grids, never below 16.

    >>> cell_size(9), cell_size(25), cell_size(64)
    (36, 23, 16)
    """
    return max(16, min(36, 576 // n))


def thick_width(cell: float) -> float:
    """Stroke width of region borders and the outer border.

    >>> thick_width(36), thick_width(16)
    (3.0, 2.0)
    """
    return max(2.0, cell / 12)


def symbol(value: int, alphabet: str | None) -> str:
    """A digit as the puzzle writes it: its alphabet's symbol, or the integer.

    >>> symbol(10, "123456789ABCDEFG"), symbol(12, None), symbol(0, None)
    ('A', '12', '')
    """
    if not value:
        return ""
    return alphabet[value - 1] if alphabet and value <= len(alphabet) else str(value)


def region_owner(g: Geometry) -> list[int]:
    """For each cell, the index of its box or jigsaw region.

    >>> region_owner(Geometry(1, 2))
    [0, 0, 1, 1]
    """
    owner = [0] * g.n_cells
    for k, box in enumerate(g.boxes):
        for cell in box:
            owner[cell] = k
    return owner


def _merged(segments: Iterable[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Unit segments (line, start) on each line joined into runs (line, start, end).

    >>> _merged([(1, 0), (1, 1), (1, 3)])
    [(1, 0, 2), (1, 3, 4)]
    """
    runs: list[tuple[int, int, int]] = []
    for line, start in sorted(segments):
        if runs and runs[-1][0] == line and runs[-1][2] == start:
            runs[-1] = (line, runs[-1][1], start + 1)
        else:
            runs.append((line, start, start + 1))
    return runs


def border_runs(g: Geometry) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """The inner borders between different regions, in cell units: vertical runs (x, y0, y1) and
    horizontal runs (y, x0, x1).

    >>> border_runs(Geometry(2, 2))
    ([(2, 0, 4)], [(2, 0, 4)])
    """
    n, owner = g.n, region_owner(g)
    vertical = [(c + 1, r) for r in range(n) for c in range(n - 1) if owner[r * n + c] != owner[r * n + c + 1]]
    horizontal = [(r + 1, c) for r in range(n - 1) for c in range(n) if owner[r * n + c] != owner[(r + 1) * n + c]]
    return _merged(vertical), _merged(horizontal)


def shaded_cells(g: Geometry) -> dict[int, list[str]]:
    """Each shaded cell's colours: windoku windows, then each extra region in its own colour."""
    shades: dict[int, list[str]] = {}
    groups: list[tuple[tuple[int, ...], str]] = []
    if "windoku" in g.rules:
        groups += [(cells, WINDOW_COLOUR) for cells in windows(g.n, g.box_rows, g.box_cols)]
    groups += [(cells, EXTRA_COLOURS[k % len(EXTRA_COLOURS)]) for k, cells in enumerate(g.extra_regions)]
    for cells, colour in groups:
        for cell in cells:
            shades.setdefault(cell, []).append(colour)
    return shades


def position_colour(k: int, n: int) -> str:
    """A distinct mid-tone colour for position k of n in a box (disjoint groups).

    >>> position_colour(0, 9)
    '#d63838'
    """
    red, green, blue = colorsys.hls_to_rgb(k / n, 0.53, 0.66)
    return "#" + "".join(f"{round(255 * part):02x}" for part in (red, green, blue))


def legend_text(g: Geometry) -> str:
    """The rules in words, boxes or jigsaw regions first.

    >>> legend_text(Geometry(3, 3).with_rules(("x", "antiknight")))
    'Rules: 3x3 boxes, diagonals (X), anti-knight'
    >>> legend_text(Geometry(2, 2).with_rules(("negative-difference", "negative-ratio")))
    'Rules: 2x2 boxes, all kropki dots given'
    """
    items = ["jigsaw regions" if g.regions is not None else f"{g.box_rows}x{g.box_cols} boxes"]
    rules = list(g.rules)
    for pair, words in ((("diagonal-", "diagonal+"), "diagonals (X)"),
                        (("negative-difference", "negative-ratio"), "all kropki dots given")):
        if all(rule in rules for rule in pair):
            rules[rules.index(pair[0])] = words
            rules.remove(pair[1])
    items += [RULE_NAMES.get(rule, rule) for rule in rules]
    if g.extra_regions:
        count = len(g.extra_regions)
        items.append(f"{count} extra region{'s' if count > 1 else ''} (shaded)")
    return "Rules: " + ", ".join(items + mark_legend(g))


def mark_legend(g: Geometry) -> list[str]:
    """The marks, thermometers, killer cages and arrows a grid has, in words, for the legend.

    >>> mark_legend(Geometry(2, 2).with_marks((("x", 0, 1), ("white", 2, 3)), ((0, 4),)))
    ['1 thermometer', 'white dots: differ by 1', 'X: sum 10']
    >>> mark_legend(Geometry(2, 2).with_sums((((0, 1), 3), ((2,), None)), ((4, (5, 6)),)))
    ['2 killer cages', '1 arrow']
    """
    items = []
    if g.thermometers:
        count = len(g.thermometers)
        items.append(f"{count} thermometer{'s' if count > 1 else ''}")
    if g.cages:
        items.append(plural(len(g.cages), "killer cage"))
    if g.arrows:
        items.append(plural(len(g.arrows), "arrow"))
    kinds = {kind for kind, _, _ in g.marks}
    return items + [words for kind, words in MARK_NAMES.items() if kind in kinds]


def wrapped(text: str, width: float, size: float) -> list[str]:
    """Text broken into lines that fit `width` pixels at font `size` (long words broken too).

    >>> wrapped("one anti-king three", 80, 10)
    ['one anti-king', 'three']
    """
    return textwrap.wrap(text, max(4, int(width / (CHAR_WIDTH * size))), break_on_hyphens=False) or [""]


def _cell_backgrounds(g: Geometry, cell: float) -> list[str]:
    """White cells, shaded cells over them (a cell in several shaded regions gets stripes)."""
    n = g.n
    out = [f'<rect width="{num(n * cell)}" height="{num(n * cell)}" fill="{BACKGROUND}"/>']
    for index, colours in sorted(shaded_cells(g).items()):
        x, y = (index % n) * cell, (index // n) * cell
        stripe = cell / len(colours)
        for k, colour in enumerate(colours):
            out.append(f'<rect x="{num(x + k * stripe)}" y="{num(y)}" width="{num(stripe)}" '
                       f'height="{num(cell)}" fill="{colour}"/>')
    return out


def _group_dots(g: Geometry, cell: float) -> list[str]:
    """Disjoint groups: a small dot in each cell's corner, its colour the cell's position in its box."""
    if "disjointgroups" not in g.rules:
        return []
    n, radius = g.n, cell * 0.08
    out = []
    for box in g.boxes:
        for k, index in enumerate(box):
            cx, cy = (index % n + 0.17) * cell, (index // n + 0.17) * cell
            out.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(radius)}" fill="{position_colour(k, n)}"/>')
    return out


def _diagonals(g: Geometry, cell: float) -> list[str]:
    """The diagonals the rules have, as light lines corner to corner."""
    side, width = g.n * cell, num(max(1.5, cell / 14))
    out = []
    if "diagonal-" in g.rules:
        out.append(f'<line x1="0" y1="0" x2="{num(side)}" y2="{num(side)}" stroke="{DIAGONAL_COLOUR}" '
                   f'stroke-width="{width}"/>')
    if "diagonal+" in g.rules:
        out.append(f'<line x1="0" y1="{num(side)}" x2="{num(side)}" y2="0" stroke="{DIAGONAL_COLOUR}" '
                   f'stroke-width="{width}"/>')
    return out


def _grid_lines(g: Geometry, cell: float) -> list[str]:
    """Thin lines between all cells, thick borders between regions, the thick outer border."""
    n, side = g.n, g.n * cell
    thin = "".join(f"M{num(k * cell)} 0V{num(side)}M0 {num(k * cell)}H{num(side)}" for k in range(1, n))
    vertical, horizontal = border_runs(g)
    thick = "".join(f"M{num(x * cell)} {num(y0 * cell)}V{num(y1 * cell)}" for x, y0, y1 in vertical)
    thick += "".join(f"M{num(x0 * cell)} {num(y * cell)}H{num(x1 * cell)}" for y, x0, x1 in horizontal)
    width = num(thick_width(cell))
    out = [f'<path d="{thin}" stroke="{THIN_COLOUR}" stroke-width="1" fill="none"/>'] if thin else []
    if thick:
        out.append(f'<path d="{thick}" stroke="{THICK_COLOUR}" stroke-width="{width}" fill="none" '
                   f'stroke-linecap="square"/>')
    out.append(f'<rect width="{num(side)}" height="{num(side)}" fill="none" stroke="{THICK_COLOUR}" '
               f'stroke-width="{width}"/>')
    return out


def cell_centre(index: int, n: int, cell: float) -> tuple[float, float]:
    """The centre of a cell, in pixels from the grid's top-left corner.

    >>> cell_centre(5, 4, 36)
    (54.0, 54.0)
    """
    return (index % n + 0.5) * cell, (index // n + 0.5) * cell


def mark_centre(a: int, b: int, n: int, cell: float) -> tuple[float, float]:
    """Where a mark between two cells goes: halfway between their centres (the shared edge's middle
    for cells side by side).

    >>> mark_centre(0, 1, 9, 36), mark_centre(0, 10, 9, 36)
    ((36.0, 18.0), (36.0, 36.0))
    """
    (xa, ya), (xb, yb) = cell_centre(a, n, cell), cell_centre(b, n, cell)
    return (xa + xb) / 2, (ya + yb) / 2


def _thermometers(g: Geometry, cell: float) -> list[str]:
    """Each thermometer: a grey bulb in its first cell and a thick rounded grey line to its tip."""
    out = []
    for line in g.thermometers:
        points = [cell_centre(index, g.n, cell) for index in line]
        path = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points)
        out.append(f'<path d="{path}" stroke="{THERMO_COLOUR}" stroke-width="{num(cell * 0.3)}" fill="none" '
                   f'stroke-linecap="round" stroke-linejoin="round"/>')
        x, y = points[0]
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(cell * 0.36)}" fill="{THERMO_COLOUR}"/>')
    return out


def toward(start: tuple[float, float], end: tuple[float, float], distance: float) -> tuple[float, float]:
    """The point `distance` from `start` on the way to `end`.

    >>> toward((0, 0), (30, 40), 10)
    (6.0, 8.0)
    """
    length = math.dist(start, end) or 1.0
    return (start[0] + (end[0] - start[0]) * distance / length, start[1] + (end[1] - start[1]) * distance / length)


def arrowhead(tail: tuple[float, float], tip: tuple[float, float], size: float) -> str:
    """Path data of an open chevron with its point at `tip`, pointing away from `tail`.

    >>> arrowhead((0, 0), (10, 0), 5)
    'M6.46 -3.54L10 0L6.46 3.54'
    """
    (bx, by), (x, y) = toward(tip, tail, size * math.sqrt(0.5)), tip
    dx, dy = (bx - x, by - y)
    return f"M{num(bx - dy)} {num(by + dx)}L{num(x)} {num(y)}L{num(bx + dy)} {num(by - dx)}"


def _arrows(g: Geometry, cell: float) -> list[str]:
    """Each arrow: a grey circle in its circle cell and a thin grey line from the circle's edge through its
    cells' centres to an open arrowhead at the last one."""
    out, radius, width = [], cell * 0.38, num(max(1.5, cell / 18))
    for circle, line in g.arrows:
        centre = cell_centre(circle, g.n, cell)
        points = [cell_centre(index, g.n, cell) for index in line]
        start = toward(centre, points[0], radius)
        path = f"M{num(start[0])} {num(start[1])}" + "".join(f"L{num(x)} {num(y)}" for x, y in points)
        path += arrowhead(([start] + points)[-2], points[-1], cell * 0.3)
        out.append(f'<path d="{path}" stroke="{ARROW_COLOUR}" stroke-width="{width}" fill="none" '
                   f'stroke-linecap="round" stroke-linejoin="round"/>')
        out.append(f'<circle cx="{num(centre[0])}" cy="{num(centre[1])}" r="{num(radius)}" fill="none" '
                   f'stroke="{ARROW_COLOUR}" stroke-width="{width}"/>')
    return out


def cage_inset(cell: float) -> int:
    """How far a killer cage's dashed outline lies inside its cells, in whole pixels.

    >>> cage_inset(36), cage_inset(16)
    (4, 2)
    """
    return max(2, round(cell * 0.12))


Place = tuple[int, int]  # a coordinate as (grid lines, insets): grid lines * cell + insets * inset


def cage_sides(cells: Iterable[int], n: int) -> list[tuple[str, Place, Place, Place]]:
    """A cage's outline in grid lines and insets: horizontal ("h", y, x0, x1) and vertical ("v", x, y0, y1)
    runs, one per boundary side of each cell, each inset one step into its cell and lengthened or shortened
    by one step at either end so that neighbouring runs meet at convex and concave corners alike; then
    runs on one line that meet are joined.

    >>> cage_sides([0], 9)[:2]
    [('h', (0, 1), (0, 1), (1, -1)), ('h', (1, -1), (0, 1), (1, -1))]
    >>> cage_sides([0, 1, 10], 9)[:3]  # r1c1, r1c2, r2c2: r1c1's bottom reaches to r2c2's left side
    [('h', (0, 1), (0, 1), (2, -1)), ('h', (1, -1), (0, 1), (1, 1)), ('h', (2, -1), (1, 1), (2, -1))]
    """
    cage = set(cells)

    def inside(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and r * n + c in cage

    def end(r: int, c: int, side: tuple[int, int], along: tuple[int, int]) -> int:
        """The inset step at one end of a side: in at a convex corner, out at a concave one, else none."""
        if not inside(r + along[0], c + along[1]):
            return 1
        return -1 if inside(r + along[0] + side[0], c + along[1] + side[1]) else 0

    runs: list[tuple[str, Place, Place, Place]] = []
    for index in sorted(cage):
        r, c = divmod(index, n)
        for dr, inset in ((-1, 1), (1, -1)):  # top, bottom
            if not inside(r + dr, c):
                y = (r + (dr > 0), inset)
                runs.append(("h", y, (c, end(r, c, (dr, 0), (0, -1))), (c + 1, -end(r, c, (dr, 0), (0, 1)))))
        for dc, inset in ((-1, 1), (1, -1)):  # left, right
            if not inside(r, c + dc):
                x = (c + (dc > 0), inset)
                runs.append(("v", x, (r, end(r, c, (0, dc), (-1, 0))), (r + 1, -end(r, c, (0, dc), (1, 0)))))
    joined: list[tuple[str, Place, Place, Place]] = []
    for run in sorted(runs):
        if joined and joined[-1][:2] == run[:2] and joined[-1][3] == run[2]:
            joined[-1] = joined[-1][:3] + (run[3],)
        else:
            joined.append(run)
    return joined


def _cage_total(cells: Sequence[int], total: int, n: int, cell: float) -> str:
    """A cage's total, small, in the top-left corner of its first cell, on white over its outline."""
    size = cell * 0.28
    x, y = (min(cells) % n) * cell, (min(cells) // n) * cell
    text = str(total)
    width, height = len(text) * CHAR_WIDTH * size + 2, size * 0.75 + 3
    return (f'<rect x="{num(x + 1)}" y="{num(y + 1)}" width="{num(width)}" height="{num(height)}" '
            f'fill="{BACKGROUND}"/><text x="{num(x + 2)}" y="{num(y + 2 + size * 0.75)}" font-size="{num(size)}" '
            f'fill="{CAGE_COLOUR}">{text}</text>')


def _cages(g: Geometry, cell: float) -> list[str]:
    """Each killer cage: a dashed outline just inside its boundary, its total (if any) in its first cell."""
    out, inset = [], cage_inset(cell)

    def at(place: Place) -> str:
        return num(place[0] * cell + place[1] * inset)

    dashes = f"{num(cell * 0.1)} {num(cell * 0.07)}"
    for cells, total in g.cages:
        path = "".join(f"M{at(a)} {at(line)}H{at(b)}" if kind == "h" else f"M{at(line)} {at(a)}V{at(b)}"
                       for kind, line, a, b in cage_sides(cells, g.n))
        out.append(f'<path d="{path}" stroke="{CAGE_COLOUR}" stroke-width="1" stroke-dasharray="{dashes}" '
                   f'fill="none"/>')
        if total is not None:
            out.append(_cage_total(cells, total, g.n, cell))
    return out


def _kropki_dot(kind: str, x: float, y: float, cell: float) -> str:
    """A white dot (black ring) or a black dot centred at (x, y)."""
    fill = BACKGROUND if kind == "white" else MARK_COLOUR
    return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(cell * 0.14)}" fill="{fill}" stroke="{MARK_COLOUR}" '
            f'stroke-width="{num(max(1.0, cell / 24))}"/>')


def _xv_letter(kind: str, x: float, y: float, cell: float) -> str:
    """An X or V centred at (x, y), on a small white square so it reads over the grid lines."""
    size, half = cell * 0.4, cell * 0.2
    return (f'<rect x="{num(x - half)}" y="{num(y - half)}" width="{num(2 * half)}" height="{num(2 * half)}" '
            f'fill="{BACKGROUND}"/><text x="{num(x)}" y="{num(y + 0.36 * size)}" font-size="{num(size)}" '
            f'font-weight="bold" text-anchor="middle" fill="{MARK_COLOUR}">{kind.upper()}</text>')


def _marks(g: Geometry, cell: float) -> list[str]:
    """Kropki dots and X and V letters, each halfway between its two cells' centres."""
    out = []
    for kind, a, b in g.marks:
        x, y = mark_centre(a, b, g.n, cell)
        out.append(_kropki_dot(kind, x, y, cell) if kind in ("white", "black") else _xv_letter(kind, x, y, cell))
    return out


def digit_size(cell: float, n: int, alphabet: str | None) -> float:
    """Font size of the digits: one size for the whole grid, so the widest symbol fits its cell.

    >>> digit_size(36, 9, None), digit_size(16, 64, None), digit_size(16, 64, "x" * 64)
    (22.32, 7.2, 9.92)
    """
    widest = max(len(symbol(v, alphabet)) for v in range(1, n + 1))
    return round(min(cell * 0.62, cell * 0.9 / widest), 2)


def _digits(puzzle: Puzzle, grid: Sequence[int] | None, cell: float) -> list[str]:
    """Givens bold black, solved digits blue, each centred in its cell."""
    n, alphabet = puzzle.n, puzzle.alphabet
    values = grid if grid is not None else puzzle.cells
    size = digit_size(cell, n, alphabet)
    groups: dict[bool, list[str]] = {True: [], False: []}
    for index, value in enumerate(values):
        text = symbol(value, alphabet)
        if text:
            x, y = (index % n + 0.5) * cell, (index // n + 0.5) * cell + 0.36 * size
            groups[bool(puzzle.cells[index])].append(f'<text x="{num(x)}" y="{num(y)}">{xml_text(text)}</text>')
    out = []
    for given, colour, weight in ((True, GIVEN_COLOUR, "bold"), (False, SOLVED_COLOUR, "normal")):
        if groups[given]:
            out.append(f'<g fill="{colour}" font-weight="{weight}" font-size="{num(size)}" text-anchor="middle">'
                       + "".join(groups[given]) + "</g>")
    return out


def _text_lines(lines: Sequence[str], x: float, y: float, size: float, extra: str = "") -> tuple[str, float]:
    """Lines of text from baseline-top y; the elements and the height they take."""
    step = size * 1.3
    out = "".join(f'<text x="{num(x)}" y="{num(y + size + k * step)}" font-size="{num(size)}"{extra}>'
                  f"{xml_text(line)}</text>" for k, line in enumerate(lines))
    return out, step * len(lines)


def panel(puzzle: Puzzle, grid: Sequence[int] | None = None, title: str | None = None) -> Panel:
    """One puzzle's picture (its solution's when `grid` is given) with a title and the rules' legend."""
    g = puzzle.geometry
    cell = cell_size(g.n)
    side = g.n * cell
    inner = max(side, MIN_INNER_WIDTH)
    title_text = title if title is not None else (puzzle.source or f"{g.n}x{g.n} sudoku")
    top, title_height = _text_lines(wrapped(title_text, inner, TITLE_SIZE), PAD, PAD, TITLE_SIZE,
                                    f' font-weight="bold" fill="{TEXT_COLOUR}"')
    # whole pixels plus a half: 1-pixel cell lines then cover exactly one row of pixels
    grid_y = math.ceil(PAD + title_height + 6) + 0.5
    grid_x = PAD + (inner - side) // 2 + 0.5
    layers = _cell_backgrounds(g, cell) + _group_dots(g, cell) + _diagonals(g, cell) + _thermometers(g, cell)
    layers += _arrows(g, cell) + _cages(g, cell)
    layers += _grid_lines(g, cell) + _marks(g, cell) + _digits(puzzle, grid, cell)
    drawing = f'<g transform="translate({num(grid_x)} {num(grid_y)})">' + "".join(layers) + "</g>"
    legend_y = grid_y + side + 8
    legend, legend_height = _text_lines(wrapped(legend_text(g), inner, LEGEND_SIZE), PAD, legend_y,
                                        LEGEND_SIZE, f' fill="{TEXT_COLOUR}"')
    if grid is not None and any(not given and value for given, value in zip(puzzle.cells, grid)):
        key_y = legend_y + legend_height + LEGEND_SIZE
        legend += (f'<text x="{PAD}" y="{num(key_y)}" font-size="{LEGEND_SIZE}" fill="{TEXT_COLOUR}">Digits: '
                   f'<tspan font-weight="bold" fill="{GIVEN_COLOUR}">given</tspan>, '
                   f'<tspan fill="{SOLVED_COLOUR}">solved</tspan></text>')
        legend_height += LEGEND_SIZE * 1.3
    height = legend_y + legend_height + PAD
    return Panel(top + drawing + legend, inner + 2 * PAD, height, grid_x, grid_y, cell)


def document(panels: Sequence[Panel], columns: int | None = None) -> str:
    """One SVG document holding the panels in rows of `columns` (about a square sheet by default)."""
    if not panels:
        empty = Panel(f'<text x="{PAD}" y="{PAD + TITLE_SIZE}" font-size="{TITLE_SIZE}">no puzzles</text>',
                      MIN_INNER_WIDTH, TITLE_SIZE + 2 * PAD)
        panels = [empty]
    columns = columns or math.ceil(math.sqrt(len(panels)))
    rows = [panels[k:k + columns] for k in range(0, len(panels), columns)]
    widths = [max(p.width for p in panels[c::columns]) for c in range(min(columns, len(panels)))]
    placed, y = [], 0.0
    for row in rows:
        x = 0.0
        for c, p in enumerate(row):
            placed.append(f'<g transform="translate({num(x)} {num(y)})">{p.body}</g>')
            x += widths[c]
        y += max(p.height for p in row)
    width, height = math.ceil(sum(widths)), math.ceil(y)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">\n'
            f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>\n'
            + "\n".join(placed) + "\n</svg>\n")


def puzzle_svg(puzzle: Puzzle, grid: Sequence[int] | None = None, title: str | None = None) -> str:
    """A puzzle (or its solution, when `grid` is given) as one SVG document."""
    return document([panel(puzzle, grid, title)])


def sheet_svg(items: Iterable[SheetItem | Puzzle], columns: int | None = None) -> str:
    """Several puzzles on one SVG sheet: items are (puzzle, grid or None, title or None) or puzzles."""
    panels = [panel(item) if isinstance(item, Puzzle) else panel(*item) for item in items]
    return document(panels, columns)
