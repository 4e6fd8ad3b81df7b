"""Reading and writing puzzles: one-line, multi-line grids (.ss, .sdk), integer lists, any size; f-puzzles
JSON and links (`fpuzzles.py`), and the text form: a grid, then `regions:`, `rules:`, `extra:`, `thermo:`,
mark (`white:`, `black:`, `x:`, `v:`), `cage:` and `arrow:` sections."""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from satdoku.errors import InputError
from satdoku.fileio import read_text
from satdoku.models.fpuzzles import (CELL_NAME, canonical_marks, checked, default_boxes, fpuzzles_puzzle,
                                     geometry_of_regions, geometry_with, is_json_text, is_link, is_packed, link_puzzle,
                                     parse_arrow, parse_cage, parse_cell, parse_mark, parse_thermometer,
                                     read_json_text, unpack, with_marks, with_sums)
from satdoku.models.geometry import (MARKS, MAX_SIDE, NAMED_RULES, Geometry, canonical_rules, check_extra_region, cut,
                                     default_geometry, is_square_size, shown)
from satdoku.models.puzzle import Puzzle, cell_name
from satdoku.models.verify import given_conflict

BLANK_CHARS = ".0*_-X"
# three 64-symbol alphabets; a puzzle of side n uses the first n symbols of one of them
EXTRA = "@&~^:/?!<>{}"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "123456789" + UPPER + UPPER.lower() + EXTRA[:3]
HEX = "0123456789" + UPPER + UPPER.lower() + EXTRA[:2]
LETTERS = UPPER + UPPER.lower() + EXTRA
DIGITS36 = DIGITS[:35]
FOLD_MAX = 35  # sides up to this read lowercase as uppercase (every alphabet is case-free this far)
MAX_LINE = 65536  # characters in one line of a puzzle file: a 64x64 grid of integers needs about 12,300
JSON_MAX_LINE = 1 << 24  # characters in one line of a .json file (f-puzzles writes the whole object on one)
SEPARATOR = re.compile(r"[\s\-+=|]*[+=|][\s\-+=|]*")
TITLE = re.compile(r"(grid|puzzle|\[)", re.IGNORECASE)


@dataclass
class _Row:
    """One line of cells as read, before the block it belongs to is interpreted."""

    lineno: int
    chars: list[str]
    ints: list[str] | None
    bars: int | None = None
    after_rule: bool = False
    text: str = ""


@dataclass
class _Block:
    """Consecutive cell lines not separated by a blank line."""

    rows: list[_Row] = field(default_factory=list)
    rules: list[int] = field(default_factory=list)
    packed: str | None = None  # an f-puzzles link or LZString text, alone on its line


def _read_row(lineno: int, line: str) -> _Row:
    body = line.replace("|", " ").strip()
    tokens = [t for t in re.split(r"[\s,;]+", body) if t]
    ints = tokens if len(tokens) > 1 and all(_is_number(t) or t == "." for t in tokens) else None
    chars = [ch for ch in line if not ch.isspace() and ch not in "|,;"]
    bars = len([ch for ch in line.split("|")[0] if not ch.isspace() and ch not in ",;"]) if "|" in line else None
    return _Row(lineno, chars, ints, bars, text=line)


def _is_number(token: str) -> bool:
    """True for a run of ASCII digits only (str.isdigit alone also takes '²' and other scripts' digits).

    >>> _is_number("12"), _is_number("²"), _is_number("-1")
    (True, False, False)
    """
    return token.isascii() and token.isdigit()


def _is_rule(line: str, block: _Block) -> bool:
    """A drawn rule such as '------+-------' or '|---|'; a run of dashes alone is a rule unless it
    is as long as the row above it (then it is a row of blanks)."""
    if not SEPARATOR.fullmatch(line) and not set(line) <= set("- "):
        return False
    if set(line) - set("- "):
        return True
    return bool(block.rows) and len(line.replace(" ", "")) != len(block.rows[-1].chars)


def _blocks(lines: Iterable[str], first: int = 1) -> list[_Block]:
    """Consecutive puzzle lines, split at blank lines (and around links); `first` numbers the first line."""
    blocks, current = [], _Block()
    for lineno, raw in enumerate(lines, first):
        line = raw.strip()
        if not line:
            if current.rows:
                blocks.append(current)
            current = _Block()
        elif line.startswith("#") or TITLE.match(line):
            continue
        elif _is_packed_line(line):
            if current.rows:
                blocks.append(current)
            blocks.append(_Block([_Row(lineno, list(line), None)], packed=line))
            current = _Block()
        elif _is_rule(line, current):
            current.rules.append(len(current.rows))
        else:
            current.rows.append(_read_row(lineno, line))
    if current.rows:
        blocks.append(current)
    return blocks


def _is_packed_line(line: str) -> bool:
    """True for a line holding one f-puzzles link or LZString text (never one of a grid's lengths: such
    a line is read as a grid first, and as a link only when it is not one).

    >>> _is_packed_line("https://www.f-puzzles.com/?load=N4IgzglgXgpiBcAWAvkA"), _is_packed_line("1" * 16)
    (True, False)
    """
    if " " in line or "\t" in line or _grid_length(len(line)):
        return False
    return is_link(line) or is_packed(line)


def _grid_length(length: int) -> bool:
    """True when a one-line grid could have this many characters (n*n for a side n from 4 to 64)."""
    side = int(round(length ** 0.5))
    return side * side == length and 4 <= side <= MAX_SIDE


def _where(source: str, first: int, last: int | None = None) -> str:
    span = f"line {first}" if last is None or last == first else f"lines {first}-{last}"
    return f"{source} {span}" if source else span


def _numeric_block(rows: list[_Row]) -> bool:
    return all(r.ints is not None for r in rows) and any(
        any(len(t) > 1 for t in r.ints or []) or "," in "".join(r.chars) for r in rows)


def _cells(rows: list[_Row], numeric: bool) -> list[str]:
    return [t for r in rows for t in ((r.ints or []) if numeric else r.chars)]


def _alphabet(symbols: Sequence[str], n: int) -> str:
    """The digit alphabet of a character puzzle: the first n symbols of DIGITS, HEX or LETTERS.

    HEX when '0' is a digit (the puzzle also has another blank and lacks DIGITS' n-th symbol),
    LETTERS when no digit 1-9 occurs but a letter does, DIGITS otherwise.

    >>> _alphabet(list("0F.."), 16), _alphabet(list("AB.c"), 4), _alphabet(list("zA.."), 30)
    ('0123456789ABCDEF', '1234', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcd')
    """
    if n <= 9:
        return DIGITS[:n]
    raw = set(symbols)
    upper = {_upper(s) for s in raw}
    used = upper if n <= FOLD_MAX else raw
    if "0" in used and used & set(".*_-X") and DIGITS[n - 1] not in used:
        return HEX[:n]
    if not used & set("123456789") and upper & set(UPPER):
        return LETTERS[:n]
    return DIGITS[:n]


def _upper(symbol: str) -> str:
    """ASCII letters in upper case; every other symbol as it is (so 'ı' never reads as 'I').

    >>> _upper("a"), _upper("ı")
    ('A', 'ı')
    """
    return symbol.upper() if symbol.isascii() else symbol


def _folds(alphabet: str) -> bool:
    """True when lowercase reads as uppercase: the alphabet has no lowercase symbol of its own.

    >>> _folds(DIGITS[:35]), _folds(DIGITS[:36]), _folds(LETTERS[:26]), _folds(LETTERS[:27])
    (True, False, True, False)
    """
    return not any(ch.islower() for ch in alphabet)


def _family(alphabet: str) -> str:
    """The whole 64-symbol alphabet a puzzle's alphabet is the start of."""
    return next(full for full in (DIGITS, HEX, LETTERS) if full.startswith(alphabet))


def _numbers(tokens: list[str], n: int, where: str) -> tuple[int, ...]:
    """The cells of an integer-format puzzle: ASCII numbers 0..n, '.' or 0 for a blank."""
    values = []
    for i, t in enumerate(tokens):
        digits = "0" if t == "." else t.lstrip("0") or "0"
        v = int(digits) if len(digits) <= 3 else None  # no int() of thousands of digits
        if v is None or v > n:
            raise InputError(f"{where}, {cell_name(i, n)}: digit {cut(t, 12)} out of range 1-{n}")
        values.append(v)
    return tuple(values)


def _characters(tokens: list[str], n: int, where: str) -> tuple[tuple[int, ...], str]:
    """The cells of a character puzzle and the alphabet they are written in."""
    alphabet = _alphabet(tokens, n)
    fold = _folds(alphabet)
    index = {ch: i + 1 for i, ch in enumerate(alphabet)}
    blanks = set(BLANK_CHARS if alphabet[0] != "0" else ".*_-X") | ({"x"} if not fold else set())
    family = set("0123456789") | (set(_family(alphabet)) if n > 9 else set())
    values = []
    for i, raw in enumerate(tokens):
        ch = _upper(raw) if fold else raw
        if ch in index:
            values.append(index[ch])
        elif ch in blanks:
            values.append(0)
        elif ch in family:
            raise InputError(f"{where}, {cell_name(i, n)}: digit {raw!r} out of range for a "
                             f"{n}x{n} grid ({alphabet[0]}-{alphabet[-1]})")
        else:
            raise InputError(f"{where}, {cell_name(i, n)}: unknown character {raw!r}")
    return tuple(values), alphabet


def _values(tokens: list[str], n: int, numeric: bool, where: str) -> tuple[tuple[int, ...], str | None]:
    if numeric:
        return _numbers(tokens, n, where), None
    return _characters(tokens, n, where)


def _make(tokens: list[str], numeric: bool, geometry: Geometry, where: str) -> Puzzle:
    values, alphabet = _values(tokens, geometry.n, numeric, where)
    puzzle = Puzzle(geometry, values, alphabet, where)
    conflict = given_conflict(puzzle)
    if conflict:
        raise InputError(f"{where}: contradictory givens: {conflict}")
    return puzzle


def _geometry_for(n: int, box: Geometry | None, block: _Block | None, where: str) -> Geometry:
    if box is not None:
        if box.n != n:
            raise InputError(f"{where}: box {box.box_rows}x{box.box_cols} needs side {box.n}, "
                             f"the puzzle has side {n}")
        return box
    if block is not None:
        inferred = _boxes_from_rules(n, block)
        if inferred:
            return inferred
    try:
        return default_geometry(n)
    except InputError as err:
        raise InputError(f"{where}: {err}") from None


def _boxes_from_rules(n: int, block: _Block) -> Geometry | None:
    """The box shape that a drawn grid's '|' and '---+---' rules show, if they show one."""
    bars = next((r.bars for r in block.rows if r.bars), None)
    if not bars or n % bars:
        return None
    box_rows = block.rules[0] if block.rules and block.rules[0] > 0 else n // bars
    if box_rows * bars != n:
        return None
    return Geometry(box_rows, bars)


def _grid_split(block: _Block, box: Geometry | None) -> int | None:
    """The side when a block is drawn as grids of side rows, or None for one puzzle per line."""
    lengths = set(_row_lengths(block, _numeric_block(block.rows)))
    if len(lengths) != 1:
        return None
    side = lengths.pop()
    if box is not None:
        return side if side == box.n else None
    if side < 4 or side > 64 or len(block.rows) < side:
        return None
    if is_square_size(side):
        symbols = set(_cells(block.rows, _numeric_block(block.rows)))
        small = set(DIGITS36[: int(side ** 0.5)]) | set(BLANK_CHARS)
        if symbols <= small:
            return None
    return side


def _row_lengths(block: _Block, numeric: bool) -> list[int]:
    return [len(r.ints or []) if numeric else len(r.chars) for r in block.rows]


def _not_a_grid(block: _Block, box: Geometry | None, numeric: bool, source: str) -> str | None:
    """Why a multi-line block is neither a drawn grid nor one puzzle per line, or None."""
    lengths = _row_lengths(block, numeric)
    side, rows = lengths[0], len(lengths)
    if rows < 2 or len(set(lengths)) != 1:
        return None
    where = _where(source, block.rows[0].lineno, block.rows[-1].lineno)
    if box is not None and side not in (box.n, box.n_cells):
        return f"{where}: box {box.box_rows}x{box.box_cols} needs side {box.n}, the puzzle has side {side}"
    if box is None and not is_square_size(side):
        if side == rows < 4:
            return f"{where}: a {side}x{side} grid is too small; the smallest sudoku is 4x4"
        return f"{where}: {rows} rows of {side} cells do not make a square grid"
    return None


def _puzzles_in_block(block: _Block, box: Geometry | None, source: str) -> list[Puzzle]:
    if block.packed is not None:
        return [link_puzzle(block.packed, _where(source, block.rows[0].lineno), box)]
    side = _grid_split(block, box)
    numeric = _numeric_block(block.rows)
    if side is None:
        problem = _not_a_grid(block, box, numeric, source)
        if problem:
            raise InputError(problem)
        return [_single_line(row, box, source) for row in block.rows]
    if len(block.rows) % side:
        first, last = block.rows[0].lineno, block.rows[-1].lineno
        raise InputError(f"{_where(source, first, last)}: {len(block.rows)} rows of {side} cells; "
                         f"a {side}x{side} grid needs {side} rows")
    out = []
    for k in range(0, len(block.rows), side):
        rows = block.rows[k:k + side]
        where = _where(source, rows[0].lineno, rows[-1].lineno)
        sub = _Block(rows, [i - k for i in block.rules if k < i < k + side])
        geometry = _geometry_for(side, box, sub, where)
        out.append(_make(_cells(rows, numeric), numeric, geometry, where))
    return out


def _single_line(row: _Row, box: Geometry | None, source: str) -> Puzzle:
    """One puzzle on one line; a line that is not a grid but decompresses to f-puzzles JSON is read as one."""
    try:
        return _line_grid(row, box, source)
    except InputError:
        token = row.text
        data = unpack(token) if token.isascii() and not any(ch.isspace() for ch in token) else None
        if not isinstance(data, dict):
            raise
        return fpuzzles_puzzle(data, _where(source, row.lineno), box)


def _line_grid(row: _Row, box: Geometry | None, source: str) -> Puzzle:
    where = _where(source, row.lineno)
    numeric = _numeric_block([row])
    tokens = row.ints if numeric and row.ints else row.chars
    count = len(tokens)
    n = int(round(count ** 0.5))
    if box is not None and count != box.n_cells:
        raise InputError(f"{where}: {count} cells, a {box.label} puzzle has {box.n_cells}")
    if box is None and not is_square_size(count):
        raise InputError(f"{where}: {count} cells is not a puzzle size "
                         f"(16, 36, 64, 81, 144, 256, ... cells)")
    return _make(list(tokens), numeric, _geometry_for(n, box, None, where), where)


def parse_puzzles(text: str, box: Geometry | None = None, source: str = "",
                  rules: tuple[str, ...] = ()) -> list[Puzzle]:
    """Every puzzle in a text: one per line, or drawn as grids separated by blank lines, f-puzzles JSON
    or links, or the text form (a grid, then `regions:`, `rules:`, `extra:`); `rules` are added to each.

    >>> [p.n for p in parse_puzzles("1...\\n...2\\n..4.\\n.3..")]
    [4]
    >>> parse_puzzles("1...\\n...2\\n..4.\\n.3..\\nrules: antiking", rules=("x",))[0].geometry.rules
    ('diagonal-', 'diagonal+', 'antiking')
    """
    if is_json_text(text, source):
        puzzles = [read_json_text(text, source, box)]
    elif _has_sections(text):
        puzzles = _text_form_puzzles(text, box, source)
    else:
        puzzles = _plain_puzzles(text, box, source)
    return _with_variant(puzzles, rules) if rules else puzzles


def _with_variant(puzzles: list[Puzzle], rules: tuple[str, ...],
                  extras: list[tuple[int, str]] | None = None, source: str = "",
                  group: _Group | None = None) -> list[Puzzle]:
    """Each puzzle with the rules, the `extra:` lines and a group's thermometers, marks, cages and arrows added, givens
    checked; puzzles of one geometry share one new geometry, built once (its houses and conflicts are then
    computed once)."""
    made: dict[Geometry, Geometry] = {}
    out = []
    for puzzle in puzzles:
        if puzzle.geometry not in made:
            regions = tuple(_extra_region(rest, puzzle.n, k, _where(source, lineno))
                            for k, (lineno, rest) in enumerate(extras or [], len(puzzle.geometry.extra_regions) + 1))
            geometry = geometry_with(puzzle, rules, None, regions)
            made[puzzle.geometry] = _group_sums(_group_marks(geometry, group, source), group, source) if group \
                else geometry
        out.append(checked(Puzzle(made[puzzle.geometry], puzzle.cells, puzzle.alphabet, puzzle.source)))
    return out


def _plain_puzzles(text: str, box: Geometry | None, source: str) -> list[Puzzle]:
    """The puzzles of a text without sections: grids, one-line puzzles and f-puzzles links."""
    puzzles = _block_puzzles(_blocks(text.splitlines()), box, source)
    if not puzzles:
        raise InputError(f"{source or 'input'}: no puzzle found")
    return puzzles


def parse_puzzle(text: str, box: Geometry | None = None) -> Puzzle:
    """Exactly one puzzle from a text.

    >>> parse_puzzle("1000000200400300").n_givens
    4
    """
    puzzles = parse_puzzles(text, box)
    if len(puzzles) != 1:
        raise InputError(f"expected one puzzle, found {len(puzzles)}")
    return puzzles[0]


# --- the text form: a grid, then `regions:`, `rules:`, `extra:`, `thermo:`, mark, `cage:`, `arrow:` sections --

SECTION = re.compile(r"(regions|rules|extra|thermo|white|black|x|v|cage|arrow)\s*:(.*)", re.IGNORECASE)
# a line that looks like a section of cells under a name satdoku does not know (such as 'grey: r1c1 r1c2')
UNKNOWN_SECTION = re.compile(r"([A-Za-z][\w+-]*)\s*:((?:[\s,;]*[rR][0-9]+[cC][0-9]+)+[\s,;]*)")
SECTION_NAMES = ("regions", "rules", "extra", "thermo") + tuple(MARKS) + ("cage", "arrow")


@dataclass
class _Group:
    """Puzzle lines of the text form and the sections after them (which apply to each of those puzzles)."""

    grid: list[tuple[int, str]] = field(default_factory=list)
    regions_at: int | None = None
    regions: list[tuple[int, str]] = field(default_factory=list)
    rules: list[tuple[int, str]] = field(default_factory=list)
    extras: list[tuple[int, str]] = field(default_factory=list)
    thermos: list[tuple[int, str]] = field(default_factory=list)
    marks: list[tuple[int, str, str]] = field(default_factory=list)  # (line, kind, cells)
    cages: list[tuple[int, str]] = field(default_factory=list)
    arrows: list[tuple[int, str]] = field(default_factory=list)

    @property
    def first_section(self) -> int | None:
        """The line of the group's first section, or None when it has none."""
        lines = [self.regions_at] + [k for k, _ in self.rules + self.extras + self.thermos + self.cages + self.arrows] \
            + [k for k, _, _ in self.marks]
        return min((k for k in lines if k is not None), default=None)


def parse_rules(text: str) -> tuple[str, ...]:
    """Rule names or aliases separated by spaces or commas, canonical; an unknown name is an InputError.

    >>> parse_rules("x, antiknight")
    ('diagonal-', 'diagonal+', 'antiknight')
    """
    names = canonical_rules(tuple(t for t in re.split(r"[\s,;]+", text) if t))
    unknown = [name for name in names if name not in NAMED_RULES]
    if unknown:
        raise InputError(f"unknown rule {shown(unknown[0])}; satdoku knows {', '.join(NAMED_RULES)} (and x)")
    if not names:
        raise InputError(f"no rule named; satdoku knows {', '.join(NAMED_RULES)} (and x)")
    return names


def _has_sections(text: str) -> bool:
    """True when a line of the text opens a section (`regions:`, `rules:`, `extra:`, `thermo:`, a mark)."""
    return ":" in text and any(SECTION.fullmatch(line.strip()) or UNKNOWN_SECTION.fullmatch(line.strip())
                               for line in text.splitlines())


def _groups(lines: list[str], source: str) -> list[_Group]:
    """The text form's lines in groups: puzzle lines, then sections; a puzzle line after a section opens
    the next group. The region map is as many rows as its first row has symbols."""
    groups, state = [_Group()], "grid"
    for lineno, raw in enumerate(lines, 1):
        line, group = raw.strip(), groups[-1]
        header = SECTION.fullmatch(line)
        if state == "regions" and header is None:
            if line and not line.startswith("#"):
                group.regions.append((lineno, line))
                state = "sections" if len(group.regions) == _map_width(group) else "regions"
            continue
        if state == "regions":
            raise InputError(_short_map(group, source, lineno))
        if header is None and UNKNOWN_SECTION.fullmatch(line):
            name = line.split(":")[0].strip()
            raise InputError(f"{_where(source, lineno)}: unknown section {shown(name)}; satdoku knows "
                             f"{', '.join(known + ':' for known in SECTION_NAMES)}")
        if header:
            state = _add_section(group, header.group(1).lower(), header.group(2).strip(), lineno, source)
        elif state == "sections" and line and not line.startswith("#"):
            groups.append(_Group([(lineno, raw)]))
            state = "grid"
        elif state == "grid":
            group.grid.append((lineno, raw))
    if state == "regions":
        raise InputError(_short_map(groups[-1], source, None))
    return groups


def _map_width(group: _Group) -> int:
    return len("".join(group.regions[0][1].split()))


def _short_map(group: _Group, source: str, lineno: int | None) -> str:
    rows, width = len(group.regions), _map_width(group) if group.regions else 0
    where = _where(source, group.regions_at or 0)
    until = f"before line {lineno}" if lineno else "before the end"
    if not rows:
        return f"{where}: regions: no map {until}; give one row of symbols per grid row"
    return f"{where}: regions: {rows} rows {until}, a map {width} symbols wide needs {width}"


def _add_section(group: _Group, kind: str, rest: str, lineno: int, source: str) -> str:
    """Record one section line in the group; the state the reader goes on in."""
    if kind == "regions":
        if group.regions_at is not None:
            raise InputError(f"{_where(source, lineno)}: regions: a second map for the same puzzle")
        if rest:
            raise InputError(f"{_where(source, lineno)}: regions: the map goes on the lines below 'regions:'")
        group.regions_at = lineno
        return "regions"
    if kind in MARKS:
        group.marks.append((lineno, kind, rest))
    else:
        {"rules": group.rules, "extra": group.extras, "thermo": group.thermos, "cage": group.cages,
         "arrow": group.arrows}[kind].append((lineno, rest))
    return "sections"


def _block_puzzles(blocks: list[_Block], box: Geometry | None, source: str) -> list[Puzzle]:
    return [puzzle for block in blocks for puzzle in _puzzles_in_block(block, box, source)]


def _text_form_puzzles(text: str, box: Geometry | None, source: str) -> list[Puzzle]:
    """Every puzzle of a text in the text form."""
    puzzles = []
    for group in _groups(text.splitlines(), source):
        puzzles.extend(_group_puzzles(group, box, source))
    return puzzles


def _group_puzzles(group: _Group, box: Geometry | None, source: str) -> list[Puzzle]:
    """The puzzles of a group's lines (consecutive lines of the text), with its sections applied to each."""
    blocks = _blocks([raw for _, raw in group.grid], group.grid[0][0] if group.grid else 1)
    if group.first_section is None:
        return _block_puzzles(blocks, box, source)
    if not blocks:
        raise InputError(f"{_where(source, group.first_section)}: no puzzle above this section")
    if group.regions_at is not None:
        box = _regions_geometry(group, blocks, box, source)
    elif box is None:
        box = _drawn_box(blocks, source)
    return _with_variant(_block_puzzles(blocks, box, source), _section_rules(group, source), group.extras, source,
                         group)


def _drawn_box(blocks: list[_Block], source: str) -> Geometry | None:
    """The geometry of a single drawn grid (n rows of n cells): its rules, or the default box shape."""
    if len(blocks) != 1 or blocks[0].packed is not None:
        return None
    block = blocks[0]
    lengths = set(_row_lengths(block, _numeric_block(block.rows)))
    if lengths != {len(block.rows)} or not 4 <= len(block.rows) <= MAX_SIDE:
        return None
    n = len(block.rows)
    return _geometry_for(n, None, block, _where(source, block.rows[0].lineno, block.rows[-1].lineno))


def _regions_geometry(group: _Group, blocks: list[_Block], box: Geometry | None, source: str) -> Geometry:
    """The geometry a `regions:` map gives: the boxes of a shape, or jigsaw regions."""
    first, last = group.regions[0][0], group.regions[-1][0]
    where = _where(source, first, last)
    if box is not None:
        raise InputError(f"{where}: regions: the file gives its own regions; --box {box.box_rows}x{box.box_cols} "
                         f"applies only to files without them")
    n = len(group.regions)
    symbols = []
    for lineno, line in group.regions:
        row = "".join(line.split())
        if len(row) != n:
            raise InputError(f"{_where(source, lineno)}: regions: a row of {len(row)} symbols, the map's first "
                             f"row has {n}")
        symbols.extend(row)
    if not 4 <= n <= MAX_SIDE:
        raise InputError(f"{where}: regions: a {n}x{n} map; the side must be 4 to {MAX_SIDE}")
    side = _drawn_side(blocks)
    if side is not None and side != n:
        raise InputError(f"{where}: regions: a {n}x{n} map for a {side}x{side} grid")
    try:
        return geometry_of_regions(n, symbols, default_boxes(n))
    except InputError as err:
        raise InputError(f"{where}: regions: {err}") from None


def _drawn_side(blocks: list[_Block]) -> int | None:
    """The side of a single grid drawn on n rows of n cells, or None."""
    if len(blocks) != 1 or blocks[0].packed is not None:
        return None
    lengths = set(_row_lengths(blocks[0], _numeric_block(blocks[0].rows)))
    return len(blocks[0].rows) if lengths == {len(blocks[0].rows)} else None


def _section_rules(group: _Group, source: str) -> tuple[str, ...]:
    rules: tuple[str, ...] = ()
    for lineno, rest in group.rules:
        try:
            rules += parse_rules(rest)
        except InputError as err:
            raise InputError(f"{_where(source, lineno)}: rules: {err}") from None
    return canonical_rules(rules)


def _extra_region(text: str, n: int, k: int, where: str) -> tuple[int, ...]:
    """One `extra:` line: cell names such as r1c1, separated by spaces or commas."""
    try:
        region = tuple(parse_cell(name, n) for name in re.split(r"[\s,;]+", text) if name)
        check_extra_region(region, n, k)
    except InputError as err:
        raise InputError(f"{where}: extra: {err}") from None
    return region


def _cell_names(text: str) -> list[str]:
    """The cell names of a section line, separated by spaces or commas."""
    return [name for name in re.split(r"[\s,;]+", text) if name]


def _group_marks(geometry: Geometry, group: _Group, source: str) -> Geometry:
    """The geometry with the group's `thermo:` lines and mark lines (`white:`, `black:`, `x:`, `v:`) added."""
    n = geometry.n
    thermometers = []
    for k, (lineno, rest) in enumerate(group.thermos, len(geometry.thermometers) + 1):
        try:
            thermometers.append(parse_thermometer(_cell_names(rest), n))
        except InputError as err:
            raise InputError(f"{_where(source, lineno)}: thermo: thermometer {k}: {err}") from None
    marks = []
    for lineno, kind, rest in group.marks:
        try:
            marks.append(parse_mark(kind, _cell_names(rest), n))
        except InputError as err:
            raise InputError(f"{_where(source, lineno)}: {kind}: {err}") from None
    return with_marks(geometry, marks, thermometers)


def parse_cage_line(text: str, n: int, k: int) -> tuple[tuple[int, ...], int | None]:
    """One `cage:` line: an optional total, then cell names; the first word that is not a cell name is the total.

    >>> parse_cage_line("15 r1c1 r1c2 r2c1", 9, 1), parse_cage_line("r5c5, r5c6", 9, 2)
    (((0, 1, 9), 15), ((40, 41), None))
    """
    names = _cell_names(text)
    total = names.pop(0) if names and not CELL_NAME.fullmatch(names[0]) else None
    late = next((name for name in names if _is_number(name)), None)
    if late is not None and CELL_NAME.fullmatch(names[0]):
        raise InputError(f"killer cage {k} at {names[0].lower()}: the total {late!r} goes first (cage: {late} "
                         f"{names[0].lower()} ...)")
    return parse_cage(names, total, n, k)


def _group_sums(geometry: Geometry, group: _Group, source: str) -> Geometry:
    """The geometry with the group's `cage:` lines (a total, then cells) and `arrow:` lines (circle first) added."""
    n = geometry.n
    cages = []
    for k, (lineno, rest) in enumerate(group.cages, len(geometry.cages) + 1):
        try:
            cages.append(parse_cage_line(rest, n, k))
        except InputError as err:
            raise InputError(f"{_where(source, lineno)}: cage: {err}") from None
    arrows = []
    for k, (lineno, rest) in enumerate(group.arrows, len(geometry.arrows) + 1):
        try:
            arrows.append(parse_arrow(_cell_names(rest), n, k))
        except InputError as err:
            raise InputError(f"{_where(source, lineno)}: arrow: {err}") from None
    return with_sums(geometry, cages, arrows)


def read_puzzles(path: str, box: Geometry | None = None, rules: tuple[str, ...] = ()) -> list[Puzzle]:
    """Every puzzle in a file, or on standard input when the path is '-'; `rules` are added to each.

    A line longer than MAX_LINE characters (JSON_MAX_LINE in a .json file), or binary data, is an
    InputError as soon as it is read.
    """
    limit = JSON_MAX_LINE if path.lower().endswith((".json", ".json.gz")) else MAX_LINE
    text = read_text(path, limit, "puzzle")
    return parse_puzzles(text, box, "stdin" if path == "-" else Path(path).name, rules)


def _symbol(v: int, alphabet: str | None, width: int) -> str:
    if not v:
        return ".".rjust(width)
    return alphabet[v - 1] if alphabet else str(v).rjust(width)


def _alphabet_for(puzzle: Puzzle) -> str | None:
    if puzzle.alphabet is not None:
        return puzzle.alphabet
    return DIGITS36[:puzzle.n] if puzzle.n <= 9 else None


def format_line(cells: Sequence[int], puzzle: Puzzle) -> str:
    """One line: characters for alphabets, space-separated integers otherwise.

    >>> p = parse_puzzle("1000000200400300")
    >>> format_line(p.cells, p)
    '1......2..4..3..'
    """
    alphabet = _alphabet_for(puzzle)
    if alphabet:
        return "".join(_symbol(v, alphabet, 1) for v in cells)
    return " ".join(str(v) for v in cells)


def format_grid(cells: Sequence[int], puzzle: Puzzle) -> str:
    """A drawn grid with '|' between boxes and '-+-' rules between bands (a jigsaw: plain rows, since
    its regions cannot be drawn with rules; `--format svg` draws them)."""
    g = puzzle.geometry
    alphabet = _alphabet_for(puzzle)
    width = 1 if alphabet else len(str(g.n))
    if g.regions is not None:
        return "\n".join(" ".join(_symbol(cells[r * g.n + c], alphabet, width) for c in range(g.n))
                         for r in range(g.n))
    lines = []
    for r in range(g.n):
        if r and r % g.box_rows == 0:
            stack = "-" * ((width + 1) * g.box_cols + 1)
            lines.append("+".join([stack] * (g.n // g.box_cols))[1:-1])
        row = [_symbol(cells[r * g.n + c], alphabet, width) for c in range(g.n)]
        stacks = [" ".join(row[c:c + g.box_cols]) for c in range(0, g.n, g.box_cols)]
        lines.append(" | ".join(stacks))
    return "\n".join(lines)


def format_cells(cells: Sequence[int], puzzle: Puzzle, style: str) -> str:
    """A grid in the `line` or `grid` style."""
    if style == "grid":
        return format_grid(cells, puzzle)
    return format_line(cells, puzzle)


def to_text_form(puzzle: Puzzle) -> str:
    """The text form: the grid drawn (plain rows for jigsaw regions), then `regions:`, `rules:`, one
    `extra:` line per extra region, one `thermo:` line per thermometer (bulb first), one line per mark
    (`white:`, `black:`, `x:`, `v:`, two cells), one `cage:` line per killer cage (its total, if any, then its
    cells) and one `arrow:` line per arrow (circle first); classic puzzles are the drawn grid alone.

    >>> from satdoku.models.geometry import Geometry
    >>> print(to_text_form(Puzzle(Geometry(2, 2, rules=("antiking",)), (1,) + (0,) * 15)), end="")
    1 . | . .
    . . | . .
    ----+----
    . . | . .
    . . | . .
    rules: antiking
    """
    g, n = puzzle.geometry, puzzle.n
    if g.regions is None:
        lines = format_grid(puzzle.cells, puzzle).splitlines()
    else:
        lines = [format_line(puzzle.cells[r * n:(r + 1) * n], puzzle) for r in range(n)]
        lines += ["regions:"] + region_map(g)
    if g.rules:
        lines.append("rules: " + " ".join(g.rules))
    lines += ["extra: " + " ".join(cell_name(cell, n) for cell in region) for region in g.extra_regions]
    lines += ["thermo: " + " ".join(cell_name(cell, n) for cell in line) for line in g.thermometers]
    lines += [f"{kind}: {cell_name(a, n)} {cell_name(b, n)}" for kind, a, b in canonical_marks(g.marks)]
    lines += ["cage: " + " ".join(([str(total)] if total is not None else []) + [cell_name(cell, n) for cell in cells])
              for cells, total in g.cages]
    lines += ["arrow: " + " ".join(cell_name(cell, n) for cell in (circle,) + cells) for circle, cells in g.arrows]
    return "\n".join(lines) + "\n"


def region_map(geometry: Geometry) -> list[str]:
    """The boxes or regions as n rows of n symbols, one symbol (from LETTERS) per region.

    >>> region_map(Geometry(2, 2))
    ['AABB', 'AABB', 'CCDD', 'CCDD']
    """
    n = geometry.n
    symbol = {cell: LETTERS[k] for k, region in enumerate(geometry.boxes) for cell in region}
    return ["".join(symbol[r * n + c] for c in range(n)) for r in range(n)]
