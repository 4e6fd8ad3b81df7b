"""Killer cages and arrows in f-puzzles JSON and links (`killercage`, `cage` with a value, `arrow`) and in the
text form (`cage:` with an optional total, then cells; `arrow:` circle first): read, solved, written back;
bad input is one line on stderr, exit 2, nothing on stdout, no traceback."""
from __future__ import annotations

import json
import subprocess
import sys

import lzstring
import pytest

from satdoku.models.formats import parse_puzzle, parse_puzzles, read_puzzles, to_text_form
from satdoku.models.fpuzzles import fpuzzles_puzzle, link_puzzle, to_fpuzzles, to_fpuzzles_link
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.test_variant_input import assert_bad_input, digits, run, verified, write

# A 4x4 without givens, as f-puzzles writes it: five killer cages with totals (one total a number, as other
# programs write it), one cage without a total, and an arrow whose circle is r1c4. Unique (`solve --all`).
KILLER4_JSON = """{"size":4,"title":"Killer and arrow","author":"satdoku tests",
"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
"killercage":[{"cells":["R1C1","R2C1"],"value":"4"},{"cells":["R1C2","R1C3"],"value":5},
{"cells":["R1C4","R2C4"],"value":"6"},{"cells":["R2C2","R2C3"],"value":"5"},{"cells":["R3C1","R3C2"],"value":"3"},
{"cells":["R4C1","R4C2"],"value":""}],
"arrow":[{"lines":[["R1C4","R1C1","R2C1"]],"cells":["R1C4"]}],
"cage":[{"cells":["R3C3","R3C4"],"outlineC":"#000000","fontC":"#000000"}]}
"""
KILLER4_SOLUTION = "1234341221434321"

# The same puzzle as the text form writes it
KILLER4_TEXT = """\
. . | . .
. . | . .
----+----
. . | . .
. . | . .
cage: 4 r1c1 r2c1
cage: 5 r1c2 r1c3
cage: 6 r1c4 r2c4
cage: 5 r2c2 r2c3
cage: 3 r3c1 r3c2
cage: r4c1 r4c2
arrow: r1c4 r1c1 r2c1
"""
KILLER4_CAGES = (((0, 4), 4), ((1, 2), 5), ((3, 7), 6), ((5, 6), 5), ((8, 9), 3), ((12, 13), None))
KILLER4_ARROWS = ((3, (0, 4)),)

EMPTY4 = [[{}] * 4] * 4


def json4(**keys) -> str:
    return json.dumps({"size": 4, "grid": EMPTY4, **keys})


def read4(**keys) -> Geometry:
    return fpuzzles_puzzle({"size": 4, "grid": EMPTY4, **keys}).geometry


# --- reading --------------------------------------------------------------------------------------------

def test_fpuzzles_reads_cages_and_arrows() -> None:
    puzzle = parse_puzzles(KILLER4_JSON, source="killer4.json")[0]
    g = puzzle.geometry
    assert g.cages == KILLER4_CAGES and g.arrows == KILLER4_ARROWS
    assert g.rules == () and g.marks == () and g.thermometers == ()
    assert is_solution(digits(KILLER4_SOLUTION), puzzle)


def test_text_form_reads_the_same_puzzle() -> None:
    assert parse_puzzle(KILLER4_TEXT) == parse_puzzles(KILLER4_JSON, source="k.json")[0]


@pytest.mark.parametrize("value,total", [("10", 10), (10, 10), (" 7 ", 7), ("", None), (None, None)])
def test_killercage_values(value, total) -> None:
    cells = ["R1C1", "R1C2", "R1C3", "R1C4"] if total == 10 else ["R1C1", "R2C1", "R3C1"]
    assert read4(killercage=[{"cells": cells, "value": value}]).cages[0][1] == total


def test_killercage_without_a_value_key() -> None:
    assert read4(killercage=[{"cells": ["R2C2", "R2C3"]}]).cages == (((5, 6), None),)


def test_cage_with_a_value_is_a_killer_cage_and_one_without_is_decoration() -> None:
    g = read4(killercage=[{"cells": ["R1C1", "R1C2"], "value": "3"}],
              cage=[{"cells": ["R4C4"], "outlineC": "#000000"}, {"cells": ["R3C3", "R3C4"], "value": "7"}])
    assert g.cages == (((0, 1), 3), ((10, 11), 7))


def test_an_arrow_of_several_lines_is_one_arrow_per_line() -> None:
    g = read4(arrow=[{"lines": [["R2C2", "R1C1"], ["R2C2", "R3C3", "R4C4"]], "cells": ["R2C2"]},
                     {"lines": [["R1C4", "R2C4"]], "cells": ["R1C4"]}])
    assert g.arrows == ((5, (0,)), (5, (10, 15)), (3, (7,)))


def test_text_form_sections_read_in_any_case_and_with_commas() -> None:
    g = parse_puzzle("....\n....\n....\n....\nCage: 10 r1c1, r1c2, r1c3, r1c4\nARROW: r2c1, r3c1\n").geometry
    assert g.cages == (((0, 1, 2, 3), 10),) and g.arrows == ((4, (8,)),)


def test_text_sections_apply_to_every_puzzle_above_them() -> None:
    puzzles = parse_puzzles("1...............\n.2..............\ncage: 3 r1c1 r1c2\narrow: r4c4 r4c3\n")
    assert [p.geometry.cages for p in puzzles] == [(((0, 1), 3),)] * 2
    assert [p.geometry.arrows for p in puzzles] == [((15, (14,)),)] * 2


# --- writing and round trips ----------------------------------------------------------------------------

def test_text_form_round_trips_exactly() -> None:
    puzzle = parse_puzzle(KILLER4_TEXT)
    assert to_text_form(puzzle) == KILLER4_TEXT
    assert parse_puzzle(to_text_form(puzzle)) == puzzle


def test_text_form_writes_sums_after_the_other_sections() -> None:
    g = Geometry(2, 2, rules=("antiking",), thermometers=((8, 12),), marks=(("x", 14, 15),),
                 cages=(((0, 1), None),), arrows=((2, (3,)),))
    lines = to_text_form(Puzzle(g, (0,) * 16)).splitlines()
    assert lines[5:] == ["rules: antiking", "thermo: r3c1 r4c1", "x: r4c3 r4c4", "cage: r1c1 r1c2", "arrow: r1c3 r1c4"]
    assert parse_puzzle("\n".join(lines)).geometry == g


def test_fpuzzles_writes_killercage_and_arrow() -> None:
    data = json.loads(to_fpuzzles(parse_puzzle(KILLER4_TEXT)))
    assert data["killercage"][0] == {"cells": ["R1C1", "R2C1"], "value": "4"}
    assert data["killercage"][5] == {"cells": ["R4C1", "R4C2"]}
    assert data["arrow"] == [{"lines": [["R1C4", "R1C1", "R2C1"]], "cells": ["R1C4"]}]
    assert "cage" not in data


@pytest.mark.parametrize("source", ["text", "json"])
def test_fpuzzles_json_and_link_round_trip(source: str) -> None:
    puzzle = parse_puzzles(KILLER4_TEXT if source == "text" else KILLER4_JSON, source=f"k.{source}")[0]
    assert fpuzzles_puzzle(json.loads(to_fpuzzles(puzzle))).geometry == puzzle.geometry
    assert link_puzzle(to_fpuzzles_link(puzzle)).geometry == puzzle.geometry
    assert link_puzzle(to_fpuzzles_link(puzzle)).cells == puzzle.cells


def test_round_trips_keep_the_order_of_cages_and_arrows() -> None:
    g = Geometry(3, 3, cages=(((80, 79), 17), ((0,), None), ((40, 41, 49), 6)),
                 arrows=((10, (11, 12)), (10, (19,)), (0, (9, 18, 27))))
    puzzle = Puzzle(g, (0,) * 81)
    assert fpuzzles_puzzle(json.loads(to_fpuzzles(puzzle))).geometry == g
    assert link_puzzle(to_fpuzzles_link(puzzle)).geometry == g
    assert parse_puzzle(to_text_form(puzzle)).geometry == g


@pytest.mark.parametrize("to", ["text", "fpuzzles", "fpuzzles-link"])
def test_export_reads_back(to: str, tmp_path, capsys) -> None:
    path = write(tmp_path, "killer4.json", KILLER4_JSON)
    code, out, err = run(capsys, "export", "--to", to, path)
    assert code == 0, err
    name = "back.json" if to == "fpuzzles" else "back.txt"
    assert read_puzzles(write(tmp_path, name, out))[0].geometry == read_puzzles(path)[0].geometry


# --- solving --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,text", [("killer4.json", KILLER4_JSON), ("killer4.txt", KILLER4_TEXT)])
def test_solve_a_small_killer(name: str, text: str, tmp_path, capsys) -> None:
    path = write(tmp_path, name, text)
    code, out, err = run(capsys, "solve", path)
    assert code == 0, err
    puzzle = parse_puzzles(KILLER4_JSON, source="independent.json")[0]
    assert verified(out.strip(), puzzle) == digits(KILLER4_SOLUTION)


def test_solve_a_small_killer_in_a_subprocess(tmp_path) -> None:
    path = write(tmp_path, "killer4.json", KILLER4_JSON)
    done = subprocess.run([sys.executable, "-m", "satdoku", "solve", path], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    puzzle = fpuzzles_puzzle(json.loads(KILLER4_JSON))
    assert is_solution(tuple(int(ch) for ch in done.stdout.strip()), puzzle)


def test_the_solution_is_unique(tmp_path, capsys) -> None:
    path = write(tmp_path, "killer4.txt", KILLER4_TEXT)
    code, out, err = run(capsys, "solve", "--all", path)
    assert (code, out.split()) == (0, [KILLER4_SOLUTION]), err


# --- bad input ------------------------------------------------------------------------------------------

BLANK4 = "....\n" * 4
BAD_TEXT = [
    ("bad cell name", "cage: 5 r1c1 b2\n", ["bad.txt line 5: cage: killer cage 1", "'b2'"]),
    ("cage cell outside", "cage: r4c4 r5c4\n", ["bad.txt line 5", "cage:", "'r5c4'", "outside the 4x4 grid"]),
    ("cage lists a cell twice", "cage: 3 r1c1 r1c2 r1c1\n",
     ["bad.txt line 5", "killer cage 1 at r1c1 lists a cell twice"]),
    ("total last", "cage: r2c1 r2c2 5\n", ["bad.txt line 5", "killer cage 1 at r2c1", "the total '5' goes first"]),
    ("total out of reach", "cage: 2 r1c1 r1c2\n", ["bad.txt line 5", "killer cage 1 at r1c1", "3..7, not 2"]),
    ("second cage out of reach", "cage: 3 r1c1 r1c2\ncage: 11 r2c2 r2c3\n",
     ["bad.txt line 6", "killer cage 2 at r2c2", "not 11"]),
    ("total of letters", "cage: 1a r1c1 r1c2\n", ["bad.txt line 5", "killer cage 1 at r1c1", 'total "1a"']),
    ("total a question mark", "cage: ? r3c3\n", ["bad.txt line 5", "killer cage 1 at r3c3", 'total "?"']),
    ("cage without cells", "cage: 5\n", ["bad.txt line 5", "killer cage 1", "0 cells"]),
    ("circle among its cells", "arrow: r1c1 r1c2 r1c1\n",
     ["bad.txt line 5: arrow: arrow 1 at r1c1", "the circle not among them"]),
    ("arrow of a circle alone", "arrow: r2c2\n", ["bad.txt line 5", "arrow 1 at r2c2", "no arrow"]),
    ("arrow too long", "arrow: r1c1 r1c2 r1c3 r1c4 r2c4\n", ["bad.txt line 5", "arrow 1 at r1c1", "4 cells"]),
    ("arrow cell outside", "arrow: r1c1 r1c5\n", ["bad.txt line 5", "arrow:", "'r1c5'", "outside the 4x4 grid"]),
    ("arrow bad cell name", "cage: 3 r1c1 r1c2\narrow: r3c3 c3r4\n", ["bad.txt line 6", "arrow 1", "'c3r4'"]),
]


@pytest.mark.parametrize("tail,fragments", [case[1:] for case in BAD_TEXT], ids=[case[0] for case in BAD_TEXT])
def test_bad_text(tail: str, fragments: list[str], tmp_path, capsys) -> None:
    path = write(tmp_path, "bad.txt", BLANK4 + tail)
    assert_bad_input(capsys, ["solve", path], "satdoku: bad.txt line", *fragments)


BAD_JSON = [
    ("total a question mark", json4(killercage=[{"cells": ["R2C3", "R2C4"], "value": "?"}]),
     ["rule 'killercage': killer cage 1 at r2c3", 'total "?" is not a whole number']),
    ("total of letters", json4(killercage=[{"cells": ["R1C1"], "value": "1a"}]), ["killer cage 1 at r1c1", '"1a"']),
    ("total not a number", json4(killercage=[{"cells": ["R1C1"], "value": [1]}]), ["killer cage 1 at r1c1", "[1]"]),
    ("cage lists a cell twice", json4(killercage=[{"cells": ["R3C1", "R3C2", "R3C1"], "value": "6"}]),
     ["rule 'killercage': killer cage 1 at r3c1 lists a cell twice"]),
    ("total out of reach", json4(killercage=[{"cells": ["R1C1", "R1C2"], "value": "2"}]),
     ["killer cage 1 at r1c1", "not 2"]),
    ("cage cell outside", json4(killercage=[{"cells": ["R4C4", "R4C5"], "value": "5"}]),
     ["rule 'killercage': killer cage 1", "'R4C5'", "outside the 4x4 grid"]),
    ("cage without cells", json4(killercage=[{"value": "5"}]), ["rule 'killercage': killer cage 1", "a list of cells"]),
    ("cage drawing with a bad value", json4(cage=[{"cells": ["R2C2", "R2C3"], "value": "A"}]),
     ["rule 'cage': killer cage 1 at r2c2", 'total "A"']),
    ("cage drawn by a constraint tool", json4(cage=[{"cells": ["R1C1"], "fromConstraint": "Renban", "value": "3"}]),
     ["rule 'Renban' (drawn as a cage) is not supported yet", "r1c1"]),
    ("pill", json4(arrow=[{"lines": [["R1C1", "R1C2", "R1C3"]], "cells": ["R1C1", "R2C1"]}]),
     ["rule 'arrow' with a 2-cell circle (a pill) is not supported yet (first at r1c1)"]),
    ("circle among its cells", json4(arrow=[{"lines": [["R2C2", "R2C3", "R2C2"]], "cells": ["R2C2"]}]),
     ["rule 'arrow': arrow 1 at r2c2", "the circle not among them"]),
    ("arrow of a circle alone", json4(arrow=[{"lines": [["R2C2"]], "cells": ["R2C2"]}]),
     ["arrow 1 at r2c2", "no arrow"]),
    ("arrow cell outside", json4(arrow=[{"lines": [["R1C1", "R1C9"]], "cells": ["R1C1"]}]),
     ["rule 'arrow': arrow 1", "'R1C9'"]),
    ("arrow without lines", json4(arrow=[{"cells": ["R3C3"]}]), ["rule 'arrow' 1", "lines", "r3c3"]),
    ("arrow without a circle", json4(arrow=[{"lines": [["R3C3", "R3C4"]]}]), ["rule 'arrow' 1", "r3c3"]),
    ("second arrow's line", json4(arrow=[{"lines": [["R1C1", "R1C2"], ["R1C1", "R1C1"]], "cells": ["R1C1"]}]),
     ["arrow 2 at r1c1", "the circle not among them"]),
]


@pytest.mark.parametrize("text,fragments", [case[1:] for case in BAD_JSON], ids=[case[0] for case in BAD_JSON])
def test_bad_json(text: str, fragments: list[str], tmp_path, capsys) -> None:
    path = write(tmp_path, "puzzle.json", text)
    assert_bad_input(capsys, ["solve", path], "satdoku: puzzle.json: ", *fragments)


SUBPROCESS_CASES = [
    ("bad.txt", BLANK4 + "cage: 5 r1c1 zz\n", "'zz'"),
    ("bad.txt", BLANK4 + "cage: 3 r2c2 r2c3 r2c2\n", "r2c2"),
    ("bad.txt", BLANK4 + "cage: 2 r1c1 r1c2\n", "r1c1"),
    ("bad.txt", BLANK4 + "arrow: r4c4 r4c3 r4c4\n", "r4c4"),
    ("bad.txt", BLANK4 + "cage: 1a r3c3 r3c4\n", "r3c3"),
    ("bad.json", json4(arrow=[{"lines": [["R2C1", "R2C2"]], "cells": ["R2C1", "R1C1"]}]), "r2c1"),
    ("bad.json", json4(killercage=[{"cells": ["R4C2", "R4C3"], "value": "?"}]), "r4c2"),
]


@pytest.mark.parametrize("name,text,cell", SUBPROCESS_CASES)
def test_bad_input_in_a_subprocess(name: str, text: str, cell: str, tmp_path) -> None:
    path = write(tmp_path, name, text)
    done = subprocess.run([sys.executable, "-m", "satdoku", "solve", path], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert name in done.stderr and cell in done.stderr, done.stderr


def test_bad_link_names_its_line(tmp_path, capsys) -> None:
    puzzle = Puzzle(Geometry(2, 2), (0,) * 16)
    data = json.loads(to_fpuzzles(puzzle))
    data["killercage"] = [{"cells": ["R2C2", "R3C3"], "value": "x"}]
    link = "https://www.f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(json.dumps(data))
    path = write(tmp_path, "links.txt", link + "\n")
    assert_bad_input(capsys, ["solve", path], "links.txt line 1", "killer cage 1 at r2c2", 'total "x"')
