"""Thermometers, kropki dots, X and V and the negative rules in f-puzzles JSON (`thermometer`, `difference`,
`ratio`, `xv`, `negative`) and in the text form (`thermo:`, `white:`, `black:`, `x:`, `v:`, `rules:`): read,
solved, written back; bad input is one line on stderr, exit 2, nothing on stdout."""
from __future__ import annotations

import json

import pytest

from satdoku.backends.registry import get_backend
from satdoku.models.formats import parse_puzzle, parse_puzzles, read_puzzles, to_text_form
from satdoku.models.fpuzzles import fpuzzles_object, to_fpuzzles, to_fpuzzles_link
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.test_variant_input import assert_bad_input, digits, run, verified, write

# A 4x4 by hand, as f-puzzles writes it: every V given (negative XV), one white dot, a bent thermometer
# and one given. Unique (PySAT counted one completion while givens were removed from its solution).
V4_JSON = """{"size":4,"title":"V and a thermometer","author":"satdoku tests","ruleset":"All V are given.",
"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{"value":1,"given":true},{}]],
"thermometer":[{"lines":[["R3C2","R2C1","R2C2"]]}],
"difference":[{"cells":["R1C1","R1C2"]}],
"xv":[{"cells":["R1C1","R2C1"],"value":"V"},{"cells":["R1C2","R2C2"],"value":"V"},
{"cells":["R1C3","R2C3"],"value":"V"},{"cells":["R1C4","R2C4"],"value":"V"},
{"cells":["R3C1","R4C1"],"value":"V"},{"cells":["R3C2","R4C2"],"value":"V"},
{"cells":["R3C3","R4C3"],"value":"V"},{"cells":["R3C4","R4C4"],"value":"V"}],
"negative":["xv"],"killercage":[],"arrow":[]}
"""
V4_SOLUTION = "2134342112434312"

# A 6x6 without givens: every kropki dot given, both negatives (f-puzzles writes the white dots' negative as
# `nonconsecutive` beside the dots, the black one as "ratio" in `negative`), a thermometer, two X.
KROPKI6_JSON = """{"size":6,"title":"Kropki 6","author":"satdoku tests","ruleset":"All dots are given.",
"grid":[[{},{},{},{},{},{}],[{},{},{},{},{},{}],[{},{},{},{},{},{}],[{},{},{},{},{},{}],[{},{},{},{},{},{}],
[{},{},{},{},{},{}]],
"nonconsecutive":true,"negative":["ratio"],
"thermometer":[{"lines":[["R6C2","R5C1","R4C2","R3C2"]]}],
"difference":[{"cells":["R1C1","R2C1"]},{"cells":["R1C2","R2C2"]},{"cells":["R1C3","R1C4"]},
{"cells":["R1C4","R2C4"]},{"cells":["R1C6","R2C6"]},{"cells":["R2C5","R3C5"]},{"cells":["R3C2","R4C2"]},
{"cells":["R3C3","R3C4"]},{"cells":["R3C3","R4C3"]},{"cells":["R3C4","R4C4"]},{"cells":["R3C5","R3C6"]},
{"cells":["R3C5","R4C5"]},{"cells":["R4C1","R4C2"]},{"cells":["R4C2","R5C2"]},{"cells":["R4C3","R4C4"]},
{"cells":["R5C1","R6C1"]},{"cells":["R5C2","R5C3"]},{"cells":["R5C3","R6C3"]},{"cells":["R5C5","R6C5"]},
{"cells":["R5C6","R6C6"]}],
"ratio":[{"cells":["R1C2","R1C3"]},{"cells":["R2C2","R3C2"]},{"cells":["R2C5","R2C6"]},{"cells":["R2C6","R3C6"]},
{"cells":["R3C2","R3C3"]},{"cells":["R4C1","R5C1"]},{"cells":["R4C4","R4C5"]},{"cells":["R4C5","R5C5"]},
{"cells":["R5C1","R5C2"]},{"cells":["R5C5","R5C6"]},{"cells":["R6C4","R6C5"]}],
"xv":[{"cells":["R2C4","R2C5"],"value":"X"},{"cells":["R6C3","R6C4"],"value":"X"}]}
"""
KROPKI6_SOLUTION = "624513531642163254452361245136316425"

# The 4x4 as the text form writes it
V4_TEXT = """\
. . | . .
. . | . .
----+----
. . | . .
. . | 1 .
rules: negative-xv
thermo: r3c2 r2c1 r2c2
white: r1c1 r1c2
v: r1c1 r2c1
v: r1c2 r2c2
v: r1c3 r2c3
v: r1c4 r2c4
v: r3c1 r4c1
v: r3c2 r4c2
v: r3c3 r4c3
v: r3c4 r4c4
"""
SAMPLES = {"v4": (V4_JSON, V4_SOLUTION), "kropki6": (KROPKI6_JSON, KROPKI6_SOLUTION)}


def sample(name: str) -> Puzzle:
    return parse_puzzles(SAMPLES[name][0], source=f"{name}.json")[0]


def test_the_4x4_reads_every_key() -> None:
    g = sample("v4").geometry
    assert g.rules == ("negative-xv",) and g.thermometers == ((9, 4, 5),)
    assert g.marks == (("white", 0, 1), ("v", 0, 4), ("v", 1, 5), ("v", 2, 6), ("v", 3, 7), ("v", 8, 12),
                       ("v", 9, 13), ("v", 10, 14), ("v", 11, 15))


def test_the_6x6_reads_nonconsecutive_beside_dots_as_the_white_negative() -> None:
    g = sample("kropki6").geometry
    assert g.rules == ("negative-difference", "negative-ratio")
    assert g.thermometers == ((31, 24, 19, 13),)
    assert [kind for kind, _, _ in g.marks] == ["white"] * 20 + ["black"] * 11 + ["x"] * 2
    assert g.marks[-2:] == (("x", 9, 10), ("x", 32, 33))


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("backend", ["pysat", "dlx", "cpsat"])
def test_samples_are_unique_on_each_backend(name: str, backend: str) -> None:
    puzzle = sample(name)
    result = get_backend(backend).solve(puzzle)
    assert is_solution(result.grid, puzzle) and result.grid == digits(SAMPLES[name][1])
    assert get_backend(backend).count(puzzle, limit=2) == 1


@pytest.mark.parametrize("name", SAMPLES)
def test_solve_and_check_on_the_command_line(name: str, tmp_path, capsys) -> None:
    path = write(tmp_path, f"{name}.json", SAMPLES[name][0])
    puzzle = read_puzzles(path)[0]
    code, out, _ = run(capsys, "solve", path, "--backend", "dlx")
    assert code == 0 and verified(out, puzzle) == digits(SAMPLES[name][1])
    code, out, _ = run(capsys, "check", path)
    assert code == 0 and out.split() == ["unique", SAMPLES[name][1]]


def test_each_key_is_read() -> None:
    """Without any one of its keys a sample reads as another puzzle; the 4x4 needs its thermometer."""
    for name in SAMPLES:
        data = json.loads(SAMPLES[name][0])
        for key in set(data) & {"negative", "nonconsecutive", "thermometer", "difference", "ratio", "xv"}:
            fewer = {k: v for k, v in data.items() if k != key}
            assert parse_puzzles(json.dumps(fewer))[0] != sample(name), (name, key)
    v4 = {k: v for k, v in json.loads(V4_JSON).items() if k != "thermometer"}
    assert get_backend("pysat").count(parse_puzzles(json.dumps(v4))[0], limit=2) == 2


def test_the_white_negative_by_name_and_dot_values() -> None:
    """`negative` may name "difference" itself; a dot's value 1 (white) or 2 (black) is the standard dot."""
    data = json.loads(KROPKI6_JSON)
    named = dict(data, negative=["ratio", "difference"])
    del named["nonconsecutive"]
    valued = dict(data, difference=[dict(dot, value="1") for dot in data["difference"]],
                  ratio=[dict(dot, value=2) for dot in data["ratio"]])
    assert parse_puzzles(json.dumps(named))[0] == sample("kropki6") == parse_puzzles(json.dumps(valued))[0]


def test_nonconsecutive_without_dots_stays_nonconsecutive() -> None:
    data = json.loads(V4_JSON)
    del data["difference"]
    data["nonconsecutive"] = True
    assert parse_puzzles(json.dumps(data))[0].geometry.rules == ("nonconsecutive", "negative-xv")


def test_a_branching_thermometer_is_two_thermometers() -> None:
    data = {"size": 4, "grid": [[{}] * 4] * 4, "thermometer": [{"lines": [["R1C1", "R1C2"], ["R1C1", "R2C1", "R3C1"]]}]}
    assert parse_puzzles(json.dumps(data))[0].geometry.thermometers == ((0, 1), (0, 4, 8))


def test_the_text_form_of_the_4x4() -> None:
    puzzle = sample("v4")
    assert to_text_form(puzzle) == V4_TEXT
    assert parse_puzzle(V4_TEXT) == puzzle


def test_hand_written_text_form_with_marks(tmp_path, capsys) -> None:
    """Marks in any order and case, commas, upper-case cells; they apply to every puzzle above them."""
    text = ("." * 14 + "1.\n" + "." * 14 + "1.\n# every V is given\nRULES: negative-xv\nV: R1C1, R2C1\n"
            + "white: r1c1 r1c2\n"
            + "".join(f"v: {a} {b}\n" for a, b in (("r1c2", "r2c2"), ("r1c3", "r2c3"), ("r1c4", "r2c4"),
                                                   ("r3c1", "r4c1"), ("r3c2", "r4c2"), ("r3c3", "r4c3"),
                                                   ("r3c4", "r4c4")))
            + "Thermo: r3c2 r2c1 r2c2\n")
    path = write(tmp_path, "hand.txt", text)
    puzzles = read_puzzles(path)
    assert puzzles == [sample("v4")] * 2
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and [verified(line, puzzles[0]) for line in out.splitlines()] == [digits(V4_SOLUTION)] * 2


@pytest.mark.parametrize("name", SAMPLES)
def test_round_trips_in_python(name: str) -> None:
    puzzle = sample(name)
    assert parse_puzzles(to_fpuzzles(puzzle), source="p.json") == [puzzle]
    assert parse_puzzles(to_fpuzzles_link(puzzle)) == [puzzle]
    assert parse_puzzle(to_text_form(puzzle)) == puzzle
    assert to_text_form(parse_puzzle(to_text_form(puzzle))) == to_text_form(puzzle)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("target,file", [("text", "out.txt"), ("fpuzzles", "out.json"),
                                         ("fpuzzles-link", "out.link")])
def test_export_reads_back(name: str, target: str, file: str, tmp_path, capsys) -> None:
    source = write(tmp_path, f"{name}.json", SAMPLES[name][0])
    puzzle = read_puzzles(source)[0]
    out = tmp_path / file
    assert run(capsys, "export", source, "--to", target, "-o", str(out)) == (0, "", "")
    assert read_puzzles(str(out)) == [puzzle]
    code, solved, _ = run(capsys, "solve", str(out), "--backend", "dlx")
    assert code == 0 and verified(solved, puzzle) == digits(SAMPLES[name][1])


def test_written_json_has_f_puzzles_shapes() -> None:
    data = fpuzzles_object(sample("kropki6"))
    assert data["thermometer"] == [{"lines": [["R6C2", "R5C1", "R4C2", "R3C2"]]}]
    assert data["difference"][0] == {"cells": ["R1C1", "R2C1"]} and len(data["difference"]) == 20
    assert data["ratio"][0] == {"cells": ["R1C2", "R1C3"]} and len(data["ratio"]) == 11
    assert data["xv"] == [{"cells": ["R2C4", "R2C5"], "value": "X"}, {"cells": ["R6C3", "R6C4"], "value": "X"}]
    assert data["nonconsecutive"] is True and data["negative"] == ["difference", "ratio"]
    v4 = fpuzzles_object(sample("v4"))
    assert v4["negative"] == ["xv"] and v4["xv"][0] == {"cells": ["R1C1", "R2C1"], "value": "V"}
    assert "nonconsecutive" not in v4


def test_marks_written_in_one_order() -> None:
    """Both formats keep marks by kind (white, black, x, v), so what is written reads back equal."""
    g = Geometry(2, 2).with_marks((("v", 0, 4), ("white", 0, 1)), ((9, 4, 5),))
    puzzle = Puzzle(g, (0,) * 16)
    back = parse_puzzle(to_text_form(puzzle)).geometry
    assert back.marks == (("white", 0, 1), ("v", 0, 4)) == parse_puzzles(to_fpuzzles(puzzle))[0].geometry.marks


def test_nonconsecutive_beside_dots_has_no_f_puzzles_form(tmp_path, capsys) -> None:
    path = write(tmp_path, "nc.txt", "." * 16 + "\nrules: nonconsecutive\nblack: r1c1 r1c2\n")
    assert run(capsys, "export", path, "--to", "text")[0] == 0
    assert_bad_input(capsys, ["export", path, "--to", "fpuzzles"], "nonconsecutive", "--to text")


# --- bad input ----------------------------------------------------------------------------------------------

def json4(**keys) -> str:
    return json.dumps({"size": 4, "grid": [[{}] * 4] * 4, **keys})


BAD_JSON = [
    ("thermometer too long", json4(thermometer=[{"lines": [["R1C1", "R1C2", "R1C3", "R1C4", "R2C4"]]}]),
     ["rule 'thermometer' 1", "5 cells from r1c1", "4 digits"]),
    ("thermometer repeats a cell", json4(thermometer=[{"lines": [["R1C1", "R1C2", "R1C1"]]}]),
     ["rule 'thermometer' 1", "r1c1 twice"]),
    ("thermometer of one cell", json4(thermometer=[{"lines": [["R2C2"]]}]), ["rule 'thermometer' 1", "r2c2"]),
    ("thermometer cell outside", json4(thermometer=[{"lines": [["R1C1", "R5C1"]]}]),
     ["rule 'thermometer' 1", "'R5C1'", "outside the 4x4 grid"]),
    ("thermometer without lines", json4(thermometer=[{"cells": ["R1C1", "R1C2"]}]), ["rule 'thermometer' 1", "lines"]),
    ("dot with one cell", json4(difference=[{"cells": ["R1C1"]}]), ["rule 'difference' 1", "1 cell", "r1c1"]),
    ("dot with three cells", json4(ratio=[{"cells": ["R1C1", "R1C2", "R1C3"]}]), ["rule 'ratio' 1", "3 cell", "r1c1"]),
    ("dot cell outside", json4(difference=[{"cells": ["R4C4", "R4C5"]}]), ["rule 'difference' 1", "'R4C5'", "outside"]),
    ("dot on one cell twice", json4(ratio=[{"cells": ["R2C2", "R2C2"]}]), ["rule 'ratio' 1", "r2c2 twice"]),
    ("difference of 2", json4(difference=[{"cells": ["R3C1", "R3C2"], "value": "2"}]),
     ["rule 'difference' with value \"2\" is not supported yet", "r3c1"]),
    ("ratio of 3", json4(ratio=[{"cells": ["R3C1", "R3C2"], "value": "3"}]),
     ["rule 'ratio' with value \"3\" is not supported yet", "r3c1"]),
    ("xv of another letter", json4(xv=[{"cells": ["R2C3", "R2C4"], "value": "S"}]), ["rule 'xv'", '"S"', "r2c3"]),
    ("xv without value", json4(xv=[{"cells": ["R2C3", "R2C4"]}]), ["rule 'xv'", "null", "r2c3"]),
    ("xv cell outside", json4(xv=[{"cells": ["R2C3", "R9C4"], "value": "X"}]), ["rule 'xv' 1", "'R9C4'"]),
    ("negative of sums", json4(negative=["sum"]), ["rule 'negative' of \"sum\" is not supported yet"]),
    ("negative not a list", json4(negative="ratio"), ["rule 'negative'", "a list"]),
    ("thermometer not a list", json4(thermometer={"lines": []}), ["rule 'thermometer'", "list of objects"]),
    ("killer cage of a question mark", json4(killercage=[{"cells": ["R2C3", "R2C4"], "value": "?"}]),
     ["rule 'killercage': killer cage 1 at r2c3", "total \"?\""]),
    ("cage with a value out of reach", json4(cage=[{"cells": ["R3C3"], "value": "7"}]), ["rule 'cage'", "killer cage"]),
    ("arrow from a pill", json4(arrow=[{"cells": ["R1C1", "R2C1"], "lines": [["R1C1", "R1C2"]]}]),
     ["rule 'arrow' with a 2-cell circle (a pill)", "r1c1"]),
    ("sandwich", json4(sandwichsum=[{"cell": "R0C1", "value": "5"}]), ["rule 'sandwichsum'"]),
    ("little killer", json4(littlekillersum=[{"cell": "R0C1", "cells": ["R1C2", "R2C3"], "direction": "DR",
                                              "value": "3"}]), ["rule 'littlekillersum'", "r0c1"]),
]


@pytest.mark.parametrize("text,fragments", [case[1:] for case in BAD_JSON], ids=[case[0] for case in BAD_JSON])
def test_bad_json(text: str, fragments: list[str], tmp_path, capsys) -> None:
    path = write(tmp_path, "puzzle.json", text)
    assert_bad_input(capsys, ["solve", path], "satdoku: puzzle.json: ", *fragments)


EMPTY4 = "....\n" * 4
BAD_TEXT = [
    ("mark with one cell", "white: r1c1\n", ["bad.txt line 5", "white:", "1 cell", "r1c1"]),
    ("mark with three cells", "x: r1c1 r1c2 r1c3\n", ["bad.txt line 5", "x:", "3 cell", "r1c1"]),
    ("mark cell outside", "black: r4c4 r5c4\n", ["bad.txt line 5", "black:", "'r5c4'", "outside the 4x4 grid"]),
    ("mark not a cell name", "v: r1c1 b2\n", ["bad.txt line 5", "v:", "'b2'"]),
    ("unknown mark", "grey: r1c1 r1c2\n", ["bad.txt line 5", "unknown section 'grey'", "white:"]),
    ("thermometer too long", "thermo: r1c1 r1c2 r1c3 r1c4 r2c4\n", ["bad.txt line 5", "thermo:", "thermometer 1",
                                                                    "5 cells from r1c1"]),
    ("thermometer repeats a cell", "rules: x\nthermo: r1c1 r2c2\nthermo: r1c2 r2c2 r1c2\n",
     ["bad.txt line 7", "thermometer 2", "r1c2 twice"]),
    ("thermometer cell outside", "thermo: r1c1 r1c9\n", ["bad.txt line 5", "thermo:", "'r1c9'"]),
    ("unknown negative", "rules: negative-sum\n", ["bad.txt line 5", "rules:", "'negative-sum'"]),
    ("givens against a dot", "white: r1c1 r1c2\n", ["bad.txt", "r1c1=1 and r1c2=3", "marks"]),
]


@pytest.mark.parametrize("text,fragments", [case[1:] for case in BAD_TEXT], ids=[case[0] for case in BAD_TEXT])
def test_bad_text_forms(text: str, fragments: list[str], tmp_path, capsys) -> None:
    grid = "13..\n" + "....\n" * 3 if "givens" in fragments[-1] or "marks" in fragments else EMPTY4
    path = write(tmp_path, "bad.txt", grid + text)
    assert_bad_input(capsys, ["solve", path], *fragments)
