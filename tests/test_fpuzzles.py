"""f-puzzles JSON and links (LZString) read, solved and written back; constraints satdoku does not support
yet, and every other bad input, are one line on stderr, exit 2, nothing on stdout."""
from __future__ import annotations

import json
from urllib.parse import quote

import lzstring
import pytest

from satdoku.models.formats import parse_puzzle, parse_puzzles, read_puzzles, to_text_form
from satdoku.models.fpuzzles import fpuzzles_object, to_fpuzzles, to_fpuzzles_link
from satdoku.models.geometry import Geometry, windows
from satdoku.models.puzzle import Puzzle, cell_name
from tests.test_variant_input import (EXPECTED_GEOMETRY, JIGSAW6_MAP, TEXT_PUZZLES, assert_bad_input, digits, run,
                                      verified, write)

# The jigsaw of tests/test_variant_input.py as f-puzzles writes it, by hand: a title, an author and a
# ruleset; regions only where a cell leaves its 2x3 box; a player's entries (a value without `given`,
# pencil marks, a colour) that are not givens; decorations (text, a line, a cage without a value); and
# switches and constraint lists that are off or empty.
JIGSAW6_JSON = """{"size":6,"title":"Jigsaw on the anti-diagonal","author":"satdoku tests",
"ruleset":"Normal jigsaw rules apply. Digits on the marked anti-diagonal do not repeat.",
"highlightConflicts":true,"grid":[
[{},{"value":2,"given":true},{},{},{"value":1,"given":true},{"c":"#A8A8A8"}],
[{"value":3,"given":true},{},{"region":2},{"region":2,"centerPencilMarks":[1,6]},{},{}],
[{"region":0},{"value":5},{},{"region":2},{},{"region":1}],
[{"region":4},{"region":4,"cornerPencilMarks":[2,3]},{"value":4,"given":true},{},{},{}],
[{},{},{"region":5},{},{"region":3},{"region":3}],
[{},{},{"region":5},{"value":5,"given":true},{},{"value":6,"given":false,"highlight":"#FFFF00"}]
],
"diagonal+":true,"diagonal-":false,"antiknight":false,"antiking":false,"nonconsecutive":false,
"killercage":[],"negative":[],"extraregion":[],
"text":[{"cells":["R1C1"],"value":"J","fontC":"#000000","size":0.5}],
"line":[{"lines":[["R1C6","R6C1"]],"outlineC":"#C0C0C0","width":0.05}],
"cage":[{"cells":["R1C1","R1C2"],"outlineC":"#000000","fontC":"#000000"}]}
"""


def grid_of(givens: str, regions: list[str] | None = None) -> list[list[dict]]:
    """f-puzzles grid rows from a one-line puzzle; with a region map, every cell names its region."""
    n = int(len(givens) ** 0.5)
    labels = {symbol: k for k, symbol in enumerate(dict.fromkeys("".join(regions or [])))}
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            ch = givens[r * n + c]
            cell: dict = {} if ch == "." else {"value": int(ch), "given": True}
            if regions:
                cell["region"] = labels[regions[r][c]]
            row.append(cell)
        rows.append(row)
    return rows


def line_of(name: str) -> str:
    """The one-line givens of a TEXT_PUZZLES puzzle."""
    puzzle = parse_puzzle(TEXT_PUZZLES[name][0])
    return "".join(str(v) if v else "." for v in puzzle.cells)


def packed(data: dict | str) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    return lzstring.LZString().compressToBase64(text)


def test_hand_written_jigsaw_json(tmp_path, capsys) -> None:
    path = write(tmp_path, "jigsaw.json", JIGSAW6_JSON)
    puzzle = read_puzzles(path)[0]
    assert puzzle == parse_puzzle(TEXT_PUZZLES["jigsaw6"][0])
    assert puzzle.source == "jigsaw.json" and puzzle.n_givens == 5
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and verified(out, puzzle) == digits(TEXT_PUZZLES["jigsaw6"][1])
    code, out, _ = run(capsys, "count", path, "--backend", "dlx")
    assert (code, out) == (0, "1\n")


def test_region_labels_on_every_cell_are_any_permutation() -> None:
    shuffled = [row.translate(str.maketrans("ABCDEF", "FDBECA")) for row in JIGSAW6_MAP]
    data = {"size": 6, "diagonal+": True, "grid": grid_of(line_of("jigsaw6"), shuffled)}
    assert parse_puzzles(json.dumps(data), source="j.json")[0] == parse_puzzle(TEXT_PUZZLES["jigsaw6"][0])


def test_antiknight_and_extra_region(tmp_path, capsys) -> None:
    data = {"size": 9, "title": "Anti-knight", "antiknight": True, "grid": grid_of(line_of("antiknight9_extra")),
            "extraregion": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"]}]}
    path = write(tmp_path, "ak.json", json.dumps(data, indent=2))  # pretty-printed reads too
    puzzle = read_puzzles(path)[0]
    assert puzzle.geometry == EXPECTED_GEOMETRY["antiknight9_extra"]
    code, out, _ = run(capsys, "solve", path, "--backend", "cpsat")
    assert code == 0 and verified(out, puzzle) == digits(TEXT_PUZZLES["antiknight9_extra"][1])


def test_windoku_windows_as_extra_regions_read_as_the_rule() -> None:
    extra = [{"cells": [cell_name(cell, 9).upper() for cell in window]} for window in windows(9, 3, 3)]
    data = {"size": 9, "grid": grid_of(line_of("windoku9")), "extraregion": extra}
    puzzle = parse_puzzles(json.dumps(data))[0]
    assert puzzle.geometry == Geometry(3, 3, ("windoku",))
    one_more = dict(data, extraregion=extra + [{"cells": ["R1C1", "R9C9"]}])
    assert parse_puzzles(json.dumps(one_more))[0].geometry == Geometry(3, 3, ("windoku",), None, ((0, 80),))
    assert fpuzzles_object(puzzle)["extraregion"] == extra


def test_regions_that_are_boxes_of_another_shape() -> None:
    boxes_4x2 = [("AABBCCDD" if r < 4 else "EEFFGGHH") for r in range(8)]
    data = {"size": 8, "antiking": True, "grid": grid_of(line_of("antiking8_box4x2"), boxes_4x2)}
    puzzle = parse_puzzles(json.dumps(data))[0]
    assert puzzle.geometry == Geometry(4, 2, ("antiking",))
    assert puzzle == parse_puzzle(TEXT_PUZZLES["antiking8_box4x2"][0])


def test_prime_sides_have_rows_as_default_regions() -> None:
    latin = parse_puzzles(json.dumps({"size": 5, "grid": grid_of("1" + "." * 24)}))[0]
    assert latin.geometry == Geometry(1, 5)
    regions = ["AAABB", "ACABB", "CCCBD", "ECDDD", "EEEED"]
    jigsaw = parse_puzzles(json.dumps({"size": 5, "grid": grid_of(line_of("jigsaw5"), regions)}))[0]
    assert jigsaw == parse_puzzle(TEXT_PUZZLES["jigsaw5"][0]) and jigsaw.geometry.box_rows == 1


def test_lzstring_file_links_and_mixed_lines(tmp_path, capsys) -> None:
    data = json.loads(JIGSAW6_JSON)
    code = packed(data)
    assert code.startswith("N4Ig")
    x4 = parse_puzzle(TEXT_PUZZLES["x4"][0])
    lines = [
        code,
        "https://www.f-puzzles.com/?load=" + code,
        "https://www.f-puzzles.com/?load=" + quote(code, safe=""),
        "https://sudokupad.app/fpuzzles" + quote(code, safe=""),
        "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles" + code,
        "# a plain puzzle, then an X-sudoku link",
        ".2..1.3.............4............5..",
        to_fpuzzles_link(x4),
    ]
    path = write(tmp_path, "links.txt", "\n".join(lines) + "\n")
    puzzles = read_puzzles(path)
    jigsaw = parse_puzzle(TEXT_PUZZLES["jigsaw6"][0])
    assert puzzles[:5] == [jigsaw] * 5
    assert puzzles[5].geometry == Geometry(2, 3) and puzzles[6] == x4
    assert [p.source for p in puzzles] == [f"links.txt line {k}" for k in (1, 2, 3, 4, 5, 7, 8)]
    code_, out, _ = run(capsys, "solve", path)
    assert code_ == 0
    for line, puzzle in zip(out.splitlines(), puzzles):
        verified(line, puzzle)
    single = write(tmp_path, "one.txt", code)
    assert read_puzzles(single) == [jigsaw]


def test_json_on_stdin(monkeypatch, capsys) -> None:
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(JIGSAW6_JSON.encode())))
    code, out, _ = run(capsys, "solve", "-")
    assert code == 0 and out.strip() == TEXT_PUZZLES["jigsaw6"][1]


@pytest.mark.parametrize("name", TEXT_PUZZLES)
def test_round_trips(name: str) -> None:
    puzzle = parse_puzzle(TEXT_PUZZLES[name][0])
    assert parse_puzzles(to_fpuzzles(puzzle), source="p.json") == [puzzle]
    assert parse_puzzles(to_fpuzzles_link(puzzle)) == [puzzle]
    assert to_text_form(parse_puzzles(to_fpuzzles(puzzle))[0]) == TEXT_PUZZLES[name][0]


@pytest.mark.parametrize("name", ["x4", "jigsaw6", "antiking8_box4x2", "windoku9"])
def test_export_targets_read_back(name: str, tmp_path, capsys) -> None:
    source = write(tmp_path, "in.txt", TEXT_PUZZLES[name][0])
    puzzle = read_puzzles(source)[0]
    for target, file in (("fpuzzles", "out.json"), ("fpuzzles-link", "out.link"), ("fpuzzles", "out.json.gz")):
        out = tmp_path / file
        assert run(capsys, "export", source, "--to", target, "-o", str(out)) == (0, "", "")
        assert read_puzzles(str(out)) == [puzzle]
        code, solved, _ = run(capsys, "solve", str(out))
        assert code == 0 and verified(solved, puzzle) == digits(TEXT_PUZZLES[name][1])
    code, text, _ = run(capsys, "export", source, "--to", "fpuzzles-link")
    assert code == 0 and text.startswith("https://www.f-puzzles.com/?load=N4Ig") and text.count("\n") == 1


def test_written_json_is_what_f_puzzles_reads() -> None:
    data = json.loads(to_fpuzzles(parse_puzzle(TEXT_PUZZLES["jigsaw6"][0])))
    assert data.keys() == {"size", "grid", "diagonal+"} and (data["size"], data["diagonal+"]) == (6, True)
    regions = {(r, c): cell["region"] for r, row in enumerate(data["grid"]) for c, cell in enumerate(row)
               if "region" in cell}
    assert regions == {(1, 2): 2, (1, 3): 2, (2, 0): 0, (2, 3): 2, (2, 5): 1, (3, 0): 4, (3, 1): 4, (4, 2): 5,
                       (4, 4): 3, (4, 5): 3, (5, 2): 5}
    assert data["grid"][0][1] == {"value": 2, "given": True}


def test_variant_and_box_with_json(tmp_path, capsys) -> None:
    path = write(tmp_path, "w.json", json.dumps({"size": 4, "disjointgroups": True, "grid": grid_of("12" + "." * 14)}))
    assert run(capsys, "count", path, "--backend", "dlx")[:2] == (0, "14\n")
    assert run(capsys, "count", path, "--backend", "dlx", "--variant", "windoku")[:2] == (0, "4\n")
    assert read_puzzles(path, rules=("antiking",))[0].geometry.rules == ("disjointgroups", "antiking")
    plain = write(tmp_path, "k.json", json.dumps({"size": 8, "grid": grid_of(line_of("antiking8_box4x2"))}))
    code, out, _ = run(capsys, "solve", plain, "--box", "4x2", "--variant", "antiking")
    assert code == 0 and out.strip() == TEXT_PUZZLES["antiking8_box4x2"][1]
    jigsaw = write(tmp_path, "j.json", JIGSAW6_JSON)
    assert_bad_input(capsys, ["solve", jigsaw, "--box", "2x3"], "j.json", "--box 2x3")


def test_a_long_json_line_reads(tmp_path) -> None:
    data = {"size": 4, "title": "t" * 70000, "grid": grid_of(line_of("x4"))}
    path = write(tmp_path, "long.json", json.dumps(data))
    assert read_puzzles(path)[0].n_givens == 3


def test_decorations_and_empty_lists_are_not_rules() -> None:
    data = {"size": 4, "grid": grid_of(line_of("x4")), "killercage": [], "thermometer": [], "negative": [],
            "arrow": None, "solution": [1] * 16, "disabledlogic": ["Tuples"],
            "circle": [{"cells": ["R1C1"], "baseC": "#FFFFFF", "outlineC": "#000000", "fontC": "#000000",
                        "width": 0.5, "height": 0.5, "value": "3"}],
            "rectangle": [{"cells": ["R1C1", "R1C2"], "baseC": "#FFFFFF", "outlineC": "#000000",
                           "fontC": "#000000", "width": 0.5, "height": 0.5}]}
    assert parse_puzzles(json.dumps(data))[0].geometry == Geometry(2, 2)


# --- bad input ----------------------------------------------------------------------------------------------

EMPTY4 = grid_of("." * 16)


def json4(**keys) -> str:
    return json.dumps({"size": 4, "grid": EMPTY4, **keys})


def with_cell(r: int, c: int, cell: dict, n: int = 4) -> list[list[dict]]:
    rows = grid_of("." * n * n)
    rows[r][c] = cell
    return rows


BAD_JSON = [
    ("size too small", json.dumps({"size": 3, "grid": grid_of("." * 9)}), ["size 3", "4 to 64"]),
    ("size a string", json.dumps({"size": "9", "grid": []}), ['size "9"']),
    ("size missing", json.dumps({"grid": EMPTY4}), ["size null"]),
    ("grid rows", json.dumps({"size": 4, "grid": EMPTY4[:3]}), ["grid", "3 row(s)"]),
    ("grid row cells", json.dumps({"size": 4, "grid": EMPTY4[:3] + [[{}, {}, {}]]}), ["row 4", "3 cell(s)"]),
    ("grid cell", json.dumps({"size": 4, "grid": EMPTY4[:3] + [[{}, {}, {}, 7]]}), ["r4c4", "not a cell object"]),
    ("region too big", json4(grid=with_cell(0, 0, {"region": 1})), ["jigsaw", "region of r1c1", "5 cells"]),
    ("cell in no region", json4(grid=with_cell(2, 1, {"region": None})), ["r3c2", "no region"]),
    ("region out of range", json4(grid=with_cell(0, 3, {"region": 4})), ["r1c4", "region 4", "0..3"]),
    ("given out of range", json4(grid=with_cell(1, 1, {"value": 5, "given": True})), ["r2c2", "given 5"]),
    ("cell outside", json.dumps({"size": 9, "grid": grid_of("." * 81),
                                 "extraregion": [{"cells": ["R1C1", "R10C1"]}]}),
     ["extraregion 1", "'R10C1'", "outside the 9x9 grid"]),
    ("bad cell name", json4(extraregion=[{"cells": ["A1"]}]), ["extraregion 1", "'A1'"]),
    ("extra region too big", json4(extraregion=[{"cells": ["R1C1", "R1C2", "R1C3", "R1C4", "R2C1"]}]),
     ["extra region 1", "5 cells"]),
    ("diagonal clash", json4(**{"diagonal-": True, "grid": grid_of("1.........1.....")}),
     ["contradictory givens", "diagonal 1", "r1c1", "r3c3"]),
    ("anti-diagonal clash", json4(**{"diagonal+": True, "grid": grid_of("...2.....2......")}),
     ["anti-diagonal 1", "r1c4", "r3c2"]),
    ("malformed", '{"size": 4, "grid": [[{}', ["malformed JSON", "line 1"]),
    ("not an object", "[1, 2]", ["must be an object"]),
    ("killer cage of letters", json4(killercage=[{"cells": ["R2C3", "R2C4"], "value": "3a"}]),
     ["rule 'killercage': killer cage 1 at r2c3", 'total "3a" is not a whole number']),
    ("thermometer too long", json4(thermometer=[{"lines": [["R3C1", "R2C1", "R1C1", "R1C2", "R1C3"]]}]),
     ["rule 'thermometer' 1", "5 cells from r3c1"]),
    ("arrow from a pill", json4(arrow=[{"cells": ["R1C1", "R1C2"], "lines": [["R1C1", "R2C1"]]}]),
     ["rule 'arrow' with a 2-cell circle (a pill) is not supported yet (first at r1c1)"]),
    ("kropki of another difference", json4(difference=[{"cells": ["R4C1", "R4C2"], "value": "3"}]),
     ["rule 'difference' with value \"3\" is not supported yet", "r4c1"]),
    ("xv of another letter", json4(xv=[{"cells": ["R1C1", "R1C2"], "value": "Z"}]), ["rule 'xv'", "r1c1"]),
    ("sandwich", json4(sandwichsum=[{"cell": "R0C1", "value": "5"}]), ["rule 'sandwichsum'"]),
    ("even", json4(even=[{"cell": "R2C2"}]), ["rule 'even'", "r2c2"]),
    ("negative of sums", json4(negative=["ratio", "sum"]), ["rule 'negative' of \"sum\""]),
    ("unknown key", json4(frobnicate={"on": True}), ["rule 'frobnicate'"]),
    ("cage with a value out of reach", json4(cage=[{"cells": ["R3C3"], "value": "7", "outlineC": "#000000"}]),
     ["rule 'cage'", "killer cage 1 at r3c3", "not 7"]),
    ("line from a constraint", json4(line=[{"lines": [["R1C1", "R2C2"]], "fromConstraint": "Entropic Line",
                                            "isNewConstraint": True, "outlineC": "#FFA000", "width": 0.3}]),
     ["rule 'Entropic Line'", "r1c1"]),
    ("given pencil marks", json4(grid=with_cell(3, 0, {"givenPencilMarks": [1, 2]})),
     ["rule 'givenPencilMarks'", "r4c1"]),
    ("switch not a boolean", json4(antiknight="yes"), ["rule 'antiknight'", "true or false"]),
    ("disjoint groups on a jigsaw", json.dumps({"size": 6, "disjointgroups": True,
                                                "grid": grid_of(line_of("jigsaw6"), JIGSAW6_MAP)}),
     ["disjoint groups"]),
]


@pytest.mark.parametrize("text,fragments", [case[1:] for case in BAD_JSON], ids=[case[0] for case in BAD_JSON])
def test_bad_json(text: str, fragments: list[str], tmp_path, capsys) -> None:
    path = write(tmp_path, "puzzle.json", text)
    assert_bad_input(capsys, ["solve", path], "satdoku: puzzle.json: ", *fragments)


@pytest.mark.parametrize("command", ["count", "check", "export"])
def test_unsupported_rule_fails_every_command(command: str, tmp_path, capsys) -> None:
    path = write(tmp_path, "puzzle.json", json4(even=[{"cell": "R1C1"}]))
    err = assert_bad_input(capsys, [command, path], "puzzle.json")
    assert err == "satdoku: puzzle.json: rule 'even' is not supported yet (first at r1c1)\n"


def test_unsupported_rule_in_a_link(tmp_path, capsys) -> None:
    link = "https://www.f-puzzles.com/?load=" + packed(json.loads(json4(even=[{"cell": "R2C2"}])))
    path = write(tmp_path, "links.txt", ".2..1.3.............4............5..\n" + link + "\n")
    code, out, err = run(capsys, "solve", path)  # a batch: the good line is answered, the bad one is invalid
    assert code == 2 and out.splitlines()[1] == "invalid" and len(out.splitlines()) == 2
    assert err.count("\n") == 1 and all(f in err for f in ("links.txt line 2", "rule 'even'", "r2c2")), err


CORRUPT = [
    ("truncated text", packed(JIGSAW6_JSON)[:60], ["line 1", "corrupt LZString text"]),
    ("truncated link", "https://www.f-puzzles.com/?load=" + packed(JIGSAW6_JSON)[:60],
     ["line 1", "corrupt f-puzzles link"]),
    ("not base64", "https://sudokupad.app/fpuzzlesN4Ig!!notbase64", ["line 1", "corrupt f-puzzles link"]),
    ("not an f-puzzles link", "https://sudokupad.app/scl1234567890", ["line 1", "not an f-puzzles link"]),
    ("not json inside", "https://www.f-puzzles.com/?load=" + packed("hello, world"),
     ["line 1", "corrupt f-puzzles link"]),
]


@pytest.mark.parametrize("text,fragments", [case[1:] for case in CORRUPT], ids=[case[0] for case in CORRUPT])
def test_corrupt_links(text: str, fragments: list[str], tmp_path, capsys) -> None:
    path = write(tmp_path, "links.txt", text + "\n")
    assert_bad_input(capsys, ["solve", path], "links.txt ", *fragments)


def test_plain_files_keep_their_messages(tmp_path, capsys) -> None:
    """Lines that are neither grids nor links keep the grid reader's message."""
    path = write(tmp_path, "p.txt", "Hello123\n")
    assert_bad_input(capsys, ["solve", path], "p.txt line 1: 8 cells is not a puzzle size")


def test_puzzle_written_for_a_plain_geometry() -> None:
    puzzle = Puzzle(Geometry(3, 3), digits(TEXT_PUZZLES["windoku9"][1]))
    assert fpuzzles_object(puzzle).keys() == {"size", "grid"}
    assert parse_puzzles(to_fpuzzles(puzzle))[0] == puzzle
