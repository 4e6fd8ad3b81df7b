"""The text form (a grid, then `regions:`, `rules:`, `extra:`) read, written and solved; `--variant` on every
command that reads puzzles; bad input is one line on stderr, exit 2, nothing on stdout."""
from __future__ import annotations

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.encoders.dimacs import Answer, write_model
from satdoku.errors import InputError
from satdoku.models.formats import parse_puzzle, parse_puzzles, read_puzzles, region_map, to_text_form
from satdoku.models.geometry import Geometry, windows
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

# Each puzzle has exactly one solution (made by removing givens from a PySAT solution while PySAT counted
# one completion); the text is exactly what to_text_form writes.
TEXT_PUZZLES = {
    "x4": ("""\
. . | . .
. . | 2 3
----+----
. . | 1 .
. . | . .
rules: diagonal- diagonal+
""", "3241142323144132"),
    "jigsaw6": (""".2..1.
3.....
......
..4...
......
...5..
regions:
AAABBB
AACCBB
ACCCDB
EECDDD
EEFFDD
EEFFFF
rules: diagonal+
""", "426315315264563142154623632451241536"),
    "jigsaw5": ("""4....
.45..
2....
...3.
5....
regions:
AAABB
ACABB
CCCBD
ECDDD
EEEED
""", "4215334512213451523453421"),
    "nonconsecutive6": ("""\
. . . | . . .
. . . | . . .
------+------
. 1 . | . . 2
. . . | . . .
------+------
. . . | 1 . .
. . . | . . .
rules: nonconsecutive
""", "462531135264513642246315624153351426"),
    "antiking8_box4x2": ("""\
. 2 | 6 . | . . | . .
. . | . . | 8 . | . .
. . | . 3 | 4 . | . 5
. . | . . | . . | . 3
----+-----+-----+----
. . | . . | . 7 | . .
. . | . . | . 4 | 2 .
. . | 7 . | . 5 | . .
. . | . . | . . | . .
rules: antiking
""", "5264738137518642618342758427516316382754751634284872153623456817"),
    "disjoint6": ("""\
5 . . | . . .
. . . | . . .
------+------
. . . | . 2 .
. . . | . 4 .
------+------
1 . 6 | . . .
. . . | . . .
rules: diagonal- disjointgroups
""", "543261621354314625265143156432432516"),
    "antiknight9_extra": ("""\
. 2 7 | 3 . . | . . .
. . . | . 2 8 | . . .
. . . | . . . | . . .
------+-------+------
3 . 4 | . . . | . . .
. . . | . 6 . | . . .
. . . | 5 . . | . . 7
------+-------+------
. . . | . . . | . . .
. . . | . . . | . . .
. . 9 | 7 8 . | . . 1
rules: antiknight
extra: r1c1 r1c2 r2c1 r2c2
""", "427316958653928714918457326394871265875264193162593487546139872781642539239785641"),
    "windoku9": ("""\
. 2 7 | . . . | 3 . .
. . . | . 9 . | . . .
. . . | . 1 . | . 6 .
------+-------+------
. 9 . | . . . | . . .
. . . | . . . | . 7 .
. . . | . . . | . . .
------+-------+------
. . . | . . . | . . .
. . 8 | . 2 . | 5 . 1
. . 3 | 4 . 8 | . . .
rules: windoku
""", "927645318631892754854713962396271485185934276472586139549167823768329541213458697"),
}
JIGSAW6_MAP = ["AAABBB", "AACCBB", "ACCCDB", "EECDDD", "EEFFDD", "EEFFFF"]
X4_LINE = "......23..1....."


def regions_of(rows: list[str]) -> tuple[tuple[int, ...], ...]:
    """Jigsaw regions from a map of symbols, in order of their first cell."""
    found: dict[str, list[int]] = {}
    for k, symbol in enumerate("".join(rows)):
        found.setdefault(symbol, []).append(k)
    return tuple(tuple(cells) for cells in found.values())


EXPECTED_GEOMETRY = {
    "x4": Geometry(2, 2, ("diagonal-", "diagonal+")),
    "jigsaw6": Geometry(2, 3, ("diagonal+",), regions_of(JIGSAW6_MAP)),
    "jigsaw5": Geometry(1, 5, (), regions_of(["AAABB", "ACABB", "CCCBD", "ECDDD", "EEEED"])),
    "nonconsecutive6": Geometry(2, 3, ("nonconsecutive",)),
    "antiking8_box4x2": Geometry(4, 2, ("antiking",)),
    "disjoint6": Geometry(2, 3, ("diagonal-", "disjointgroups")),
    "antiknight9_extra": Geometry(3, 3, ("antiknight",), None, ((0, 1, 9, 10),)),
    "windoku9": Geometry(3, 3, ("windoku",)),
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """satdoku in this process: exit code, stdout, stderr."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_bad_input(capsys, argv: list[str], *fragments: str) -> str:
    """Exit 2, nothing on stdout, one stderr line holding every fragment."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("satdoku"), err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


def assert_bad_line(capsys, argv: list[str], *fragments: str) -> str:
    """A batch's bad line: exit 2, an `invalid` record for it on stdout, one stderr line holding every fragment."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out.splitlines()[-1] == "invalid", (out, err)
    assert err.count("\n") == 1 and err.startswith("satdoku"), err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


def verified(line: str, puzzle: Puzzle) -> tuple[int, ...]:
    """A printed solution line (digits) as a grid, checked by the independent verifier."""
    grid = tuple(int(ch) for ch in line.strip())
    assert is_solution(grid, puzzle), line
    return grid


def digits(grid: str) -> tuple[int, ...]:
    return tuple(0 if ch == "." else int(ch) for ch in grid)


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", TEXT_PUZZLES)
def test_text_form_reads_each_rule(name: str) -> None:
    text, solution = TEXT_PUZZLES[name]
    puzzle = parse_puzzle(text)
    assert puzzle.geometry == EXPECTED_GEOMETRY[name]
    assert get_backend("pysat").count(puzzle, limit=2) == 1
    assert is_solution(digits(solution), puzzle)


@pytest.mark.parametrize("name", TEXT_PUZZLES)
def test_text_form_round_trips_exactly(name: str) -> None:
    text, _ = TEXT_PUZZLES[name]
    puzzle = parse_puzzle(text)
    assert to_text_form(puzzle) == text
    assert parse_puzzle(to_text_form(puzzle)) == puzzle


@pytest.mark.parametrize("name", TEXT_PUZZLES)
def test_solve_and_check_the_text_form(name: str, tmp_path, capsys) -> None:
    text, solution = TEXT_PUZZLES[name]
    path = write(tmp_path, f"{name}.txt", text)
    puzzle = read_puzzles(path)[0]
    for backend in ("pysat", "dlx"):
        code, out, _ = run(capsys, "solve", path, "--backend", backend)
        assert code == 0 and verified(out, puzzle) == digits(solution)
    code, out, _ = run(capsys, "check", path)
    assert code == 0 and out.split() == ["unique", solution]
    verified(out.split()[1], puzzle)


@pytest.mark.parametrize("name", TEXT_PUZZLES)
def test_export_to_text_reads_back(name: str, tmp_path, capsys) -> None:
    text, _ = TEXT_PUZZLES[name]
    source = write(tmp_path, "in.txt", text)
    target = tmp_path / "out.txt"
    assert run(capsys, "export", source, "--to", "text", "-o", str(target)) == (0, "", "")
    assert target.read_text() == text
    assert read_puzzles(str(target)) == read_puzzles(source)


def test_export_to_text_of_a_classic_puzzle_is_the_drawn_grid(tmp_path, capsys) -> None:
    path = write(tmp_path, "p.txt", "1......2..4..3..\n")
    code, out, _ = run(capsys, "export", path, "--to", "text")
    assert code == 0 and out == "1 . | . .\n. . | . 2\n----+----\n. . | 4 .\n. 3 | . .\n"
    assert parse_puzzle(out) == parse_puzzle("1......2..4..3..")


def test_hand_written_text_form(tmp_path, capsys) -> None:
    """Spaces in the map, digits as region symbols, aliases, commas, upper-case cell names, comments
    and blank lines between the parts."""
    text = """# a 6x6 jigsaw with an anti-diagonal
.2..1.
3.....
......
..4...
......
...5..

# the regions, one symbol each
Regions:
1 1 1 2 2 2
1 1 3 3 2 2
1 3 3 3 4 2
5 5 3 4 4 4
5 5 6 6 4 4
5 5 6 6 6 6

RULES: Diagonal+
"""
    path = write(tmp_path, "hand.txt", text)
    assert read_puzzles(path) == [parse_puzzle(TEXT_PUZZLES["jigsaw6"][0])]
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and out.strip() == TEXT_PUZZLES["jigsaw6"][1]


def test_sections_apply_to_every_puzzle_above_them() -> None:
    text = f"{X4_LINE}\n{X4_LINE}\nrules: x\n\n{X4_LINE}\nrules: antiking, diagonal-\nextra: R1C1,R2C2\n{X4_LINE}\n"
    puzzles = parse_puzzles(text, source="f.txt")
    assert [p.geometry.rules for p in puzzles] == [("diagonal-", "diagonal+")] * 2 + [("diagonal-", "antiking"), ()]
    assert puzzles[2].geometry.extra_regions == ((0, 5),)
    assert [p.source for p in puzzles] == ["f.txt line 1", "f.txt line 2", "f.txt line 5", "f.txt line 8"]


def test_several_drawn_puzzles_in_one_file(tmp_path, capsys) -> None:
    names = ["x4", "jigsaw6", "windoku9"]
    path = write(tmp_path, "many.txt", "\n".join(TEXT_PUZZLES[name][0] for name in names))
    puzzles = read_puzzles(path)
    assert puzzles == [parse_puzzle(TEXT_PUZZLES[name][0]) for name in names]
    code, out, _ = run(capsys, "solve", path)
    assert code == 0
    for line, puzzle, name in zip(out.splitlines(), puzzles, names):
        assert verified(line, puzzle) == digits(TEXT_PUZZLES[name][1])


def test_regions_that_are_boxes_read_as_that_box_shape() -> None:
    rows = ["AABBCCDD"] * 4 + ["EEFFGGHH"] * 4
    puzzle = parse_puzzle("." * 64 + "\nregions:\n" + "\n".join(rows) + "\n")
    assert puzzle.geometry == Geometry(4, 2)
    assert region_map(Geometry(4, 2)) == rows


def test_a_drawn_grid_with_few_symbols_stays_one_puzzle() -> None:
    """4 rows of 4 cells holding only 1 and 2 would read as four one-line puzzles in a plain file; in the
    text form a square drawing is one grid."""
    puzzle = Puzzle(Geometry(2, 2, ("diagonal-", "diagonal+")), digits("1..." + ".2.." + "...." + "...."))
    assert parse_puzzle(to_text_form(puzzle)) == puzzle


def test_prime_side_jigsaw_and_nominal_shape() -> None:
    puzzle = parse_puzzle(TEXT_PUZZLES["jigsaw5"][0])
    assert (puzzle.geometry.box_rows, puzzle.geometry.box_cols) == (1, 5)
    assert sorted(len(b) for b in puzzle.geometry.boxes) == [5] * 5
    assert get_backend("dlx").count(puzzle, limit=2) == 1


def test_windoku_windows_from_the_text_form() -> None:
    puzzle = parse_puzzle(TEXT_PUZZLES["windoku9"][0])
    assert set(windows(9, 3, 3)) <= set(puzzle.geometry.houses)


# --- --variant -------------------------------------------------------------------------------------------

def test_variant_changes_the_count(tmp_path, capsys) -> None:
    path = write(tmp_path, "x.txt", X4_LINE + "\n")
    assert run(capsys, "count", path)[:2] == (0, "6\n")
    assert run(capsys, "count", path, "--variant", "x")[:2] == (0, "1\n")
    assert run(capsys, "count", path, "--variant", "diagonal-, diagonal+")[:2] == (0, "1\n")


def test_variant_on_solve_check_compare(tmp_path, capsys) -> None:
    path = write(tmp_path, "x.txt", X4_LINE + "\n")
    puzzle = parse_puzzle(TEXT_PUZZLES["x4"][0])
    code, out, _ = run(capsys, "solve", path, "--variant", "x", "--backend", "dlx")
    assert code == 0 and verified(out, puzzle) == digits(TEXT_PUZZLES["x4"][1])
    code, out, _ = run(capsys, "check", path, "--variant", "x")
    assert code == 0 and out.split()[0] == "unique"
    verified(out.split()[1], puzzle)
    code, out, _ = run(capsys, "check", path)
    assert code == 1 and out.split()[0] == "multiple"
    code, out, _ = run(capsys, "compare", path, "--variant", "x", "--backends", "dlx,pysat", "--count")
    assert code == 0 and "disagree" in out


def test_variant_on_export_and_decode(tmp_path, capsys) -> None:
    path = write(tmp_path, "x.txt", X4_LINE + "\n")
    puzzle = parse_puzzle(TEXT_PUZZLES["x4"][0])
    code, out, _ = run(capsys, "export", path, "--variant", "x", "--to", "text")
    assert code == 0 and out == TEXT_PUZZLES["x4"][0]
    cnf_path = tmp_path / "x.cnf"
    assert run(capsys, "export", path, "--variant", "x", "-o", str(cnf_path))[0] == 0
    with Solver(name="glucose4", bootstrap_with=CNF(from_file=str(cnf_path))) as solver:
        assert solver.solve()
        model = solver.get_model()
    answer = tmp_path / "answer.txt"
    answer.write_text(write_model(Answer("SAT", model)))
    code, out, _ = run(capsys, "decode", path, str(answer), "--variant", "x")
    assert code == 0 and verified(out, puzzle) == digits(TEXT_PUZZLES["x4"][1])


def test_variant_joins_the_rules_of_the_file(tmp_path, capsys) -> None:
    text, _ = TEXT_PUZZLES["antiknight9_extra"]
    path = write(tmp_path, "ak.txt", text)
    puzzle = read_puzzles(path, rules=("x",))[0]
    assert puzzle.geometry.rules == ("diagonal-", "diagonal+", "antiknight")
    assert puzzle.geometry.extra_regions == ((0, 1, 9, 10),)
    code, out, _ = run(capsys, "solve", path, "--variant", "antiknight")  # already there: the same puzzle
    assert code == 0 and out.strip() == TEXT_PUZZLES["antiknight9_extra"][1]


def test_variant_with_box(tmp_path, capsys) -> None:
    path = write(tmp_path, "k.txt", ".26.........8......34..5.......3.....7.......42...7..5..........\n")
    puzzle = read_puzzles(path, Geometry(4, 2), ("antiking",))[0]
    assert puzzle.geometry == Geometry(4, 2, ("antiking",))
    code, out, _ = run(capsys, "solve", path, "--box", "4x2", "--variant", "anti-king")
    assert code == 0 and verified(out, puzzle) == digits(TEXT_PUZZLES["antiking8_box4x2"][1])


@pytest.mark.parametrize("command", ["solve", "count", "check", "compare", "export"])
def test_unknown_variant_is_one_line(command: str, tmp_path, capsys) -> None:
    path = write(tmp_path, "x.txt", X4_LINE + "\n")
    assert_bad_input(capsys, [command, path, "--variant", "x,antibishop"], "--variant", "'antibishop'")


def test_decode_takes_variant_too(tmp_path, capsys) -> None:
    path = write(tmp_path, "x.txt", X4_LINE + "\n")
    assert_bad_input(capsys, ["decode", path, path, "--variant", "sandwich"], "--variant", "'sandwich'")


def test_variant_that_makes_givens_clash(tmp_path, capsys) -> None:
    path = write(tmp_path, "d.txt", "1..............1\n")
    assert run(capsys, "count", path)[0] == 0
    assert_bad_line(capsys, ["solve", path, "--variant", "x"], "d.txt line 1", "diagonal 1", "r1c1", "r4c4")


def test_windoku_without_room_is_one_line(tmp_path, capsys) -> None:
    path = write(tmp_path, "w.txt", "." * 25 + "\n")
    assert_bad_line(capsys, ["solve", path, "--box", "1x5", "--variant", "windoku"], "w.txt line 1", "windoku")


# --- bad text forms ---------------------------------------------------------------------------------------

JIGSAW_GRID = ".2..1.\n3.....\n......\n..4...\n......\n...5..\n"


def jigsaw_text(rows: list[str], tail: str = "") -> str:
    return JIGSAW_GRID + "regions:\n" + "\n".join(rows) + "\n" + tail


BAD_TEXT = [
    ("short map", jigsaw_text(JIGSAW6_MAP[:5]), [], ["bad.txt line 7", "regions:", "5 rows"]),
    ("short row", jigsaw_text(JIGSAW6_MAP[:5] + ["EEFFF"]), [], ["bad.txt line 13", "regions:", "5 symbols"]),
    ("region too big", jigsaw_text(JIGSAW6_MAP[:5] + ["EEFFFD"]), [], ["bad.txt lines 8-13", "region of r3c5",
                                                                     "7 cells"]),
    ("map for another side", JIGSAW_GRID + "regions:\nAAABB\nAACCB\nACCCD\nEECDD\nEEFFD\n", [],
     ["bad.txt lines 8-12", "a 5x5 map for a 6x6 grid"]),
    ("box and map", jigsaw_text(JIGSAW6_MAP), ["--box", "2x3"], ["bad.txt lines 8-13", "--box 2x3"]),
    ("unknown rule", jigsaw_text(JIGSAW6_MAP, "rules: x, frobnicate\n"), [],
     ["bad.txt line 14", "rules:", "'frobnicate'"]),
    ("cell outside", jigsaw_text(JIGSAW6_MAP, "extra: r1c1 r7c1\n"), [], ["bad.txt line 14", "extra:", "'r7c1'",
                                                                         "outside the 6x6 grid"]),
    ("not a cell name", jigsaw_text(JIGSAW6_MAP, "extra: r1c1 b2\n"), [], ["bad.txt line 14", "'b2'"]),
    ("extra too big", X4_LINE + "\nextra: r1c1 r1c2 r1c3 r1c4 r2c1\n", [], ["bad.txt line 2", "extra region 1",
                                                                            "5 cells"]),
    ("diagonal clash", "1...\n....\n..1.\n....\nrules: diagonal-\n", [], ["bad.txt lines 1-4", "diagonal 1",
                                                                          "r1c1", "r3c3"]),
    ("jigsaw clash", jigsaw_text(JIGSAW6_MAP).replace("3.....\n......\n", "3.....\n2.....\n"), [],
     ["bad.txt lines 1-6", "digit 2 twice in region 1", "r1c2", "r3c1"]),
    ("disjoint jigsaw", jigsaw_text(JIGSAW6_MAP, "rules: disjointgroups\n"), [], ["bad.txt lines 1-6",
                                                                                 "disjoint groups"]),
    ("section first", "rules: x\n" + X4_LINE + "\n", [], ["bad.txt line 1", "no puzzle above"]),
    ("map on the header line", X4_LINE + "\nregions: AABB\n", [], ["bad.txt line 2", "regions:"]),
    ("second map", jigsaw_text(JIGSAW6_MAP, "regions:\n"), [], ["bad.txt line 14", "second map"]),
]


@pytest.mark.parametrize("text,args,fragments", [case[1:] for case in BAD_TEXT], ids=[case[0] for case in BAD_TEXT])
def test_bad_text_forms(text: str, args: list[str], fragments: list[str], tmp_path, capsys) -> None:
    path = write(tmp_path, "bad.txt", text)
    assert_bad_input(capsys, ["solve", path, *args], *fragments)


def test_jigsaw_givens_clash_in_regions_not_in_boxes() -> None:
    """r1c1 and r2c3 share the 2x3 box 1 but not a jigsaw region (A and C): a 5 in each is fine."""
    rows = ["5.....", "..5...", "......", "......", "......", "......"]
    assert parse_puzzle("\n".join(rows) + "\nregions:\n" + "\n".join(JIGSAW6_MAP)).n_givens == 2
    with pytest.raises(InputError, match="digit 5 twice in box 1"):
        parse_puzzle("\n".join(rows))


def test_count_of_an_empty_variant_grid(tmp_path, capsys) -> None:
    path = write(tmp_path, "empty.txt", "." * 16 + "\n")
    assert run(capsys, "count", path, "--variant", "x")[:2] == (0, "48\n")
