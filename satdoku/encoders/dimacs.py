"""DIMACS CNF in and out, and the answers SAT solvers print (SAT-competition `s`/`v` lines, MiniSat's file).

`Dimacs.to_text` and `Dimacs.from_text` are each other's inverse, like PySAT's CNF.to_file and
CNF.from_file; `dimacs_for(puzzle)` says in `c` lines what the file encodes and how its variables
are numbered, and projects (`c ind ... 0`) onto the placement variables so that model counters
count grids rather than auxiliary assignments.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from satdoku.deadline import Deadline
from satdoku.encoders.cnf import BLOCK_CLAUSES, DEFAULT_AMO, DEFAULT_ENCODING, VarMap, check_choice, encode
from satdoku.errors import InputError
from satdoku.models.formats import format_line
from satdoku.models.geometry import CONFLICT_RULES, Geometry, cut, plural, shown
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Puzzle, cell_name

DIMACS_GIVENS = ("units", "simplify")
IND_PER_LINE = 20
MAX_VARIABLE = 2 ** 31 - 1  # the largest variable DIMACS solvers take (a C int); larger literals are refused
INTEGER = re.compile(r"-?[0-9]+")
COUNT = re.compile(r"[0-9]{1,10}")
INTEGER_LINE = re.compile(r"\s*(?:-?[0-9]+(?:\s+|$))*")


@dataclass
class Dimacs:
    """A CNF formula with its comment lines and an optional projection (`c ind`) onto some variables.

    >>> text = Dimacs(3, [[1, -2], [2, 3]], ["hello"], [1, 2]).to_text()
    >>> print(text, end="")
    c hello
    c ind 1 2 0
    p cnf 3 2
    1 -2 0
    2 3 0
    >>> Dimacs.from_text(text) == Dimacs(3, [[1, -2], [2, 3]], ["hello"], [1, 2])
    True
    """

    n_vars: int
    clauses: list[list[int]]
    comments: list[str] = field(default_factory=list)
    projection: list[int] = field(default_factory=list)

    def to_text(self) -> str:
        """The formula as DIMACS text: comments, `c ind` lines, the `p cnf` header, one clause a line."""
        return "".join(self.text_blocks())

    def text_blocks(self, block: int = BLOCK_CLAUSES) -> Iterator[str]:
        """`to_text` in pieces of about `block` lines, so a large formula is written (or stopped) a piece at a time."""
        lines = [f"c {c}" if c else "c" for c in self.comments]
        for k in range(0, len(self.projection), IND_PER_LINE):
            lines.append("c ind " + " ".join(map(str, self.projection[k:k + IND_PER_LINE])) + " 0")
        lines.append(f"p cnf {self.n_vars} {len(self.clauses)}")
        yield "\n".join(lines) + "\n"
        for start in range(0, len(self.clauses), block):
            yield "".join(" ".join(map(str, clause)) + " 0\n" if clause else "0\n"
                          for clause in self.clauses[start:start + block])

    @classmethod
    def from_text(cls, text: str, source: str = "DIMACS") -> "Dimacs":
        """Read DIMACS CNF; a missing or wrong header, a stray token or a variable out of range is an InputError."""
        comments: list[str] = []
        projection: list[int] = []
        header: tuple[int, int] | None = None
        clauses: list[list[int]] = []
        current: list[int] = []
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line == "%":  # SATLIB's end marker
                break
            if not line:
                continue
            if line.startswith("c"):
                body = line[1:].strip()
                if body.startswith("ind ") or body == "ind":
                    projection.extend(_ints(body[3:], source, lineno, allow_zero_end=True))
                elif header is None:
                    comments.append(body)
                continue
            if line.startswith("p"):
                header = _header(line, source, lineno, header)
                continue
            if header is None:
                raise InputError(f"{source} line {lineno}: clause before the 'p cnf' header")
            for lit in _ints(line, source, lineno):
                if abs(lit) > header[0]:
                    raise InputError(f"{source} line {lineno}: literal {lit} beyond the {header[0]} "
                                     f"variables of the header")
                if lit == 0:
                    clauses.append(current)
                    current = []
                else:
                    current.append(lit)
        if header is None:
            raise InputError(f"{source}: no 'p cnf VARIABLES CLAUSES' header")
        if current:
            clauses.append(current)
        if len(clauses) != header[1]:
            raise InputError(f"{source}: the header promises {header[1]} clauses, the file has {len(clauses)}")
        return cls(header[0], clauses, comments, projection)


def _ints(text: str, source: str, lineno: int, allow_zero_end: bool = False,
          limit: int = MAX_VARIABLE) -> list[int]:
    """The integers of a line (ASCII, an optional '-', magnitude at most `limit`); anything else is
    an InputError naming the token.

    >>> _ints("1 -2 0", "f", 1)
    [1, -2, 0]
    >>> _ints("1 --5 0", "f", 3)
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: f line 3: '--5' is not an integer
    """
    if not INTEGER_LINE.fullmatch(text):
        raise InputError(f"{source} line {lineno}: {shown(_bad_token(text))} is not an integer")
    tokens = text.split()
    long = next((t for t in tokens if len(t) > 11), None)  # never int() thousands of digits
    values = [int(token) for token in tokens] if long is None else []
    if long is not None or any(abs(v) > limit for v in values):
        lit = long if long is not None else str(next(v for v in values if abs(v) > limit))
        raise InputError(f"{source} line {lineno}: literal {cut(lit)} is beyond "
                         f"the largest variable, {limit}")
    if allow_zero_end:
        values = [v for v in values if v != 0]
    return values


def _bad_token(text: str) -> str:
    """The first word of a line that is not an integer DIMACS may hold, or the line's first word."""
    words = text.split()
    return next((w for w in words if not INTEGER.fullmatch(w)), words[0] if words else text)


def _is_int(word: str) -> bool:
    """True for a word of ASCII digits with an optional leading '-' (not '--5', not '²')."""
    return INTEGER.fullmatch(word) is not None


def _header(line: str, source: str, lineno: int, seen: tuple[int, int] | None) -> tuple[int, int]:
    parts = line.split()
    if seen is not None:
        raise InputError(f"{source} line {lineno}: a second 'p' header")
    if len(parts) != 4 or parts[1] != "cnf" or not all(COUNT.fullmatch(p) for p in parts[2:]):
        raise InputError(f"{source} line {lineno}: expected 'p cnf VARIABLES CLAUSES', found {shown(line, 60)}")
    n_vars, n_clauses = int(parts[2]), int(parts[3])
    if max(n_vars, n_clauses) > MAX_VARIABLE:
        raise InputError(f"{source} line {lineno}: {shown(line, 60)} has more than {MAX_VARIABLE} "
                         f"variables or clauses")
    return n_vars, n_clauses


def _numbering_rest(varmap: VarMap) -> str:
    """The variables after the placements: the killer cages' and arrows' options, then auxiliaries."""
    p, options, top = varmap.n_placements, varmap.matrix.n_options, varmap.n_vars
    text = f", {p + 1}..{options} killer cage and arrow options" if options > p else ""
    return text + (f", {max(p, options) + 1}..{top} auxiliary" if top > max(p, options) else "")


def _describe(puzzle: Puzzle, varmap: VarMap, encoding: str, amo: str, givens: str, names: bool) -> list[str]:
    g = puzzle.geometry
    n = g.n
    p = varmap.n_placements
    lines = [f"satdoku: a {g.label} sudoku as CNF",
             f"puzzle: {format_line(puzzle.cells, puzzle)}" + (f" ({puzzle.source})" if puzzle.source else ""),
             f"geometry: n={n} box={g.box_rows}x{g.box_cols}" + _rules_comment(g),
             f"encoding: {encoding}, at-most-one: {amo}, givens: {givens} ({puzzle.n_givens} givens)",
             f"numbering: variable v = r*{n * n} + c*{n} + d + 1 is digit d+1 in row r+1, column c+1 "
             f"(r, c, d from 0); 1..{p} are placements" + _numbering_rest(varmap)]
    if givens == "simplify":
        lines.append("givens simplified away (Kwon & Jain): their variables and those they rule out "
                     "occur in no clause; `c ind` lists the free placements")
    if not g.is_classic:
        lines += _constraint_lines(g, names)
    if names:
        matrix = varmap.matrix
        lines += [f"name {o + 1} {matrix.option_name(o)}" for o in range(p)]
    return lines


def _plural(kind: str) -> str:
    """The plural ending of a house kind: 'boxes', 'rows'."""
    return "es" if kind.endswith("x") else "s"


def _constraint_lines(g: Geometry, names: bool) -> list[str]:
    """What a variant's clauses say, family by family; with `names`, every house, region and conflict."""
    kinds = Counter(g.house_kinds)
    lines = ["constraints: exactly one digit per cell; each digit exactly once in "
             + ", ".join(f"{count} {kind}{_plural(kind) if count > 1 else ''}" for kind, count in kinds.items())]
    if g.at_most_once:
        lines.append(f"constraints: each digit at most once in {len(g.at_most_once)} small regions")
    if g.conflicts:
        lines.append(f"constraints: {len(g.conflicts)} conflicts, one binary clause each "
                     f"({', '.join(r for r in g.rules if r in CONFLICT_RULES)})")
    matrix = exact_cover(g)
    for group in matrix.groups:
        what = "digit sets" if group.kind == "killer cage" else "digit tuples (circle first)"
        lines.append(f"constraints: {group.kind} {group.number} at {cell_name(group.cells[0], g.n)}: exactly one of "
                     f"{group.n_options} {what}, variables {group.first_option + 1}..{group.first_option + group.n_options}")
    if names:
        n = g.n
        lines += [f"house {name}: {' '.join(cell_name(c, n) for c in cells)}"
                  for name, cells in zip(g.house_names, g.houses)]
        lines += [f"small region {k + 1}: {' '.join(cell_name(c, n) for c in cells)}"
                  for k, cells in enumerate(g.at_most_once)]
        lines += [f"conflict {cell_name(a, n)}={da + 1} {cell_name(b, n)}={db + 1}" for a, da, b, db in g.conflicts]
        lines += [f"variable {o + 1}: {matrix.option_name(o)}" for o in range(matrix.n_placements, matrix.n_options)]
    return lines


def _rules_comment(g: Geometry) -> str:
    """The variant rules a formula also encodes, for its `c geometry` line ('' for a classic grid)."""
    parts = list(g.rules) + (["jigsaw regions"] if g.regions is not None else []) + \
        ([f"{len(g.extra_regions)} extra regions"] if g.extra_regions else []) + \
        ([plural(len(g.marks), "mark")] if g.marks else []) + \
        ([plural(len(g.thermometers), "thermometer")] if g.thermometers else []) + \
        ([plural(len(g.cages), "killer cage")] if g.cages else []) + ([plural(len(g.arrows), "arrow")] if g.arrows else [])
    return f" rules={','.join(p.replace(' ', '_') for p in parts)}" if parts else ""


def dimacs_for(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
               givens: str = "units", names: bool = False, deadline: Deadline | None = None) -> tuple[Dimacs, VarMap]:
    """The puzzle as DIMACS with comments describing it and a projection onto its placement variables.

    >>> from satdoku.models.formats import parse_puzzle
    >>> d, _ = dimacs_for(parse_puzzle("1000000200400300"))
    >>> d.n_vars, len(d.clauses), d.projection[-1]
    (64, 452, 64)
    """
    check_choice("givens mode for DIMACS", givens, DIMACS_GIVENS)
    if amo == "native":
        raise InputError("native at-most-one constraints are not DIMACS CNF; "
                         "choose --amo pairwise, seqcounter, bitwise or ladder")
    cnf, varmap = encode(puzzle, encoding, amo, givens, deadline)
    comments = _describe(puzzle, varmap, encoding, amo, givens, names)
    return Dimacs(varmap.n_vars, cnf.clauses, comments, varmap.placement_vars()), varmap


@dataclass
class Answer:
    """What a SAT solver said: 'SAT', 'UNSAT' or 'UNKNOWN', and the model's literals when SAT."""

    status: str
    model: list[int] = field(default_factory=list)


_STATUS_WORDS = {"SATISFIABLE": "SAT", "SAT": "SAT", "UNSATISFIABLE": "UNSAT", "UNSAT": "UNSAT",
                 "UNKNOWN": "UNKNOWN", "INDETERMINATE": "UNKNOWN", "INDET": "UNKNOWN", "TIMEOUT": "UNKNOWN"}


def read_answer(text: str, source: str = "solver output", max_var: int = MAX_VARIABLE) -> Answer:
    """A solver's answer: SAT-competition `s`/`v` lines, MiniSat's result file, or bare model literals.

    Lines that are none of these (a solver's banner, statistics) are skipped. A literal beyond
    `max_var` or a malformed one ('--5') is an InputError naming the line.

    >>> read_answer("c hi\\ns SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
    Answer(status='SAT', model=[1, -2, 3])
    >>> read_answer("UNSAT\\n").status
    'UNSAT'
    """
    status: str | None = None
    model: list[int] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if not words or words[0] == "c":
            continue
        if words[0] == "s":
            status = _status(" ".join(words[1:]), source, lineno)
        elif words[0] == "v":
            model.extend(_ints(" ".join(words[1:]), source, lineno, limit=max_var))
        elif len(words) == 1 and words[0].upper() in _STATUS_WORDS and status is None:
            status = _STATUS_WORDS[words[0].upper()]
        elif all(_is_int(w) for w in words):
            model.extend(_ints(raw, source, lineno, limit=max_var))
    model = [v for v in model if v != 0]
    if status is None:
        if not model:
            raise InputError(f"{source}: no answer found (expected 's SATISFIABLE' and 'v' lines, "
                             f"or MiniSat's SAT/UNSAT result file)")
        status = "SAT"
    if status == "SAT" and not model:
        raise InputError(f"{source}: says satisfiable but gives no model (no 'v' lines)")
    return Answer(status, model)


def _status(word: str, source: str, lineno: int) -> str:
    key = word.upper().replace(" ", "")
    if key not in _STATUS_WORDS:
        raise InputError(f"{source} line {lineno}: unknown status {shown(word)}")
    return _STATUS_WORDS[key]


def write_model(answer: Answer) -> str:
    """An answer in the SAT-competition output format, the inverse of `read_answer`.

    >>> write_model(Answer("SAT", [1, -2]))
    's SATISFIABLE\\nv 1 -2 0\\n'
    """
    words = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "UNKNOWN": "UNKNOWN"}
    lines = [f"s {words[answer.status]}"]
    if answer.status == "SAT":
        lines.append("v " + " ".join(map(str, answer.model)) + " 0")
    return "\n".join(lines) + "\n"
