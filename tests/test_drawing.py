"""`--format svg` and satdoku.drawing: pictures checked in a real renderer (cairosvg -> PNG, then pixels),
well-formed XML, one document per run, digits in the puzzle's alphabet."""
from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from satdoku.cli import main
from satdoku.drawing import (ARROW_COLOUR, DIAGONAL_COLOUR, EXTRA_COLOURS, GIVEN_COLOUR, SOLVED_COLOUR, THERMO_COLOUR,
                             THIN_COLOUR, WINDOW_COLOUR, Panel, cage_inset, panel, position_colour, puzzle_svg,
                             sheet_svg)
from satdoku.models.geometry import Geometry, windows
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES, REPO

SVG = "{http://www.w3.org/2000/svg}"

# a 9x9 jigsaw X puzzle (regions shuffled from the 3x3 boxes, givens removed while pysat still counted
# one solution; cpsat counts one too); the README's picture
JIGSAW = """\
AAABBCCCC
AAABBBBCC
ADADBBFCF
ADDDBEFCF
DDEDEEFCF
GDEEEEFFF
GGEGHIIII
GGGGHIHII
GHHHHHHII"""
JIGSAW_GIVENS = ".......734.................7....8...6.....5.....6.........91.................3..."
JIGSAW_SOLUTION = "259816473416935728378142956734568291683279514591624837865791342942387165127453689"
PICTURE = REPO / "docs" / "jigsaw_x.svg"


def jigsaw_x() -> Puzzle:
    """The jigsaw X puzzle, built directly (its file reader is not ours)."""
    letters = JIGSAW.replace("\n", "")
    regions = tuple(tuple(i for i, ch in enumerate(letters) if ch == name) for name in sorted(set(letters)))
    geometry = Geometry(3, 3).with_rules(("x",), regions=regions)
    return Puzzle(geometry, tuple(int(ch) if ch != "." else 0 for ch in JIGSAW_GIVENS), source="jigsaw X")


def jigsaw_solution() -> tuple[int, ...]:
    return tuple(int(ch) for ch in JIGSAW_SOLUTION)


def readme_picture() -> str:
    """The README's picture: the jigsaw X puzzle beside its solution, one sheet."""
    puzzle = jigsaw_x()
    return sheet_svg([(puzzle, None, "9x9 jigsaw X: the puzzle"), (puzzle, jigsaw_solution(), "its solution")])


# --- the renderer ---

@pytest.fixture(scope="module")
def cairosvg():
    """cairosvg (pip, the `test` extra; needs Debian's libcairo2): missing is a failure in CI, a skip elsewhere."""
    try:
        import cairosvg as module
    except (ImportError, OSError) as missing:
        if os.environ.get("CI"):
            pytest.fail(f"cairosvg is missing ({missing}): scripts/test.sh installs it with the test extra "
                        "and Debian's libcairo2")
        pytest.skip(f"cairosvg is not installed: {missing}")
    return module


class Picture:
    """An SVG rendered to pixels, with helpers that find a panel's cells."""

    def __init__(self, cairosvg, svg: str) -> None:
        from PIL import Image
        self.image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode()))).convert("RGB")

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        return self.image.getpixel((int(x), int(y)))

    def cell_pixels(self, p: Panel, index: int, n: int, inset: float = 0.2) -> list[tuple[int, int, int]]:
        """The pixels of a cell, `inset` of the cell away from its edges."""
        r, c = divmod(index, n)
        x0, y0 = p.grid_x + (c + inset) * p.cell, p.grid_y + (r + inset) * p.cell
        span = int(p.cell * (1 - 2 * inset))
        return [self.at(x0 + i, y0 + j) for i in range(span) for j in range(span)]


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))  # type: ignore[return-value]


def near(pixel: tuple[int, int, int], colour: str, tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, hex_rgb(colour)))


def darkness(pixel: tuple[int, int, int]) -> int:
    return 255 - min(pixel)


def is_dark(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) < 80


def is_blue(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return b > 150 and b - r > 80


def svg_size(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(root.get("width")), int(root.get("height"))


# --- pixels ---

def test_png_size_is_the_documents_size(cairosvg) -> None:
    svg = puzzle_svg(jigsaw_x())
    assert Picture(cairosvg, svg).image.size == svg_size(svg)
    p = panel(jigsaw_x())
    assert svg_size(svg) == (round(p.width), round(p.height)) and p.cell == 36
    assert svg_size(svg)[0] >= 9 * 36


def test_given_cells_are_dark_and_empty_cells_white(cairosvg) -> None:
    puzzle, p = jigsaw_x(), panel(jigsaw_x())
    picture = Picture(cairosvg, puzzle_svg(puzzle))
    given = 7  # r1c8 holds 7
    assert puzzle.cells[given] == 7
    assert sum(map(is_dark, picture.cell_pixels(p, given, 9))) > 20
    for empty in (1, 13, 40 - 9):  # r1c2, r2c5, r4c5: no digit, off the diagonals
        assert puzzle.cells[empty] == 0
        assert all(px == (255, 255, 255) for px in picture.cell_pixels(p, empty, 9))


def test_thick_borders_between_regions_thin_lines_inside(cairosvg) -> None:
    p = panel(jigsaw_x())
    picture = Picture(cairosvg, puzzle_svg(jigsaw_x()))
    x0, y0, cell = p.grid_x, p.grid_y, p.cell

    def darkest_across_vertical(col_line: int, row: int) -> int:
        y = y0 + (row + 0.5) * cell
        return max(darkness(picture.at(x0 + col_line * cell + dx, y)) for dx in range(-3, 4))

    # r1c3 (region A) | r1c4 (region B): thick and black, three pixels wide
    assert all(is_dark(picture.at(x0 + 3 * cell + dx, y0 + 0.5 * cell)) for dx in (-1, 0, 1))
    # r1c1 | r1c2 are both region A: one thin grey line, lighter than the border, darker than paper
    thin = darkest_across_vertical(1, 0)
    assert near(picture.at(x0 + cell, y0 + 0.5 * cell), THIN_COLOUR)
    assert 40 < thin < darkest_across_vertical(3, 0)
    # region A reaches down to r3c3 with r2c3, and r3c2 (region D) | r3c3 (region A) is thick
    assert is_dark(picture.at(x0 + 2 * cell, y0 + 2.5 * cell))
    # the outer border is thick everywhere, even between cells of one region
    assert all(is_dark(picture.at(x0 + dx, y0 + 0.5 * cell)) for dx in (-1, 0, 1))
    assert all(is_dark(picture.at(x0 + 4.5 * cell, y0 + 9 * cell + dy)) for dy in (-1, 0, 1))


def test_diagonals_are_light_lines_only_when_the_rules_have_them(cairosvg) -> None:
    puzzle = jigsaw_x()
    plain = Puzzle(Geometry(3, 3), puzzle.cells)
    p = panel(puzzle)
    on_main = (p.grid_x + 1.3 * p.cell, p.grid_y + 1.3 * p.cell)   # inside r2c2, empty
    on_anti = (p.grid_x + 7.7 * p.cell, p.grid_y + 1.3 * p.cell)   # inside r2c8, empty
    assert puzzle.cells[10] == puzzle.cells[16] == 0
    drawn = Picture(cairosvg, puzzle_svg(puzzle))
    for x, y in (on_main, on_anti):
        assert near(drawn.at(x, y), DIAGONAL_COLOUR, 12)
    bare = Picture(cairosvg, puzzle_svg(plain))
    assert bare.at(*on_main) == bare.at(*on_anti) == (255, 255, 255)


def test_solved_digits_are_blue_givens_black(cairosvg) -> None:
    puzzle, solution = jigsaw_x(), jigsaw_solution()
    assert is_solution(solution, puzzle)
    p = panel(puzzle, solution)
    picture = Picture(cairosvg, puzzle_svg(puzzle, solution))
    solved = picture.cell_pixels(p, 1, 9)  # r1c2: 5, solved
    assert sum(map(is_blue, solved)) > 20
    assert any(near(px, SOLVED_COLOUR, 20) for px in solved)
    given = picture.cell_pixels(p, 7, 9)  # r1c8: 7, given
    assert sum(map(is_dark, given)) > 20 and not any(map(is_blue, given))
    assert any(near(px, GIVEN_COLOUR, 20) for px in given)


def test_windoku_windows_and_extra_regions_are_shaded(cairosvg) -> None:
    geometry = Geometry(3, 3).with_rules(("windoku",), extra_regions=((0, 1, 9), (72, 73, 74, 75)))
    puzzle = Puzzle.empty(geometry)
    p = panel(puzzle)
    picture = Picture(cairosvg, puzzle_svg(puzzle))
    window = windows(9, 3, 3)[0]
    assert 10 in window and 30 in windows(9, 3, 3)[0] + windows(9, 3, 3)[1] + windows(9, 3, 3)[2]
    assert all(near(px, WINDOW_COLOUR, 2) for px in picture.cell_pixels(p, 10, 9))
    assert all(near(px, EXTRA_COLOURS[0], 2) for px in picture.cell_pixels(p, 9, 9))
    assert all(near(px, EXTRA_COLOURS[1], 2) for px in picture.cell_pixels(p, 74, 9))
    assert EXTRA_COLOURS[0] != EXTRA_COLOURS[1] != WINDOW_COLOUR
    assert all(px == (255, 255, 255) for px in picture.cell_pixels(p, 4, 9))  # r1c5: in nothing shaded


def test_a_cell_in_two_shaded_regions_shows_both_colours(cairosvg) -> None:
    geometry = Geometry(2, 2).with_rules(extra_regions=((0, 1), (0, 4)))
    p = panel(Puzzle.empty(geometry))
    picture = Picture(cairosvg, puzzle_svg(Puzzle.empty(geometry)))
    y = p.grid_y + 0.5 * p.cell
    assert near(picture.at(p.grid_x + 0.25 * p.cell, y), EXTRA_COLOURS[0], 2)
    assert near(picture.at(p.grid_x + 0.75 * p.cell, y), EXTRA_COLOURS[1], 2)


def test_disjoint_groups_dot_each_cell_by_its_position_in_the_box(cairosvg) -> None:
    geometry = Geometry(2, 3).with_rules(("disjointgroups",))
    p = panel(Puzzle.empty(geometry))
    picture = Picture(cairosvg, puzzle_svg(Puzzle.empty(geometry)))
    for box in geometry.boxes:
        for k, cell in enumerate(box):
            r, c = divmod(cell, 6)
            dot = picture.at(p.grid_x + (c + 0.17) * p.cell, p.grid_y + (r + 0.17) * p.cell)
            assert near(dot, position_colour(k, 6), 10)
    assert len({position_colour(k, 6) for k in range(6)}) == 6


def marked_puzzle() -> Puzzle:
    """A 9x9 with a thermometer up column 1 from r9 (a 3 given in its bulb), a second one from r9c9,
    one mark of each kind, and a black dot between r6c1 and r7c3 (not side by side)."""
    geometry = Geometry(3, 3).with_marks(
        marks=(("white", 0, 1), ("black", 3, 4), ("x", 10, 11), ("v", 13, 22), ("black", 45, 56)),
        thermometers=((72, 63, 54, 55), (80, 79)))
    return Puzzle(geometry, (0,) * 72 + (3,) + (0,) * 8)


class Marked:
    """The marked puzzle's picture (or another puzzle's), with points given in cell units from the grid's corner."""

    def __init__(self, cairosvg, puzzle: Puzzle | None = None) -> None:
        puzzle = puzzle or marked_puzzle()
        self.panel = panel(puzzle)
        self.picture = Picture(cairosvg, puzzle_svg(puzzle))

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        """The pixel at x cells across and y cells down."""
        return self.picture.at(self.panel.grid_x + x * self.panel.cell, self.panel.grid_y + y * self.panel.cell)

    def around(self, x: float, y: float, reach: float) -> list[tuple[int, int, int]]:
        """The pixels within `reach` cells of a point, across and down."""
        cell, steps = self.panel.cell, range(-int(reach * self.panel.cell), int(reach * self.panel.cell) + 1)
        return [self.at(x + dx / cell, y + dy / cell) for dx in steps for dy in steps]


def test_thermometers_have_a_grey_bulb_and_line_under_the_digits(cairosvg) -> None:
    drawn = Marked(cairosvg)  # r9c1 up to r7c1, then right to r7c2; r9c9 left to r9c8
    assert near(drawn.at(8.5, 8.5), THERMO_COLOUR, 2)  # the second bulb, r9c9, empty
    assert near(drawn.at(8.5 - 0.2, 8.5 - 0.2), THERMO_COLOUR, 2)  # inside the bulb, off the line
    assert near(drawn.at(8.0 - 0.25, 8.5), THERMO_COLOUR, 2)  # on to r9c8, off the grid line
    assert near(drawn.at(0.5, 8.0 - 0.25), THERMO_COLOUR, 2)  # r9c1 up to r8c1
    assert near(drawn.at(0.5, 7.0 - 0.25), THERMO_COLOUR, 2)  # r8c1 up to r7c1
    assert near(drawn.at(1.0 + 0.25, 6.5), THERMO_COLOUR, 2)  # r7c1 turning right to the tip, r7c2
    assert drawn.at(1.5 + 0.3, 6.5) == (255, 255, 255)  # past the tip's rounded end
    assert drawn.at(0.5, 6.5 - 0.25) == (255, 255, 255)  # nothing above the turn
    assert drawn.at(0.5 + 0.25, 7.5 + 0.25) == (255, 255, 255)  # beside the line in r8c1
    bulb = drawn.picture.cell_pixels(drawn.panel, 72, 9)  # the given 3 is drawn over its bulb
    assert sum(map(is_dark, bulb)) > 20 and sum(near(px, THERMO_COLOUR, 2) for px in bulb) > 20


def test_kropki_dots_sit_on_the_edge_between_their_cells(cairosvg) -> None:
    drawn = Marked(cairosvg)
    assert drawn.at(4.0, 0.5) == (0, 0, 0)  # black dot, r1c4 | r1c5
    assert drawn.at(4.0, 0.5 - 0.05) == drawn.at(4.0 + 0.05, 0.5) == (0, 0, 0)
    assert drawn.at(1.0, 0.5) == (255, 255, 255)  # white dot, r1c1 | r1c2: white over the cell line
    ring = [drawn.at(1.0 + k / 36, 0.5) for k in range(1, 9)]
    assert any(map(is_dark, ring))  # its black ring
    assert drawn.at(1.0 + 0.3, 0.5) == (255, 255, 255)  # and nothing beyond it
    assert near(drawn.at(1.0, 0.5 - 0.3), THIN_COLOUR)  # the cell line goes on above the dot


def test_a_mark_between_cells_not_side_by_side_sits_halfway_between_their_centres(cairosvg) -> None:
    drawn = Marked(cairosvg)
    assert drawn.at(1.5, 6.0) == (0, 0, 0)  # r6c1 (45) and r7c3 (56): halfway is (1.5, 6)
    assert drawn.at(1.5, 6.0 - 0.2) == drawn.at(1.5, 6.0 + 0.2) == (255, 255, 255)  # a dot, no more


def test_x_and_v_are_dark_letters_on_white_over_the_grid_lines(cairosvg) -> None:
    drawn = Marked(cairosvg)
    assert is_dark(drawn.at(2.0, 1.5))  # X, r2c2 | r2c3: its strokes cross at the edge's middle
    assert sum(map(is_dark, drawn.around(2.0, 1.5, 0.12))) > 30
    assert drawn.at(2.0, 1.5 - 0.17) == (255, 255, 255)  # the white square hides the cell line...
    assert near(drawn.at(2.0, 1.5 - 0.3), THIN_COLOUR)  # ...which shows beyond it
    assert sum(map(is_dark, drawn.around(4.5, 2.0, 0.12))) > 20  # V, r2c5 over r3c5
    assert drawn.at(4.5 - 0.17, 2.0) == (255, 255, 255)
    assert not any(map(is_dark, drawn.around(7.5, 1.5, 0.4)))  # r2c8: no mark, no digit


def test_marks_and_thermometers_are_well_formed_and_in_the_legend() -> None:
    geometry = marked_puzzle().geometry.with_rules(("negative-difference", "negative-ratio", "negative-xv"))
    puzzle = Puzzle.empty(geometry)
    svg = sheet_svg([(puzzle, None, "marks"), (marked_puzzle(), None, None)])
    root = ET.fromstring(svg)
    circles = [c for c in root.iter(SVG + "circle")]
    assert len(circles) == 2 * (3 + 2)  # per panel: three dots and two bulbs
    texts = " ".join(root.itertext())
    for words in ("all kropki dots given", "all X and V given", "2 thermometers", "white dots", "black dots",
                  "X: sum 10", "V: sum 5"):
        assert words in texts
    assert [t.text for t in root.iter(SVG + "text") if t.text in ("X", "V")] == ["X", "V"] * 2
    legend = " ".join(ET.fromstring(puzzle_svg(Puzzle.empty(Geometry(2, 2).with_rules(("negative-ratio",))))).itertext())
    assert "all black dots given" in legend and "kropki" not in legend


def summed_puzzle() -> Puzzle:
    """A 9x9 with an L-shaped killer cage r1c1, r1c2, r2c2 (total 15), a cage r1c5, r1c6 with no total,
    a one-cell cage r5c5 (total 5) and an arrow from its circle in r7c7 right to r7c8, r7c9, then down to r8c9."""
    geometry = Geometry(3, 3).with_sums(cages=(((0, 1, 10), 15), ((4, 5), None), ((40,), 5)),
                                        arrows=((60, (61, 62, 71)),))
    return Puzzle.empty(geometry)


def test_killer_cages_are_dashed_just_inside_their_boundary(cairosvg) -> None:
    drawn = Marked(cairosvg, summed_puzzle())
    step, px = cage_inset(drawn.panel.cell) / drawn.panel.cell, 1 / drawn.panel.cell

    def dark_along(x0: float, y0: float, x1: float, y1: float) -> int:
        """How many of the pixels on the straight line from (x0, y0) to (x1, y1) are dark."""
        count = round(max(abs(x1 - x0), abs(y1 - y0)) / px)
        points = ((x0 + (x1 - x0) * k / count, y0 + (y1 - y0) * k / count) for k in range(count + 1))
        return sum(is_dark(drawn.at(x, y)) for x, y in points)

    # the L cage: top along r1c1 and r1c2, left of r1c1, right of r1c2 and r2c2, dashes about half dark
    assert dark_along(0.5, step, 2 - step, step) > 0.4 * 1.5 / px
    assert dark_along(step, 0.5, step, 1 - step) > 0.3 * 0.5 / px
    assert dark_along(2 - step, step, 2 - step, 2 - step) > 0.4 * 2 / px
    assert dark_along(1 + step, 2 - step, 2 - step, 2 - step) > 0.3 * 1 / px
    # nothing along the edges inside the cage: r1c1 | r1c2 and r1c2 over r2c2, on either side
    for side in (-step, step):
        assert dark_along(1 + side, 0.25, 1 + side, 0.75) == 0
        assert dark_along(1.25, 1 + side, 1.75, 1 + side) == 0
    # the concave corner at r2c2's top-left: r1c1's bottom and r2c2's left side reach across the cell
    # lines to meet there (r2c2's side starts with a dash), and stop there
    corner_x, corner_y = 1 + step, 1 - step
    assert dark_along(1 + px, corner_y, corner_x, corner_y) > 0
    assert dark_along(corner_x, corner_y, corner_x, 1 - px) >= 3
    assert dark_along(corner_x + 2 * px, corner_y, 1.9, corner_y) == 0  # no overshoot into r1c2
    assert dark_along(corner_x, corner_y - 2 * px, corner_x, 0.2) == 0
    assert dark_along(step, 1 + 2 * px, step, 1.9) == 0  # r2c1 is outside the cage
    # a cage of one cell, r5c5: a closed dashed square, inset on all four sides
    for line in (4 + step, 5 - step):
        assert dark_along(4.3, line, 4.7, line) > 0 and dark_along(line, 4.3, line, 4.7) > 0
    assert not any(map(is_dark, drawn.around(4.5, 4.5, 0.3)))  # an empty middle


def test_a_cage_total_is_small_in_its_first_cells_corner(cairosvg) -> None:
    drawn = Marked(cairosvg, summed_puzzle())
    step, px = cage_inset(drawn.panel.cell) / drawn.panel.cell, 1 / drawn.panel.cell
    corner = [drawn.at(step + k * px, step + j * px) for k in range(1, 10) for j in range(1, 6)]
    assert sum(map(is_dark, corner)) > 5  # "15" in r1c1, inside the dashed corner
    bare = [drawn.at(4 + step + k * px, step + j * px) for k in range(1, 10) for j in range(1, 6)]
    assert not any(map(is_dark, bare))  # the cage r1c5, r1c6 has no total
    assert sum(is_dark(drawn.at(4 + step + k * px, 4 + step + j * px)) for k in range(1, 6) for j in range(1, 6)) > 3
    assert not any(map(is_dark, drawn.around(0.5, 0.6, 0.25)))  # small: the cell's middle stays free


def test_arrows_have_a_grey_circle_and_a_line_with_a_head(cairosvg) -> None:
    drawn = Marked(cairosvg, summed_puzzle())  # circle r7c7, right to r7c8, r7c9, down to r8c9
    px = 1 / drawn.panel.cell
    for x, y in ((6.5, 6.5 - 0.38), (6.5, 6.5 + 0.38), (6.5 - 0.38, 6.5)):  # the circle's ring
        assert any(near(drawn.at(x, y + k * px), ARROW_COLOUR, 40) for k in range(-2, 3))
    assert drawn.at(6.5, 6.5) == drawn.at(6.5 - 0.2, 6.5 - 0.2) == (255, 255, 255)  # open inside
    assert near(drawn.at(6.5 + 0.45, 6.5), ARROW_COLOUR, 2)  # from the circle's edge...
    assert near(drawn.at(7.0 + 0.25, 6.5), ARROW_COLOUR, 2)  # ...into r7c8
    assert near(drawn.at(8.0 + 0.25, 6.5), ARROW_COLOUR, 2)  # on into r7c9
    assert near(drawn.at(8.5, 7.0 + 0.25), ARROW_COLOUR, 2)  # turning down to r8c9
    assert drawn.at(8.5, 7.5 + 0.1) == (255, 255, 255)  # ending at r8c9's centre
    for side in (-1, 1):  # an open head: two short strokes back from the tip
        assert any(near(px_, ARROW_COLOUR, 40) for px_ in drawn.around(8.5 + side * 0.11, 7.5 - 0.11, 0.03))
    assert near(drawn.at(8.5, 7.5 - 0.2), ARROW_COLOUR, 2)  # the shaft
    assert drawn.at(8.5 - 0.2, 7.5 - 0.05) == (255, 255, 255)  # between the head's strokes and the shaft
    for cell_x, cell_y in ((7.5, 7.5), (6.5, 7.5), (7.5, 5.5)):  # beside the arrow
        assert not any(px_ != (255, 255, 255) for px_ in drawn.around(cell_x, cell_y, 0.3))


def test_cages_and_arrows_are_well_formed_and_in_the_legend() -> None:
    small = Puzzle.empty(Geometry(2, 2).with_sums(cages=(((0,), 2),)))
    svg = sheet_svg([(summed_puzzle(), None, "sums"), (small, None, None)])
    root = ET.fromstring(svg)
    texts = " ".join(root.itertext())
    assert "3 killer cages" in texts and "1 arrow" in texts and "1 killer cage," not in texts
    assert "1 killer cage" in texts and "arrows" not in texts
    totals = [t.text for t in root.iter(SVG + "text") if t.text and t.text.isdigit()]
    assert totals == ["15", "5", "2"]  # none for the cage without a total
    assert len([path for path in root.iter(SVG + "path") if path.get("stroke-dasharray")]) == 3 + 1
    assert "stroke-dasharray" not in puzzle_svg(jigsaw_x()) and "stroke-dasharray" not in puzzle_svg(marked_puzzle())


@pytest.mark.parametrize("box_rows, box_cols", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6), (8, 8)])
def test_every_side_draws_its_box_borders(cairosvg, box_rows: int, box_cols: int) -> None:
    geometry = Geometry(box_rows, box_cols)
    n = geometry.n
    cells = tuple((r * box_cols + r // box_rows + c) % n + 1 for r in range(n) for c in range(n))
    puzzle = Puzzle(geometry, (cells[0],) + (0,) * (n * n - 1))
    svg = puzzle_svg(puzzle, cells)
    picture = Picture(cairosvg, svg)
    p = panel(puzzle, cells)
    assert picture.image.size == svg_size(svg)
    assert picture.image.size[0] >= n * p.cell >= n * 16
    mid_row = p.grid_y + 0.5 * p.cell
    assert is_dark(picture.at(p.grid_x + box_cols * p.cell, mid_row))  # a box border
    assert not is_dark(picture.at(p.grid_x + p.cell, mid_row))  # a cell line inside the first box
    assert sum(map(is_dark, picture.cell_pixels(p, 0, n, 0.25))) > 0  # the given
    assert sum(map(is_blue, picture.cell_pixels(p, 1, n, 0.25))) > 0  # a solved digit


# --- the document ---

def test_documents_are_well_formed_xml_with_escaped_titles() -> None:
    title = 'a <b> & "c" \u00e9\x01 \udcff'
    svg = puzzle_svg(jigsaw_x(), title=title)
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    assert 'a <b> & "c" \u00e9\ufffd \ufffd' in texts
    assert svg.isascii()


def test_legend_names_every_rule() -> None:
    geometry = Geometry(3, 3).with_rules(("x", "windoku", "disjointgroups", "antiknight", "antiking",
                                          "nonconsecutive"), extra_regions=((0, 1),))
    texts = " ".join("".join(t.itertext()) for t in ET.fromstring(puzzle_svg(Puzzle.empty(geometry))).iter(SVG + "text"))
    for words in ("3x3 boxes", "diagonals (X)", "windoku", "disjoint groups", "anti-knight", "anti-king",
                  "non-consecutive", "1 extra region"):
        assert words in texts
    one = " ".join(ET.fromstring(puzzle_svg(Puzzle.empty(Geometry(2, 2).with_rules(("diagonal+",))))).itertext())
    assert "anti-diagonal" in one and "diagonals (X)" not in one
    assert "jigsaw regions" in " ".join(ET.fromstring(puzzle_svg(jigsaw_x())).itertext())


def digits_drawn(svg: str) -> list[str]:
    """The digits in the grid, in drawing order (givens first, then solved ones)."""
    root = ET.fromstring(svg)
    return [t.text for g in root.iter(SVG + "g") if g.get("text-anchor") == "middle" for t in g]


def test_digits_use_the_puzzles_alphabet() -> None:
    hexa = Puzzle(Geometry(4, 4), (1, 11, 16) + (0,) * 253, alphabet="0123456789ABCDEF")
    assert digits_drawn(puzzle_svg(hexa)) == ["0", "A", "F"]
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXY"
    big = Puzzle(Geometry(5, 5), (1, 25) + (0,) * 623, alphabet=letters)
    assert digits_drawn(puzzle_svg(big)) == ["A", "Y"]
    integers = Puzzle(Geometry(8, 8), (64, 7) + (0,) * 4094)
    assert digits_drawn(puzzle_svg(integers)) == ["64", "7"]


def test_a_sheet_is_one_document_of_panels() -> None:
    puzzle = jigsaw_x()
    svg = sheet_svg([(puzzle, None, "one"), (puzzle, jigsaw_solution(), "two"), Puzzle.empty(Geometry(2, 2))])
    root = ET.fromstring(svg)
    assert svg.count("<svg") == 1 and svg.count("<?xml") == 1
    panels = [child for child in root if child.tag == SVG + "g"]
    assert len(panels) == 3
    assert ET.fromstring(sheet_svg([])).tag == SVG + "svg"


def test_the_readme_picture_is_what_the_code_draws() -> None:
    """docs/jigsaw_x.svg is regenerated by `python -m tests.test_drawing` when the drawing changes."""
    assert PICTURE.read_text() == readme_picture()
    assert "docs/jigsaw_x.svg" in (REPO / "README.md").read_text()


# --- the commands ---

def test_solve_format_svg(cairosvg, capsys) -> None:
    assert main(["solve", str(PUZZLES / "inkala.txt"), "--format", "svg"]) == 0
    svg = capsys.readouterr().out
    root = ET.fromstring(svg)
    assert "inkala.txt lines 2-10: solved" in " ".join(root.itertext())
    assert len(digits_drawn(svg)) == 81
    assert Picture(cairosvg, svg).image.size == svg_size(svg)


def test_a_run_of_several_puzzles_is_one_svg_sheet(tmp_path, cairosvg, capsys) -> None:
    path = tmp_path / "three.txt"
    path.write_text("1...\n...2\n..4.\n.3..\n\n1100000200400300\n\n" + "." * 16 + "\n")
    code = main(["solve", str(path), "--format", "svg"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "contradictory" in err  # a bad puzzle stops the run before any output
    path.write_text("1...\n...2\n..4.\n.3..\n\n123.\n...4\n....\n....\n\n" + "." * 16 + "\n")
    assert main(["solve", str(path), "--format", "svg"]) == 1
    svg = capsys.readouterr().out
    root = ET.fromstring(svg)
    assert svg.count("<svg") == 1
    panels = [child for child in root if child.tag == SVG + "g"]
    titles = [" ".join(t.text for t in g if t.tag == SVG + "text" and t.get("font-weight") == "bold") for g in panels]
    assert [t.split(": ")[-1] for t in titles] == ["solved", "no solution", "solved"]
    assert titles[1].startswith("three.txt lines 6-9")
    assert Picture(cairosvg, svg).image.size == svg_size(svg)


def test_check_unique_draws_its_solution(capsys) -> None:
    assert main(["check", str(PUZZLES / "example_4x4.txt"), "-f", "svg"]) == 0
    svg = capsys.readouterr().out
    root = ET.fromstring(svg)
    assert [child.tag for child in root].count(SVG + "g") == 1 and len(digits_drawn(svg)) == 16
    assert "unique" in " ".join(root.itertext())


def test_all_solutions_draw_one_panel_each(tmp_path, capsys) -> None:
    path = tmp_path / "three.txt"
    path.write_text(".......2..4..3..\n")
    assert main(["solve", str(path), "--all", "-f", "svg"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    assert len([child for child in root if child.tag == SVG + "g"]) == 3
    assert "solution 3 of 3" in " ".join(root.itertext())


def test_check_multiple_draws_both_solutions(tmp_path, capsys) -> None:
    path = tmp_path / "two.txt"
    path.write_text("1.........4..3..\n")
    assert main(["check", str(path), "-f", "svg"]) == 1
    root = ET.fromstring(capsys.readouterr().out)
    panels = [child for child in root if child.tag == SVG + "g"]
    assert len(panels) == 2
    assert "multiple (differ in 4 cells), solution 2 of 2" in " ".join(root.itertext())


def test_decode_format_svg(tmp_path, capsys) -> None:
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    literals = [(i // 9) * 81 + (i % 9) * 9 + int(ch) for i, ch in enumerate(solution)]
    model = tmp_path / "inkala.model"
    model.write_text("s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n")
    assert main(["decode", str(PUZZLES / "inkala.txt"), str(model), "--format", "svg"]) == 0
    svg = capsys.readouterr().out
    assert "".join(sorted(digits_drawn(svg))) == "".join(sorted(solution))


def test_count_has_no_svg(capsys) -> None:
    assert main(["count", str(PUZZLES / "example_4x4.txt"), "--format", "svg"]) == 2
    assert capsys.readouterr().out == ""


def test_other_styles_are_unchanged(capsys) -> None:
    assert main(["solve", str(PUZZLES / "example_4x4.txt"), "-f", "grid"]) == 0
    assert capsys.readouterr().out == "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"


if __name__ == "__main__":
    PICTURE.parent.mkdir(exist_ok=True)
    PICTURE.write_text(readme_picture())
    print(f"wrote {Path(PICTURE).relative_to(REPO)}")
