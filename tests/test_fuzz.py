"""Property-based fuzzing of every file-reading entry point and numeric option, through the CLI in-process.

Puzzle files in every format (one-line, drawn grids with '|' and '-+-' rules, integer grids, .sdk
with '#' comments, several per file), mutated and truncated, random text and bytes, odd sizes; DIMACS
models given to `decode`; output paths that cannot be written; --box, --limit, --index, --jobs and
--workers at their limits. For every run: no exception escapes `main`, the exit code is a documented
one, a failure is one line on stderr (and, for exit 2, nothing on stdout), a failed run touches no
output file. The dlx backend and grids up to 6x6 keep each example to a few milliseconds.

The default run has 4,500 examples; `pytest -m fuzz tests/test_fuzz.py` runs ten times as many.
"""
from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from satdoku.cli import main
from satdoku.errors import InputError
from satdoku.models.formats import format_grid, format_line
from satdoku.models.generate import random_grid
from satdoku.models.geometry import Geometry, parse_box
from satdoku.models.puzzle import Grid, Puzzle
from tests.conftest import PUZZLES

EXIT_CODES = {0, 1, 2, 3, 4}
GEOMETRIES = [Geometry(2, 2), Geometry(2, 3), Geometry(3, 2)]
HUGE = "9" * 5000
ODD_CHARS = list("0123456789.*_-xX|+=#,; \t\nABCGabcz") + ["\u00b2", "\u0663", "\x00", "\ufffd", "\r", "\x0c",
                                                           "\u0131", "@", "~", "[", "Grid ", "9" * 30]
NUMBER_TEXTS = ["0", "1", "2", "3", "4", "-1", "+1", " 2", "2 ", "", "1e3", "0x10", "1_0", "\u00b2", "\u0663",
                "00", "007", "-0", "nan", "inf", "9" * 18, "9" * 19, "1" + "0" * 18, str(2 ** 31 - 1),
                str(2 ** 31), str(2 ** 63), HUGE]


def examples(count: int) -> Callable:
    """Hypothesis settings for a fuzz test: `count` examples, no per-example deadline."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


LONG = 10  # each test has a twin marked `fuzz` with LONG times the examples


@pytest.fixture(autouse=True)
def long_runs_only_when_asked(request) -> None:
    """Tests marked `fuzz` run only when selected with `-m fuzz`."""
    if request.node.get_closest_marker("fuzz") and "fuzz" not in (request.config.option.markexpr or ""):
        pytest.skip("long fuzz run: pytest -m fuzz tests/test_fuzz.py")


# ---------------------------------------------------------------- running the CLI


class Workspace:
    """Files for one test: a puzzle file, a model file, an output folder with one sentinel file."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.puzzle = root / "puzzle.txt"
        self.model = root / "model.txt"
        self.out_dir = root / "out"
        self.out_dir.mkdir(exist_ok=True)
        self.out = self.out_dir / "out.cnf"

    def write(self, path: Path, data: str | bytes) -> str:
        if isinstance(data, str):
            data = data.encode("utf-8", errors="surrogatepass")
        path.write_bytes(data)
        return str(path)

    def reset_output(self) -> None:
        for child in self.out_dir.iterdir():
            child.unlink()
        self.out.write_text("sentinel\n")

    def output_untouched(self) -> bool:
        return [p.name for p in self.out_dir.iterdir()] == ["out.cnf"] and self.out.read_text() == "sentinel\n"


@pytest.fixture
def work(tmp_path) -> Workspace:
    return Workspace(tmp_path)


def run_cli(argv: list[str], capsys, stdin: bytes | None = None) -> tuple[int, str, str]:
    """One in-process run: exit code, stdout, stderr; `stdin` feeds '-'."""
    capsys.readouterr()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        code = main(argv)
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    return code, out, err


def check_outcome(argv: list[str], code: int, out: str, err: str, allowed: set[int] = EXIT_CODES) -> None:
    """The contract of every run: a documented exit code, failures as one line; exit 2 with output only for a
    batch whose bad lines each got an `invalid` record and one stderr line naming the file and line."""
    assert isinstance(code, int) and code in allowed, (argv, code, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    if code == 2 and out:
        invalid = [line for line in out.splitlines() if line.startswith("invalid") or '"status": "invalid"' in line]
        assert invalid and len(lines) >= len(invalid), (argv, out, err)
        assert all(line.startswith("satdoku: ") and " line " in line for line in lines), (argv, err)
    elif code in (2, 4):
        assert len(lines) == 1 and lines[0].startswith("satdoku"), (argv, err)


# ---------------------------------------------------------------- strategies


def odd_text(max_size: int) -> st.SearchStrategy[str]:
    """Text made of the characters and pieces that parsers trip over."""
    return st.lists(st.sampled_from(ODD_CHARS), max_size=max_size).map("".join)


@st.composite
def solved_puzzles(draw) -> tuple[Puzzle, Grid]:
    """A random 4x4 or 6x6 puzzle (2x3 or 3x2 boxes) with the grid it was cut from."""
    g = draw(st.sampled_from(GEOMETRIES))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    grid = random_grid(g, rng)
    blank = draw(st.floats(0.2, 1.0))
    cells = tuple(0 if rng.random() < blank else v for v in grid)
    return Puzzle(g, cells), grid


def render(puzzle: Puzzle, style: str, blank: str) -> str:
    """A puzzle in one of the formats the readers take."""
    n = puzzle.n
    line = format_line(puzzle.cells, puzzle).replace(".", blank)
    rows = [line[r * n:(r + 1) * n] for r in range(n)]
    if style == "line":
        return line
    if style == "grid":
        return format_grid(puzzle.cells, puzzle).replace(".", blank)
    if style == "rows":
        return "\n".join(rows)
    if style == "spaced":
        return "\n".join(" ".join(row) for row in rows)
    if style == "ints":
        return " ".join(map(str, puzzle.cells))
    if style == "commas":
        return ",".join(map(str, puzzle.cells))
    if style == "int-rows":
        return "\n".join(" ".join(str(v) for v in puzzle.cells[r * n:(r + 1) * n]) for r in range(n))
    if style == "sdk":
        return "#A fuzz\n#D a puzzle\n" + "\n".join(rows).replace(blank, "0")
    if style == "titled":
        return "Grid 01\n" + "\n".join(rows)
    return line.lower()


STYLES = ["line", "grid", "rows", "spaced", "ints", "commas", "int-rows", "sdk", "titled", "lower"]


@st.composite
def valid_files(draw) -> str:
    """One to three puzzles in any style, with comments and blank lines between."""
    texts = []
    for _ in range(draw(st.integers(1, 3))):
        puzzle, _ = draw(solved_puzzles())
        texts.append(render(puzzle, draw(st.sampled_from(STYLES)), draw(st.sampled_from(list(".0*_-x")))))
        if draw(st.booleans()):
            texts.append("# a comment")
    return draw(st.sampled_from(["\n\n", "\n\n\n", "\r\n\r\n"])).join(texts) + draw(st.sampled_from(["", "\n"]))


@st.composite
def mutated(draw, base: st.SearchStrategy[str]) -> str:
    """A text with characters replaced, inserted, deleted, lines doubled or dropped, or cut short."""
    text = draw(base)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "double", "drop"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if op == "replace" and text:
            text = text[:at] + draw(st.sampled_from(ODD_CHARS)) + text[at + 1:]
        elif op == "insert":
            text = text[:at] + draw(odd_text(4)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)):]
        elif op == "truncate":
            text = text[:at]
        else:
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [lines[k]] * 2 if op == "double" else []
            text = "\n".join(lines)
    return text


@st.composite
def odd_sizes(draw) -> str:
    """Lines and grids of sizes that are not, or not quite, sudoku sizes."""
    side = draw(st.integers(1, 11))
    cells = draw(st.sampled_from([side * side, side * side - 1, side * side + 1, side]))
    symbols = draw(st.text(st.sampled_from(list(".123456789ABCDEFG0")), min_size=cells, max_size=cells))
    if draw(st.booleans()):
        return symbols
    return "\n".join(symbols[k:k + side] for k in range(0, len(symbols), side))


PUZZLE_DATA = st.one_of(
    valid_files(),
    valid_files(),
    mutated(valid_files()),
    mutated(valid_files()),
    odd_sizes(),
    odd_text(120),
    st.text(max_size=60),
    st.binary(max_size=200),
)


def commands(puzzle: str, model: str, out: str) -> list[list[str]]:
    """The commands that read a puzzle file, each bounded (dlx, limits) so every run is quick."""
    return [
        ["solve", "-b", "dlx", puzzle],
        ["solve", "-b", "dlx", "-f", "grid", puzzle],
        ["solve", "-b", "dlx", "-f", "json", puzzle],
        ["solve", "-b", "dlx", "--limit", "2", puzzle],
        ["count", "-b", "dlx", "--limit", "3", puzzle],
        ["check", "-b", "dlx", puzzle],
        ["compare", puzzle, "--backends", "dlx,logic"],
        ["compare", puzzle, "--backends", "dlx", "--count", "--limit", "3", "-f", "csv"],
        ["export", puzzle, "-o", out],
        ["export", puzzle, "--givens", "simplify", "-o", out + ".gz"],
        ["decode", puzzle, model],
    ]


def good_model(puzzle: Puzzle, grid: Grid) -> list[int]:
    """A SAT model of the grid: every placement variable, true where the grid has that digit."""
    n = puzzle.n
    return [(1 if grid[cell] == d + 1 else -1) * (cell * n + d + 1) for cell in range(n * n) for d in range(n)]


def run_file_command(argv: list[str], work: Workspace, capsys, stdin: bytes | None) -> None:
    """Run one command on the workspace's files and check the contract and the output file."""
    work.reset_output()
    code, out, err = run_cli(argv, capsys, stdin)
    allowed = EXIT_CODES if argv[0] == "decode" else EXIT_CODES - {4}  # dlx never misbehaves
    check_outcome(argv, code, out, err, allowed)
    if argv[0] == "export" and code != 0:
        assert work.output_untouched(), (argv, err)
    if argv[0] == "export" and code == 0 and "-o" in argv:
        target = Path(argv[argv.index("-o") + 1])
        assert target.read_bytes()[:2] in (b"c ", b"\x1f\x8b")


# ---------------------------------------------------------------- puzzle files


def fuzz_puzzle_file(data, work: Workspace, capsys) -> None:
    content = data.draw(PUZZLE_DATA, label="content")
    via_stdin = data.draw(st.booleans(), label="stdin")
    raw = content if isinstance(content, bytes) else content.encode("utf-8", errors="surrogatepass")
    path = "-" if via_stdin else work.write(work.puzzle, raw)
    model = work.write(work.model, "s SATISFIABLE\nv " + " ".join(map(str, range(1, 37))) + " 0\n")
    argv = data.draw(st.sampled_from(commands(path, model, str(work.out))), label="command")
    box = data.draw(st.one_of(st.none(), st.sampled_from(["2x2", "2x3", "3x2", "3x3", "1x4"])), label="box")
    if box and argv[0] != "decode":
        argv = argv + ["--box", box]
    run_file_command(argv, work, capsys, raw if via_stdin else None)


@examples(2500)
@given(data=st.data())
def test_puzzle_files(data, work, capsys) -> None:
    fuzz_puzzle_file(data, work, capsys)


@pytest.mark.fuzz
@examples(2500 * LONG)
@given(data=st.data())
def test_puzzle_files_long(data, work, capsys) -> None:
    fuzz_puzzle_file(data, work, capsys)


# ---------------------------------------------------------------- DIMACS models for decode


WEIRD_TOKENS = ["--5", "-", "+3", "\u00b2", "\u0663", "1e3", "0x10", "1_000", "-0", "00", "9" * 20, "-" + "9" * 20,
                HUGE, str(2 ** 31 - 1), str(2 ** 31), "s", "v", "c", "SAT", "UNSAT", "\x00", "\ufffd", "p cnf 3 1"]
HEADS = ["s SATISFIABLE\nv ", "SAT\n", "", "c banner\ns SATISFIABLE\nv ", "s UNSATISFIABLE\n", "s UNKNOWN\n",
         "UNSAT\n", "INDET\n", "s MAYBE\n", "s\n"]


@st.composite
def model_texts(draw, puzzle: Puzzle, grid: Grid) -> str:
    """A solver's answer for the puzzle: good, with tokens replaced, dropped or negated, cut short, or noise."""
    literals = [str(v) for v in good_model(puzzle, grid)]
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["weird", "drop", "negate", "number"]))
        k = draw(st.integers(0, len(literals) - 1))
        if op == "weird":
            literals[k] = draw(st.sampled_from(WEIRD_TOKENS))
        elif op == "drop":
            del literals[k]
        elif op == "negate":
            literals[k] = literals[k][1:] if literals[k].startswith("-") else "-" + literals[k]
        else:
            literals[k] = str(draw(st.integers(-(2 ** 70), 2 ** 70)))
        if not literals:
            break
    per_line = draw(st.sampled_from([10, 1000]))
    body = "\nv ".join(" ".join(literals[i:i + per_line]) for i in range(0, len(literals), per_line))
    head = draw(st.sampled_from(HEADS))
    text = head + (body + " 0\n" if head.endswith(("v ", "SAT\n")) or not head else "")
    if draw(st.booleans()):
        text = text[:draw(st.integers(0, len(text)))]
    return text


def fuzz_model(data, work: Workspace, capsys) -> None:
    puzzle, grid = data.draw(solved_puzzles(), label="puzzle")
    puzzle_text = render(puzzle, data.draw(st.sampled_from(STYLES)), ".")
    box = [] if puzzle.geometry == Geometry(2, 2) or puzzle.geometry == Geometry(2, 3) else ["--box", "3x2"]
    content = data.draw(st.one_of(model_texts(puzzle, grid), odd_text(80),
                                  st.binary(max_size=120)), label="model")
    style = data.draw(st.sampled_from([[], ["-f", "grid"], ["-f", "json"], ["--index", "1"]]), label="options")
    argv = ["decode", work.write(work.puzzle, puzzle_text), work.write(work.model, content)] + box + style
    run_file_command(argv, work, capsys, None)


@examples(1000)
@given(data=st.data())
def test_models_given_to_decode(data, work, capsys) -> None:
    fuzz_model(data, work, capsys)


@pytest.mark.fuzz
@examples(1000 * LONG)
@given(data=st.data())
def test_models_given_to_decode_long(data, work, capsys) -> None:
    fuzz_model(data, work, capsys)


# ---------------------------------------------------------------- numeric options at their limits


NUMBERS = st.one_of(st.sampled_from(NUMBER_TEXTS), st.integers(-3, 10 ** 20).map(str))
BOXES = st.one_of(st.sampled_from(["2x3", "3x2", "2x2", "1x6", "6x1", "0x6", "2X3", "2*3", " 2 x 3 ", "2x3x1", "x",
                                   "\u00b2x3", "2x\u0663", "\uff12x3", HUGE + "x2", "2x" + HUGE, "64x1", "8x8"]),
                  st.builds("{}x{}".format, NUMBERS, NUMBERS))
UNIQUE_6X6 = str(PUZZLES / "6x6_box2x3.txt")


def numeric_commands(number: str, box: str, two: str, out: str, model: str) -> list[list[str]]:
    """Commands with one numeric option (or --box) set to `number` (`box`); `two` holds two puzzles."""
    return [
        ["solve", "-b", "dlx", "--limit", number, UNIQUE_6X6],
        ["solve", "-b", "dlx", "--jobs", number, UNIQUE_6X6],
        ["solve", "-b", "dlx", "--workers", number, UNIQUE_6X6],
        ["count", "-b", "dlx", "--limit", number, UNIQUE_6X6],
        ["compare", UNIQUE_6X6, "--backends", "dlx", "--count", "--limit", number],
        ["export", two, "--index", number, "-o", out],
        ["decode", two, model, "--index", number],
        ["solve", "-b", "dlx", "--box", box, UNIQUE_6X6],
        ["count", "-b", "dlx", "--limit", "2", "--box", box, UNIQUE_6X6],
        ["export", UNIQUE_6X6, "--box", box, "-o", out],
        ["grids", box],
    ]


def fuzz_numbers(data, work: Workspace, capsys) -> None:
    number = data.draw(NUMBERS, label="number")
    box = data.draw(BOXES, label="box")
    two = work.write(work.puzzle, "1000000200400300\n.......2..4..3..\n")
    model = work.write(work.model, "s SATISFIABLE\nv " + " ".join(map(str, good_model(
        Puzzle(Geometry(2, 2), (0,) * 16), (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)))) + " 0\n")
    argv = data.draw(st.sampled_from(numeric_commands(number, box, two, str(work.out), model)), label="command")
    if argv[0] == "grids":  # 2x5 and 3x3 are real counts of seconds: only shapes that fail or count fast
        try:
            assume(parse_box(box).n <= 8)
        except InputError:
            pass
    run_file_command(argv, work, capsys, None)


@examples(800)
@given(data=st.data())
def test_numeric_options_at_their_limits(data, work, capsys) -> None:
    fuzz_numbers(data, work, capsys)


@pytest.mark.fuzz
@examples(800 * LONG)
@given(data=st.data())
def test_numeric_options_at_their_limits_long(data, work, capsys) -> None:
    fuzz_numbers(data, work, capsys)


# ---------------------------------------------------------------- output paths


def output_paths(work: Workspace) -> list[str]:
    """Paths `export -o` may be given: folders, missing folders, links, long and odd names."""
    folder_link = work.root / "folder_link"
    if not folder_link.exists():
        folder_link.symlink_to(work.out_dir)
    return [str(work.out_dir), str(work.out_dir) + "/", str(work.out_dir / "missing" / "x.cnf"),
            str(work.out / "below-a-file.cnf"), str(folder_link), "", str(work.out_dir / ("n" * 300)),
            str(work.out_dir / "new\nline.cnf"), str(work.out), str(work.out_dir / "x.cnf.gz")]


def fuzz_output_path(data, work: Workspace, capsys) -> None:
    path = data.draw(st.sampled_from(output_paths(work)), label="path")
    puzzle = data.draw(st.sampled_from([UNIQUE_6X6, str(PUZZLES / "example_4x4.txt"), str(work.puzzle)]))
    work.write(work.puzzle, data.draw(st.one_of(st.just("1...\n...2\n..4.\n.3..\n"), mutated(valid_files()))))
    argv = ["export", puzzle, "-o", path] + data.draw(st.sampled_from([[], ["--to", "dimacs"], ["--names"]]))
    work.reset_output()
    code, out, err = run_cli(argv, capsys)
    check_outcome(argv, code, out, err, EXIT_CODES - {4})
    if code != 0:
        assert work.output_untouched(), (argv, err)
    for extra in work.out_dir.iterdir():
        assert not extra.name.endswith(".part"), (argv, extra)
        if extra.is_file() and extra != work.out:
            extra.unlink()


@examples(200)
@given(data=st.data())
def test_output_paths(data, work, capsys) -> None:
    fuzz_output_path(data, work, capsys)


@pytest.mark.fuzz
@examples(200 * LONG)
@given(data=st.data())
def test_output_paths_long(data, work, capsys) -> None:
    fuzz_output_path(data, work, capsys)


# ---------------------------------------------------------------- the CP-SAT worker count


@pytest.mark.parametrize("number", ["1", "64", "100000", str(2 ** 31 - 1), str(2 ** 31), "9" * 18])
def test_cpsat_workers_at_their_limits(number: str, capsys) -> None:
    """--workers reaches CP-SAT: every value argparse accepts ends in a documented exit code and one line."""
    pytest.importorskip("ortools")
    argv = ["solve", "-b", "cpsat", "--workers", number, str(PUZZLES / "example_4x4.txt")]
    code, out, err = run_cli(argv, capsys)
    check_outcome(argv, code, out, err)
