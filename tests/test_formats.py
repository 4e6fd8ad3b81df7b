"""Puzzle formats: every style round-trips on every geometry; alphabets, drawn grids, many per file."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satdoku.errors import InputError
from satdoku.models.formats import DIGITS, HEX, format_grid, format_line, parse_puzzle, parse_puzzles
from satdoku.models.generate import random_puzzle
from satdoku.models.geometry import Geometry, default_geometry

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (2, 5), (4, 4), (5, 5), (6, 6)]
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_line_round_trip(shape: tuple[int, int]) -> None:
    g = Geometry(*shape)
    for seed in range(3):
        p = random_puzzle(g, random.Random(seed))
        text = format_line(p.cells, p)
        box = None if default_geometry(g.n) == g else g
        assert parse_puzzle(text, box) == p


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_grid_round_trip_infers_boxes_from_rules(shape: tuple[int, int]) -> None:
    g = Geometry(*shape)
    p = random_puzzle(g, random.Random(7))
    back = parse_puzzle(format_grid(p.cells, p))
    assert back == p and back.geometry == g


def test_default_box_shapes() -> None:
    assert [default_geometry(n) for n in (4, 6, 8, 9, 12, 16, 25)] == [
        Geometry(2, 2), Geometry(2, 3), Geometry(2, 4), Geometry(3, 3), Geometry(3, 4),
        Geometry(4, 4), Geometry(5, 5)]


@pytest.mark.parametrize("blank", list(".0*_-xX"))
def test_blank_characters(blank: str) -> None:
    p = parse_puzzle(INKALA.replace(".", blank))
    assert p.n == 9 and p.n_givens == 21 and p.cells[0] == 8


def test_multiline_forms_agree() -> None:
    plain = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    ss = """8..|...|...
..3|6..|...
.7.|.9.|2..
-----------
.5.|..7|...
...|.45|7..
...|1..|.3.
-----------
..1|...|.68
..8|5..|.1.
.9.|...|4.."""
    sdk = "#A Arto Inkala\n#D hardest\n" + plain.replace(".", "0")
    spaced = "\n".join(" ".join(INKALA[i:i + 9]) for i in range(0, 81, 9))
    euler = "Grid 01\n" + plain
    expected = parse_puzzle(INKALA)
    for text in (plain, ss, sdk, spaced, euler):
        assert parse_puzzle(text) == expected


def test_many_puzzles_with_comments_and_blank_lines() -> None:
    text = f"# a comment\n{INKALA}\n\n# another\n1000000200400300\n\n" + "1 0 0 0\n0 0 0 2\n0 0 4 0\n0 3 0 0\n"
    puzzles = parse_puzzles(text, source="f.txt")
    assert [p.n for p in puzzles] == [9, 4, 4]
    assert puzzles[1] == puzzles[2]
    assert puzzles[0].source == "f.txt line 2" and puzzles[2].source == "f.txt lines 7-10"


def test_several_drawn_grids_without_blank_lines() -> None:
    grid = "1...\n...2\n..4.\n.3..\n"
    assert len(parse_puzzles(grid * 3)) == 3


def test_one_per_line_4x4_is_not_a_16x16_grid() -> None:
    lines = "\n".join(["1000000200400300"] * 16)
    puzzles = parse_puzzles(lines)
    assert len(puzzles) == 16 and all(p.n == 4 for p in puzzles)


def test_16x16_alphabets() -> None:
    p = random_puzzle(Geometry(4, 4), random.Random(3), 0.3)
    letters = "".join(".123456789ABCDEFG"[v] for v in p.cells)
    hex_form = "".join(".0123456789ABCDEF"[v] for v in p.cells)
    ints = " ".join(map(str, p.cells))
    for text in (letters, letters.lower(), hex_form, ints):
        assert parse_puzzle(text) == p
    assert parse_puzzle(letters).alphabet == "123456789ABCDEFG"
    assert parse_puzzle(hex_form).alphabet == "0123456789ABCDEF"
    assert format_line(p.cells, parse_puzzle(hex_form)) == hex_form


def test_25x25_letters_and_integers() -> None:
    p = random_puzzle(Geometry(5, 5), random.Random(4), 0.3)
    letters = "".join(".ABCDEFGHIJKLMNOPQRSTUVWXY"[v] for v in p.cells)
    assert parse_puzzle(letters) == p
    assert parse_puzzle(",".join(map(str, p.cells))) == p


def test_shared_16x16_and_25x25_sets_parse(shared_puzzles) -> None:
    for name, n, count in (("sudoku_16x16_box4x4.txt", 16, 22), ("sudoku_25x25_box5x5.txt", 25, 7)):
        puzzles = parse_puzzles((shared_puzzles / name).read_text(), source=name)
        assert len(puzzles) == count and {p.n for p in puzzles} == {n}


@pytest.mark.parametrize("text, fragment", [
    ("8" * 80, "80 cells is not a puzzle size"),
    (INKALA[:40] + "z" + INKALA[41:], "r5c5: unknown character 'z'"),
    ("1000000200500300", "r3c3: digit '5' out of range"),
    ("1 0 0 0 0 0 2 0 0 0 4 0 0 3 0 17", "r4c4: digit 17 out of range 1-4"),
    ("1100000200400300", "digit 1 twice in row 1: r1c1 and r1c2"),
    ("1...\n1...\n....\n....", "digit 1 twice in column 1: r1c1 and r2c1"),
    ("12.\n...\n...", "a 3x3 grid is too small"),
    ("1234567\n" * 7, "side 7 has no box shape other than 1x7"),
    ("1...\n...2\n..4.", "3 rows of 4 cells"),
    ("# only a comment\n", "no puzzle found"),
])
def test_bad_input_messages(text: str, fragment: str) -> None:
    with pytest.raises(InputError) as err:
        parse_puzzles(text, source="in.txt")
    message = str(err.value)
    assert fragment in message and "\n" not in message


def test_box_that_does_not_fit() -> None:
    with pytest.raises(InputError, match=r"81 cells, a 6x6 \(2x3 boxes\) puzzle has 36"):
        parse_puzzle(INKALA, Geometry(2, 3))
    drawn = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    with pytest.raises(InputError, match="box 2x4 needs side 8, the puzzle has side 9"):
        parse_puzzle(drawn, Geometry(2, 4))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789.ABCGxz |+-#,\n \t")), max_size=400))
def test_random_text_raises_only_input_errors(text: str) -> None:
    try:
        puzzles = parse_puzzles(text)
    except InputError as err:
        assert str(err) and "\n" not in str(err)
    else:
        assert all(len(p.cells) == p.n * p.n for p in puzzles)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_unicode_raises_only_input_errors(text: str) -> None:
    try:
        parse_puzzles(text)
    except InputError:
        pass


def test_hex_reaches_past_16() -> None:
    p = random_puzzle(Geometry(4, 5), random.Random(20), 0.3)
    hex_form = "".join(("." + HEX)[v] for v in p.cells)
    parsed = parse_puzzle(hex_form)
    assert parsed == p and parsed.alphabet == HEX[:20]
    assert format_line(p.cells, parsed) == hex_form


def test_lowercase_25x25_letters_still_fold() -> None:
    p = random_puzzle(Geometry(5, 5), random.Random(6), 0.3)
    letters = "".join((".ABCDEFGHIJKLMNOPQRSTUVWXY"[v]) for v in p.cells)
    assert parse_puzzle(letters.lower()) == p


def test_x_is_a_blank_until_it_is_a_digit() -> None:
    p = random_puzzle(Geometry(6, 6), random.Random(8), 0.5)
    text = "".join("x" if v == 0 else DIGITS[v - 1] for v in p.cells)
    assert parse_puzzle(text) == p  # 'x' is digit 59 of the digits alphabet: a blank at 36x36


@pytest.mark.parametrize("text, fragment", [
    ("1,0,0,0,0,0,0,2,0,0,4,0,0,3,0,\u00b2", "r4c4: unknown character '\u00b2'"),
    ("1 0 0 0 0 0 0 2 0 0 4 0 0 3 0 " + "9" * 5000, "r4c4: digit 999999999... out of range 1-4"),
    ("1\u0131..\n...2\n..4.\n.3..", "r1c2: unknown character '\u0131'"),
    ("1\u00df..\n...2\n..4.\n.3..", "r1c2: unknown character '\u00df'"),
], ids=["superscript", "5000-digits", "dotless-i", "sharp-s"])
def test_only_documented_characters(text: str, fragment: str) -> None:
    with pytest.raises(InputError) as err:
        parse_puzzles(text, source="in.txt")
    assert fragment in str(err.value) and "\n" not in str(err.value)
