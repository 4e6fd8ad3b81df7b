"""f-puzzles JSON and its compressed links (LZString base64), read and written, and the variant helpers the
text form shares (cell names, regions to a geometry, rules added to a puzzle's geometry).

The f-puzzles object: `size` (n), `grid[r][c]` cells with `value`, `given` and `region` (0-based, present when
the cell's region is not its default box), the booleans `diagonal+`, `diagonal-`, `antiknight`, `antiking`,
`nonconsecutive`, `disjointgroups`, `extraregion` (`[{"cells": ["R1C1", ...]}]`), `thermometer`
(`[{"lines": [["R1C1", ...]]}]`, bulb first), the dots `difference` (white) and `ratio` (black)
(`[{"cells": ["R1C1", "R1C2"]}]`, an optional `value` of 1 / 2), `xv` (`[{"cells": [...], "value": "X"}]`),
`negative` (`["ratio", "xv", "difference"]`; f-puzzles writes the white dots' negative as `nonconsecutive`
beside the dots), `killercage` (`[{"cells": ["R1C1", ...], "value": "10"}]`, the value optional) and `arrow`
(`[{"lines": [["R1C1", "R1C2", ...]], "cells": ["R1C1"]}]`: `cells` is the circle, each line one arrow from it;
a circle of two or more cells, a pill, is refused). Only givens count: a value without `given` is a player's
entry. A constraint satdoku does not support yet is an InputError naming it, never dropped; `COSMETIC`
drawings are read as decoration unless a constraint tool drew them, and a `cage` with a value is a killer cage.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any
from urllib.parse import quote, unquote

from satdoku.errors import InputError
from satdoku.models.geometry import (MARKS, MAX_SIDE, Geometry, check_arrow, check_cage, check_extra_region, check_mark,
                                     cut, shown, windows)
from satdoku.models.puzzle import Puzzle, cell_name
from satdoku.models.verify import given_conflict

MIN_SIDE = 4
# f-puzzles' booleans satdoku supports, by the names Geometry uses too
FLAGS = ("diagonal-", "diagonal+", "windoku", "disjointgroups", "antiknight", "antiking", "nonconsecutive")
# keys that describe the puzzle without constraining it (solver options of other programs included)
METADATA = ("size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts",
            "highlightConstraints", "disabledlogic", "truecandidatesoptions")
# f-puzzles' cosmetic tools: decoration unless a constraint tool drew them (`fromConstraint`,
# `isNewConstraint`); a `cage` with a value is a killer cage in other programs, and is read as one
COSMETIC = ("text", "line", "rectangle", "circle", "cage")
# cell keys that hold colours and a player's pencil marks, not constraints
CELL_COSMETIC = ("c", "highlight", "centerPencilMarks", "cornerPencilMarks", "candidates")
LINK = "https://www.f-puzzles.com/?load="
BASE64 = re.compile(r"[A-Za-z0-9+/=]+")
PACKED_START = "N4Ig"  # what LZString base64 of any text starting '{"' begins with
CELL_NAME = re.compile(r"[rR]([0-9]{1,3})[cC]([0-9]{1,3})")
# f-puzzles' constraint lists satdoku reads: the dots by list name, with the one value each may carry
DOTS = {"difference": ("white", 1), "ratio": ("black", 2)}
XV_VALUES = {"x": "x", "v": "v"}
# f-puzzles' `negative` entries and satdoku's rules
NEGATIVES = {"difference": "negative-difference", "ratio": "negative-ratio", "xv": "negative-xv"}
CONSTRAINT_KEYS = ("thermometer", "difference", "ratio", "xv", "negative", "killercage", "arrow")
TOTAL = re.compile(r"[0-9]{1,6}")  # a killer cage's total as written: ASCII digits


# --- shared with the text form -------------------------------------------------------------------------

def parse_cell(name: str, n: int) -> int:
    """The cell index of a name such as 'R1C2' or 'r1c2' (1-based row and column) in an n x n grid.

    >>> parse_cell("R2C3", 9)
    11
    >>> parse_cell("r10c1", 9)
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: cell 'r10c1' is outside the 9x9 grid
    """
    match = CELL_NAME.fullmatch(name.strip()) if isinstance(name, str) else None
    if not match:
        raise InputError(f"{shown(str(name))} is not a cell name such as r1c1")
    r, c = (int(part) for part in match.groups())
    if not (1 <= r <= n and 1 <= c <= n):
        raise InputError(f"cell {shown(name)} is outside the {n}x{n} grid")
    return (r - 1) * n + c - 1


def default_boxes(n: int) -> Geometry:
    """f-puzzles' default regions for side n: the squarest boxes with more columns than rows; 1 x n
    (the rows) when n is prime.

    >>> default_boxes(6), default_boxes(7)
    (Geometry(box_rows=2, box_cols=3), Geometry(box_rows=1, box_cols=7))
    """
    rows = max(r for r in range(1, int(n ** 0.5) + 1) if n % r == 0)
    return Geometry(rows, n // rows)


def geometry_of_regions(n: int, region_of: list[int], box: Geometry | None = None) -> Geometry:
    """The geometry whose boxes (or jigsaw regions) are the cells' regions: `region_of[cell]` is any label.

    Regions that are the boxes of an R x C shape give that shape; others are jigsaw regions, sorted by
    their first cell, on the nominal shape `box` (default: `default_boxes(n)`).

    >>> geometry_of_regions(4, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3])
    Geometry(box_rows=1, box_cols=4)
    >>> geometry_of_regions(4, [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]).regions
    ((0, 1, 4, 5), (2, 3, 6, 7), (8, 12, 13, 14), (9, 10, 11, 15))
    """
    groups: dict[object, list[int]] = {}
    for cell, label in enumerate(region_of):
        groups.setdefault(label, []).append(cell)
    regions = sorted((tuple(cells) for cells in groups.values()), key=lambda cells: cells[0])
    check_region_sizes(regions, n)
    shape = box_shape_of(regions, n)
    if shape is not None:
        return shape
    return (box or default_boxes(n)).with_rules(regions=tuple(regions))


def check_region_sizes(regions: list[tuple[int, ...]], n: int) -> None:
    """n regions of n cells each, named by their first cell when one is wrong."""
    for cells in regions:
        if len(cells) != n:
            raise InputError(f"jigsaw: the region of {cell_name(cells[0], n)} has {len(cells)} cells; "
                             f"each of the {n} regions needs {n}")


def box_shape_of(regions: list[tuple[int, ...]], n: int) -> Geometry | None:
    """The R x C box shape whose boxes are exactly these regions, or None (the default shape tried first)."""
    wanted = {frozenset(cells) for cells in regions}
    default = default_boxes(n)
    shapes = [default] + [Geometry(r, n // r) for r in range(1, n + 1) if n % r == 0 and r != default.box_rows]
    return next((g for g in shapes if {frozenset(b) for b in g.boxes} == wanted), None)


def geometry_with(puzzle: Puzzle, rules: Iterable[str] = (), regions: tuple[tuple[int, ...], ...] | None = None,
                  extra_regions: tuple[tuple[int, ...], ...] = ()) -> Geometry:
    """The puzzle's geometry with more rules, regions or extra regions; errors name the puzzle's source."""
    try:
        return puzzle.geometry.with_rules(tuple(rules), regions, extra_regions)
    except InputError as err:
        raise InputError(f"{puzzle.where}{err}") from None


def checked(puzzle: Puzzle) -> Puzzle:
    """The puzzle itself, or an InputError naming two givens that break a rule together."""
    conflict = given_conflict(puzzle)
    if conflict:
        raise InputError(f"{puzzle.where}contradictory givens: {conflict}")
    return puzzle


def windoku_rule(geometry: Geometry, extra: list[tuple[int, ...]]) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """Extra regions that are exactly the windoku windows read as the rule 'windoku' (f-puzzles has no
    windoku switch: its files list the windows as extra regions).

    >>> windoku_rule(Geometry(3, 3), [tuple(w) for w in windows(9, 3, 3)])
    (('windoku',), [])
    """
    wins = {frozenset(w) for w in windows(geometry.n, geometry.box_rows, geometry.box_cols)}
    sets = [frozenset(region) for region in extra]
    if not wins or not wins <= set(sets):
        return (), extra
    kept, dropped = [], set()
    for region, cells in zip(extra, sets):
        if cells in wins and cells not in dropped:
            dropped.add(cells)
        else:
            kept.append(region)
    return ("windoku",), kept


def parse_mark(kind: str, names: Any, n: int) -> tuple[str, int, int]:
    """A mark (kind from MARKS) joining two named cells; errors name the kind and the cells.

    >>> parse_mark("white", ["R1C1", "r1c2"], 4)
    ('white', 0, 1)
    """
    if kind not in MARKS:
        raise InputError(f"unknown mark {shown(kind)}; satdoku knows {', '.join(MARKS)}")
    if not isinstance(names, (list, tuple)) or len(names) != 2:
        count = len(names) if isinstance(names, (list, tuple)) else 0
        raise InputError(f"{count} cell(s){_at(names, n)}; a mark joins two cells")
    a, b = (parse_cell(name, n) for name in names)
    if a == b:
        raise InputError(f"{cell_name(a, n)} twice; a mark joins two different cells")
    check_mark(kind, a, b, n)
    return kind, a, b


def parse_thermometer(names: Any, n: int) -> tuple[int, ...]:
    """A thermometer from its cell names, bulb first: 2 to n different cells; errors name a cell.

    >>> parse_thermometer(["R2C1", "R1C1", "R1C2"], 4)
    (4, 0, 1)
    """
    if not isinstance(names, (list, tuple)):
        raise InputError(f"expected a list of cells, found {_json(names)}")
    cells = tuple(parse_cell(name, n) for name in names)
    if len(cells) < 2:
        raise InputError(f"{len(cells)} cell(s){_at(names, n)}; a thermometer has a bulb and at least one more")
    if len(cells) > n:
        raise InputError(f"{len(cells)} cells from {cell_name(cells[0], n)}, more than the {n} digits can rise along")
    seen: set[int] = set()
    for cell in cells:
        if cell in seen:
            raise InputError(f"{cell_name(cell, n)} twice; a thermometer's cells are all different")
        seen.add(cell)
    return cells


def parse_total(value: Any) -> int | None:
    """A killer cage's total: a whole number or a string of digits; None (no total) for null or ''.

    >>> parse_total("10"), parse_total(7), parse_total(""), parse_total(None)
    (10, 7, None, None)
    >>> parse_total("1a")
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: total "1a" is not a whole number
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10 ** 6:
        return value
    if isinstance(value, str) and TOTAL.fullmatch(value.strip()):
        return int(value.strip())
    raise InputError(f"total {_json(value)} is not a whole number")


def parse_cage(names: Any, total: Any, n: int, k: int) -> tuple[tuple[int, ...], int | None]:
    """Killer cage k from its cell names and total (see `parse_total`); errors name the cage and a cell.

    >>> parse_cage(["R1C1", "r1c2"], "3", 4, 1)
    ((0, 1), 3)
    >>> parse_cage(["R1C1", "R1C2"], 2, 4, 1)
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: killer cage 1 at r1c1: 2 different digits of 1..4 sum to 3..7, not 2
    """
    cells = _named_cells(names, n, f"killer cage {k}")
    where = cell_name(cells[0], n) if cells else "no cell"
    try:
        value = parse_total(total)
    except InputError as err:
        raise InputError(f"killer cage {k} at {where}: {err}") from None
    check_cage(cells, value, n, k)
    return cells, value


def _named_cells(names: Any, n: int, what: str) -> tuple[int, ...]:
    """The cells of a list of names; errors name `what` (such as 'arrow 2') and the bad name."""
    if not isinstance(names, (list, tuple)):
        raise InputError(f"{what}: expected a list of cells, found {_json(names)}")
    try:
        return tuple(parse_cell(name, n) for name in names)
    except InputError as err:
        raise InputError(f"{what}: {err}") from None


def parse_arrow(names: Any, n: int, k: int) -> tuple[int, tuple[int, ...]]:
    """Arrow k from its cell names, the circle first; errors name the arrow and a cell.

    >>> parse_arrow(["R1C1", "R1C2", "R2C2"], 4, 1)
    (0, (1, 5))
    """
    cells = _named_cells(names, n, f"arrow {k}")
    if not cells:
        raise InputError(f"arrow {k}: no cells; an arrow has a circle and at least one more cell")
    check_arrow(cells[0], cells[1:], n, k)
    return cells[0], cells[1:]


def with_sums(geometry: Geometry, cages: Iterable[tuple[tuple[int, ...], int | None]] = (),
              arrows: Iterable[tuple[int, tuple[int, ...]]] = ()) -> Geometry:
    """The geometry with more killer cages and arrows, in the order given (both formats keep it)."""
    cages, arrows = tuple(cages), tuple(arrows)
    return geometry.with_sums(cages=cages, arrows=arrows) if cages or arrows else geometry


def _at(names: Any, n: int) -> str:
    """' at r1c1' for the first valid cell name of a list, '' when none."""
    first = _first_cell(names, n)
    return first.replace(" (first at", " at").rstrip(")") if first else ""


def canonical_marks(marks: Iterable[tuple[str, int, int]]) -> tuple[tuple[str, int, int], ...]:
    """Marks in the order both formats write them: by kind (white, black, x, v), then as given.

    >>> canonical_marks([("x", 0, 1), ("white", 1, 2)])
    (('white', 1, 2), ('x', 0, 1))
    """
    order = list(MARKS)
    return tuple(sorted(marks, key=lambda mark: order.index(mark[0])))


def with_marks(geometry: Geometry, marks: Iterable[tuple[str, int, int]] = (),
               thermometers: Iterable[tuple[int, ...]] = ()) -> Geometry:
    """The geometry with more marks (kept in canonical order) and thermometers."""
    return replace(geometry, marks=canonical_marks(geometry.marks + tuple(marks)),
                   thermometers=geometry.thermometers + tuple(thermometers))


# --- reading ------------------------------------------------------------------------------------------

def is_json_text(text: str, source: str = "") -> bool:
    """True for f-puzzles JSON: the text of a .json file, or an object ('{' then '"') in any other.

    >>> is_json_text(' {"size": 4}'), is_json_text("{}AB"), is_json_text("[1]", "p.json")
    (True, False, True)
    """
    if source.lower().endswith((".json", ".json.gz")):
        return True
    head = text.lstrip()
    return head.startswith("{") and (head[1:].lstrip().startswith('"') or head.rstrip() == "{}")


def read_json_text(text: str, source: str = "", box: Geometry | None = None) -> Puzzle:
    """The puzzle of an f-puzzles JSON text; every error names the source."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        where = f"line {err.lineno}, column {err.colno}"
        raise InputError(f"{_prefix(source)}malformed JSON: {err.msg} ({where})") from None
    except RecursionError:
        raise InputError(f"{_prefix(source)}malformed JSON: nested too deeply") from None
    return fpuzzles_puzzle(data, source, box)


def is_link(token: str) -> bool:
    """True for a token that is an f-puzzles or SudokuPad link (a URL, or 'fpuzzles...').

    >>> is_link("https://www.f-puzzles.com/?load=N4Ig"), is_link("N4Igzglg")
    (True, False)
    """
    lower = token.lower()
    return "://" in lower or lower.startswith(("www.", "f-puzzles.com", "sudokupad.app", "fpuzzles", "?load=", "load="))


def is_packed(token: str) -> bool:
    """True for a token that looks like LZString base64 of a JSON object (it starts with 'N4Ig').

    >>> is_packed("N4IgzglgXgpiBcAWAvkA"), is_packed("123")
    (True, False)
    """
    return token.startswith(PACKED_START) and BASE64.fullmatch(token) is not None


def link_payload(token: str) -> str:
    """The compressed text of a link: after '?load=' (f-puzzles) or 'fpuzzles' (SudokuPad), URL-decoded.

    >>> link_payload("https://sudokupad.app/fpuzzlesN4Ig%2Bab%3D")
    'N4Ig+ab='
    """
    match = re.search(r"[?&]load=([^&#]*)", token)
    if match:
        return unquote(match.group(1))
    start = token.find("fpuzzles")
    if start < 0:
        raise InputError(f"{shown(token, 40)} is not an f-puzzles link "
                         f"(f-puzzles.com/?load=... or sudokupad.app/fpuzzles...)")
    return unquote(re.split(r"[&#?]", token[start + len("fpuzzles"):])[0])


def unpack(packed: str) -> Any:
    """The JSON value an LZString base64 text decompresses to, or None when it does not hold JSON.

    >>> unpack("N4IgzglgXgpiBcAWAvkA")
    {'size': 4}
    """
    if not packed or BASE64.fullmatch(packed) is None:
        return None
    text = _decompress(packed)
    if not text or not text.lstrip().startswith("{"):
        return None
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None


def _decompress(packed: str) -> str | None:
    """LZString's decompressFromBase64, with every failure of a corrupt text as None."""
    try:
        import lzstring
    except ImportError:
        raise InputError("reading f-puzzles links needs lzstring: pip install 'lzstring>=1.0.4,<2'") from None
    try:
        text = lzstring.LZString().decompressFromBase64(packed)
    except Exception:  # a corrupt text fails inside lzstring as KeyError, IndexError, UnboundLocalError ...
        return None
    return text if isinstance(text, str) else None


def link_puzzle(token: str, source: str = "", box: Geometry | None = None) -> Puzzle:
    """The puzzle of an f-puzzles link or of its bare compressed text; a corrupt one is an InputError."""
    try:
        payload = link_payload(token) if is_link(token) else token
    except InputError as err:
        raise InputError(f"{_prefix(source)}{err}") from None
    data = unpack(payload)
    if data is None:
        what = "f-puzzles link" if is_link(token) else "LZString text"
        raise InputError(f"{_prefix(source)}corrupt {what} {shown(token, 32)}: it does not decompress to "
                         f"f-puzzles JSON")
    return fpuzzles_puzzle(data, source, box)


def fpuzzles_puzzle(data: Any, source: str = "", box: Geometry | None = None) -> Puzzle:
    """The puzzle of a decoded f-puzzles object; every error is one line naming the source.

    >>> p = fpuzzles_puzzle({"size": 4, "diagonal-": True, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] +
    ...                      [[{}] * 4] * 3})
    >>> p.cells[:2], p.geometry.rules
    ((1, 0), ('diagonal-',))
    """
    try:
        puzzle = _puzzle(data, box, source)
    except InputError as err:
        raise InputError(f"{_prefix(source)}{err}") from None
    return checked(puzzle)


def _prefix(source: str) -> str:
    return f"{source}: " if source else ""


def _puzzle(data: Any, box: Geometry | None, source: str) -> Puzzle:
    if not isinstance(data, dict):
        raise InputError(f"f-puzzles JSON must be an object, found {type(data).__name__}")
    n = _size(data)
    grid = _grid(data, n)
    refuse_unsupported(data, n)
    cells = tuple(_given(cell, k, n) for k, cell in enumerate(grid))
    geometry = _regions_geometry(grid, n, box)
    extra = _extra_regions(data.get("extraregion"), n)
    found, extra = windoku_rule(geometry, extra)
    marks = _dots(data, n) + _xv(data.get("xv"), n)
    rules = _white_negative(tuple(rule for rule in FLAGS if _flag(data, rule)) + found + _negative(data),
                            marks)
    geometry = geometry.with_rules(rules, extra_regions=tuple(extra))
    geometry = with_marks(geometry, marks, _thermometers(data.get("thermometer"), n))
    geometry = with_sums(geometry, _cages(data, n), _arrows(data.get("arrow"), n))
    return Puzzle(geometry, cells, None, source)


def _size(data: dict) -> int:
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIDE <= size <= MAX_SIDE:
        raise InputError(f"size {_json(size)} is not a side from {MIN_SIDE} to {MAX_SIDE}")
    return size


def _grid(data: dict, n: int) -> list[dict]:
    """The n*n cell objects of `grid`, in reading order."""
    grid = data.get("grid")
    if not isinstance(grid, list) or len(grid) != n:
        found = f"{len(grid)} row(s)" if isinstance(grid, list) else _json(grid)
        raise InputError(f"grid: size {n} needs {n} rows of {n} cells, found {found}")
    for r, row in enumerate(grid, 1):
        if not isinstance(row, list) or len(row) != n:
            found = f"{len(row)} cell(s)" if isinstance(row, list) else _json(row)
            raise InputError(f"grid: row {r} holds {found}; size {n} needs {n} cells")
        for c, cell in enumerate(row, 1):
            if not isinstance(cell, dict):
                raise InputError(f"grid: r{r}c{c} is {_json(cell)}, not a cell object")
    return [cell for row in grid for cell in row]


def _given(cell: dict, k: int, n: int) -> int:
    """A cell's given digit, 0 for none; values without `given` are a player's entries and read as blank."""
    for key, value in cell.items():
        if key == "givenPencilMarks" and not _empty(value):
            raise InputError(f"rule 'givenPencilMarks' is not supported yet (first at {cell_name(k, n)})")
        if key not in ("value", "given", "region", "givenPencilMarks") + CELL_COSMETIC and not _empty(value):
            raise InputError(f"rule {shown(key)} is not supported yet (first at {cell_name(k, n)})")
    if not cell.get("given"):
        return 0
    value = cell.get("value")
    if value in (None, 0):
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
        raise InputError(f"{cell_name(k, n)}: given {_json(value)} is not a digit 1-{n}")
    return value


def _regions_geometry(grid: list[dict], n: int, box: Geometry | None) -> Geometry:
    """The boxes or jigsaw regions of the cells: each cell's `region`, else its default box."""
    if box is not None and box.n != n:
        raise InputError(f"box {box.box_rows}x{box.box_cols} needs side {box.n}, the puzzle has side {n}")
    default = default_boxes(n)
    if not any("region" in cell for cell in grid):
        return box or default
    region_of = [_region(cell, k, n, default) for k, cell in enumerate(grid)]
    geometry = geometry_of_regions(n, region_of)
    if box is not None and geometry != box:
        raise InputError(f"the file gives its own regions; --box {box.box_rows}x{box.box_cols} applies only "
                         f"to files without them")
    return geometry


def _region(cell: dict, k: int, n: int, default: Geometry) -> int:
    if "region" not in cell:
        return default.box_of(k // n, k % n)
    region = cell["region"]
    if region is None:
        raise InputError(f"{cell_name(k, n)} is in no region; satdoku needs every cell in one of {n} regions")
    if isinstance(region, bool) or not isinstance(region, int) or not 0 <= region < n:
        raise InputError(f"{cell_name(k, n)}: region {_json(region)} is outside 0..{n - 1} "
                         f"(f-puzzles numbers regions from 0)")
    return region


def _flag(data: dict, rule: str) -> bool:
    value = data.get(rule)
    if value is True:
        return True
    if _empty(value):
        return False
    raise InputError(f"rule {rule!r}: expected true or false, found {_json(value)}")


def _extra_regions(value: Any, n: int) -> list[tuple[int, ...]]:
    """`extraregion`: a list of {"cells": [...]}; each region of 1 to n distinct cells."""
    if _empty(value):
        return []
    if not isinstance(value, list):
        raise InputError("rule 'extraregion': expected a list of {\"cells\": [...]}")
    out = []
    for k, entry in enumerate(value, 1):
        names = entry.get("cells") if isinstance(entry, dict) else None
        if not isinstance(names, list):
            raise InputError(f"extraregion {k}: expected {{\"cells\": [\"R1C1\", ...]}}")
        try:
            region = tuple(parse_cell(name, n) for name in names)
        except InputError as err:
            raise InputError(f"extraregion {k}: {err}") from None
        check_extra_region(region, n, k)
        out.append(region)
    return out


def _entries(key: str, value: Any) -> list[dict]:
    """A constraint list's entries (objects); null or [] is none."""
    if _empty(value):
        return []
    if not isinstance(value, list) or not all(isinstance(entry, dict) for entry in value):
        raise InputError(f"rule {key!r}: expected a list of objects, found {_json(value)}")
    return value


def _thermometers(value: Any, n: int) -> tuple[tuple[int, ...], ...]:
    """`thermometer`: [{"lines": [[bulb, ...], ...]}]; each line is one thermometer."""
    out = []
    for k, entry in enumerate(_entries("thermometer", value), 1):
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise InputError(f"rule 'thermometer' {k}: expected {{\"lines\": [[\"R1C1\", ...]]}}")
        for line in lines:
            try:
                out.append(parse_thermometer(line, n))
            except InputError as err:
                raise InputError(f"rule 'thermometer' {k}: {err}") from None
    return tuple(out)


def _cages(data: dict, n: int) -> tuple[tuple[tuple[int, ...], int | None], ...]:
    """`killercage` ([{"cells": [...], "value": "10"}], the value optional), then every `cage` drawing with a value."""
    entries = [("killercage", entry) for entry in _entries("killercage", data.get("killercage"))]
    if isinstance(data.get("cage"), list):  # the cosmetic cages; `refuse_unsupported` checked their shape
        entries += [("cage", entry) for entry in data["cage"] if not _empty(entry.get("value"))]
    out = []
    for k, (key, entry) in enumerate(entries, 1):
        try:
            out.append(parse_cage(entry.get("cells"), entry.get("value"), n, k))
        except InputError as err:
            raise InputError(f"rule {key!r}: {err}") from None
    return tuple(out)


def _arrows(value: Any, n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """`arrow`: [{"lines": [[circle, ...], ...], "cells": [circle]}]; each line is one arrow from the circle."""
    out = []
    for k, entry in enumerate(_entries("arrow", value), 1):
        circle, lines = entry.get("cells"), entry.get("lines")
        if not isinstance(circle, list) or not circle or not isinstance(lines, list) or not lines:
            raise InputError(f"rule 'arrow' {k}: expected {{\"lines\": [[\"R1C1\", \"R1C2\", ...]], "
                             f"\"cells\": [\"R1C1\"]}}{_first_cell(entry, n)}")
        if len(circle) > 1:
            raise InputError(f"rule 'arrow' with a {len(circle)}-cell circle (a pill) is not supported yet"
                             f"{_first_cell(circle, n)}")
        for line in lines:
            try:
                out.append(parse_arrow(_from_circle(circle[0], line), n, len(out) + 1))
            except InputError as err:
                raise InputError(f"rule 'arrow': {err}") from None
    return tuple(out)


def _from_circle(circle: Any, line: Any) -> list:
    """An arrow's cell names, the circle first: the line without its first cell when that is the circle.

    >>> _from_circle("R1C1", ["r1c1", "R1C2"]), _from_circle("R1C1", ["R1C2"])
    (['R1C1', 'R1C2'], ['R1C1', 'R1C2'])
    """
    if not isinstance(line, list):
        return line
    same = line and isinstance(line[0], str) and isinstance(circle, str) and line[0].lower() == circle.lower()
    return [circle] + (line[1:] if same else line)


def _dots(data: dict, n: int) -> tuple[tuple[str, int, int], ...]:
    """The kropki dots of `difference` (white) and `ratio` (black); a dot of another value is refused."""
    out = []
    for key, (kind, standard) in DOTS.items():
        for k, entry in enumerate(_entries(key, data.get(key)), 1):
            value = entry.get("value")
            if not _empty(value) and str(value).strip() != str(standard):
                raise InputError(f"rule {key!r} with value {_json(value)} is not supported yet "
                                 f"(first at {_cell_label(entry, n)}); satdoku reads the standard {standard}")
            out.append(_mark(key, k, kind, entry, n))
    return tuple(out)


def _xv(value: Any, n: int) -> tuple[tuple[str, int, int], ...]:
    """`xv`: [{"cells": [a, b], "value": "X" or "V"}]."""
    out = []
    for k, entry in enumerate(_entries("xv", value), 1):
        letter = entry.get("value")
        kind = XV_VALUES.get(letter.strip().lower()) if isinstance(letter, str) else None
        if kind is None:
            raise InputError(f"rule 'xv' with value {_json(letter)} is not supported (at {_cell_label(entry, n)}); "
                             f"satdoku reads X and V")
        out.append(_mark("xv", k, kind, entry, n))
    return tuple(out)


def _mark(key: str, k: int, kind: str, entry: dict, n: int) -> tuple[str, int, int]:
    try:
        return parse_mark(kind, entry.get("cells"), n)
    except InputError as err:
        raise InputError(f"rule {key!r} {k}: {err}") from None


def _cell_label(entry: dict, n: int) -> str:
    """The first cell an entry names, as r1c1, or 'no cell'."""
    first = _first_cell(entry.get("cells"), n)
    return first[len(" (first at "):-1] if first else "no cell"


def _negative(data: dict) -> tuple[str, ...]:
    """`negative`: f-puzzles' list of constraints whose marks are all given, as satdoku's rules."""
    value = data.get("negative")
    if _empty(value):
        return ()
    if not isinstance(value, list):
        raise InputError(f"rule 'negative': expected a list such as [\"ratio\", \"xv\"], found {_json(value)}")
    for name in value:
        if name not in NEGATIVES:
            raise InputError(f"rule 'negative' of {_json(name)} is not supported yet; satdoku reads "
                             f"{', '.join(NEGATIVES)}")
    return tuple(NEGATIVES[name] for name in value)


def _white_negative(rules: tuple[str, ...], marks: tuple[tuple[str, int, int], ...]) -> tuple[str, ...]:
    """f-puzzles' `nonconsecutive` beside kropki dots (or the white negative) is the white dots' negative."""
    dotted = any(kind in ("white", "black") for kind, _, _ in marks)
    if "nonconsecutive" in rules and (dotted or "negative-difference" in rules):
        return tuple(rule for rule in rules if rule != "nonconsecutive") + ("negative-difference",)
    return rules


def refuse_unsupported(data: dict, n: int) -> None:
    """InputError naming the first constraint the object holds that satdoku does not support yet."""
    for key, value in data.items():
        if key in METADATA or key in FLAGS or key in CONSTRAINT_KEYS or key == "extraregion" or _empty(value):
            continue
        if key in COSMETIC:
            _refuse_drawn_constraints(key, value, n)
            continue
        raise InputError(f"rule {shown(key)} is not supported yet{_first_cell(value, n)}")


def _refuse_drawn_constraints(key: str, value: Any, n: int) -> None:
    """Cosmetic drawings pass, except those a constraint tool drew (cages with a value are killer cages)."""
    if not isinstance(value, list):
        raise InputError(f"{key!r}: expected a list of drawings")
    for entry in value:
        if not isinstance(entry, dict):
            raise InputError(f"{key!r}: expected a list of drawings")
        tool = entry.get("fromConstraint")
        if tool or entry.get("isNewConstraint"):
            name = tool if isinstance(tool, str) and tool else key
            raise InputError(f"rule {shown(name)} (drawn as a {key}) is not supported yet{_first_cell(entry, n)}")


def _first_cell(value: Any, n: int) -> str:
    """' (first at r1c1)' for the first cell name found in a constraint's data, '' when none."""
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, str) and CELL_NAME.fullmatch(item):
            return f" (first at {item.lower()})"
        if isinstance(item, dict):
            stack[:0] = list(item.values())
        elif isinstance(item, list):
            stack[:0] = item
    return ""


def _json(value: Any) -> str:
    """A JSON value for a one-line message, cut when long.

    >>> _json("9"), _json(None)
    ('"9"', 'null')
    """
    return cut(json.dumps(value, ensure_ascii=True), 24)


def _empty(value: Any) -> bool:
    """True for a value that holds nothing: null, false, 0, '', [] or {}."""
    return value is None or value is False or (isinstance(value, (str, list, dict, int, float)) and not value)


# --- writing ------------------------------------------------------------------------------------------

def fpuzzles_object(puzzle: Puzzle) -> dict:
    """The f-puzzles object of a puzzle: givens, regions that differ from the default boxes, rules, and
    extra regions (windoku as its windows, f-puzzles having no switch for it)."""
    g = puzzle.geometry
    n = g.n
    default = default_boxes(n)
    region_of = {cell: k for k, region in enumerate(g.boxes) for cell in region}
    grid = [[_cell_object(puzzle.cells[r * n + c], region_of[r * n + c], default.box_of(r, c))
             for c in range(n)] for r in range(n)]
    data: dict[str, Any] = {"size": n, "grid": grid}
    data.update({rule: True for rule in _written_flags(g)})
    extra = list(g.extra_regions)
    if "windoku" in g.rules:
        extra += windows(n, g.box_rows, g.box_cols)
    if extra:
        data["extraregion"] = [{"cells": _names(region, n)} for region in extra]
    data.update(_marks_object(g))
    data.update(_sums_object(g))
    return data


def _names(cells: Iterable[int], n: int) -> list[str]:
    """Cell indices as f-puzzles names them: R1C1."""
    return [cell_name(cell, n).upper() for cell in cells]


def _written_flags(g: Geometry) -> list[str]:
    """The f-puzzles switches of a geometry: its rules that are switches, and `nonconsecutive` for the white
    dots' negative (f-puzzles' own way); satdoku's nonconsecutive beside dots has no f-puzzles form."""
    dotted = any(kind in ("white", "black") for kind, _, _ in g.marks)
    if "nonconsecutive" in g.rules and (dotted or "negative-difference" in g.rules):
        raise InputError("f-puzzles reads 'nonconsecutive' beside kropki dots as the white dots' negative; "
                         "this puzzle's nonconsecutive rule has no f-puzzles form (export --to text keeps it)")
    flags = [rule for rule in g.rules if rule in FLAGS and rule != "windoku"]
    return flags + (["nonconsecutive"] if "negative-difference" in g.rules else [])


def _marks_object(g: Geometry) -> dict[str, Any]:
    """The f-puzzles lists of a geometry's thermometers, dots, X and V, and negative rules."""
    n, data = g.n, {}
    if g.thermometers:
        data["thermometer"] = [{"lines": [_names(line, n)]} for line in g.thermometers]
    for key, (kind, _) in DOTS.items():
        dots = [{"cells": _names((a, b), n)} for k, a, b in g.marks if k == kind]
        if dots:
            data[key] = dots
    xv = [{"cells": _names((a, b), n), "value": kind.upper()} for kind, a, b in g.marks if kind in XV_VALUES]
    if xv:
        data["xv"] = xv
    negative = [name for name, rule in NEGATIVES.items() if rule in g.rules]
    if negative:
        data["negative"] = negative
    return data


def _sums_object(g: Geometry) -> dict[str, Any]:
    """The f-puzzles lists of a geometry's killer cages (the total as a string, as f-puzzles writes it) and
    arrows (one line each, from the circle).

    >>> data = _sums_object(Geometry(2, 2, cages=(((0, 1), 3), ((5,), None)), arrows=((0, (4, 8)),)))
    >>> data["killercage"]
    [{'cells': ['R1C1', 'R1C2'], 'value': '3'}, {'cells': ['R2C2']}]
    >>> data["arrow"]
    [{'lines': [['R1C1', 'R2C1', 'R3C1']], 'cells': ['R1C1']}]
    """
    n, data = g.n, {}
    if g.cages:
        data["killercage"] = [{"cells": _names(cells, n), **({} if total is None else {"value": str(total)})}
                              for cells, total in g.cages]
    if g.arrows:
        data["arrow"] = [{"lines": [_names((circle,) + cells, n)], "cells": _names((circle,), n)}
                         for circle, cells in g.arrows]
    return data


def _cell_object(value: int, region: int, default_region: int) -> dict:
    cell: dict[str, Any] = {"value": value, "given": True} if value else {}
    if region != default_region:
        cell["region"] = region
    return cell


def to_fpuzzles(puzzle: Puzzle) -> str:
    """f-puzzles JSON text: one object, a line per grid row.

    >>> from satdoku.models.geometry import Geometry
    >>> print(to_fpuzzles(Puzzle(Geometry(2, 2, rules=("diagonal+",)), (1,) + (0,) * 15)), end="")
    {"size":4,"grid":[
    [{"value":1,"given":true},{},{},{}],
    [{},{},{},{}],
    [{},{},{},{}],
    [{},{},{},{}]
    ],"diagonal+":true}
    """
    data = fpuzzles_object(puzzle)
    rows = ",\n".join(_compact(row) for row in data.pop("grid"))
    size = data.pop("size")
    rest = "".join(f",{_compact(key)}:{_compact(value)}" for key, value in data.items())
    return f'{{"size":{size},"grid":[\n{rows}\n]{rest}}}\n'


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def to_fpuzzles_link(puzzle: Puzzle) -> str:
    """An f-puzzles link: the JSON compressed by LZString (base64), URL-encoded after '?load='."""
    try:
        import lzstring
    except ImportError:
        raise InputError("writing f-puzzles links needs lzstring: pip install 'lzstring>=1.0.4,<2'") from None
    packed = lzstring.LZString().compressToBase64(_compact(fpuzzles_object(puzzle)))
    return LINK + quote(packed, safe="")
