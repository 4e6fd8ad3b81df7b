"""The bundled variant puzzles (puzzles/variants, made by scripts/make_variant_puzzles.py): every
backend solves them, `check` proves each unique, and `compare` finds no disagreement."""
from __future__ import annotations

import json

import pytest

from satdoku.cli import main
from satdoku.models.formats import read_puzzles
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES

FILES = sorted((PUZZLES / "variants").glob("*.txt"))
SMALL = [f for f in FILES if not f.name.endswith("9x9.txt")]


def test_the_sets_are_there() -> None:
    assert {f.stem for f in FILES} >= {"x_9x9", "antiknight_9x9", "windoku_9x9", "jigsaw_9x9", "x_6x6",
                                       "antiking_8x8", "nonconsecutive_6x6", "disjointgroups_6x6", "jigsaw_6x6"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("backend", ["pysat", "dlx"])
def test_every_puzzle_is_unique(path, backend, capsys) -> None:
    assert main(["check", str(path), "-b", backend, "-f", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    puzzles = read_puzzles(str(path))
    assert len(records) == len(puzzles) == 20 and {r["verdict"] for r in records} == {"unique"}
    for puzzle, record in zip(puzzles, records):
        assert puzzle.geometry.rules or puzzle.geometry.regions is not None
        grid = tuple(int(ch) for ch in record["solutions"][0])  # sides up to 9: one digit a cell
        assert is_solution(grid, puzzle)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_compare_finds_no_disagreement(path, capsys) -> None:
    backends = "pysat,dlx,logic,cpsat" + (",backtrack" if path in SMALL else "")
    assert main(["compare", str(path), "--backends", backends, "-f", "json", "-t", "60"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert all(row["solved"] == 20 and row["disagreements"] == 0 for row in document["backends"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("backend", ["ilp:highs", "external:minisat"])
def test_slower_backends_on_the_first_puzzles(path, backend, tmp_path, capsys) -> None:
    first = tmp_path / "first.txt"
    text = path.read_text()
    first.write_text(text.split("\n\n", 3)[1] + "\n" if "\n\n" in text else text)
    puzzle = read_puzzles(str(first))[0]
    assert not puzzle.geometry.is_classic
    assert main(["solve", str(first), "-b", backend, "-f", "json", "-t", "60"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert is_solution(tuple(int(ch) for ch in record["solution"]), puzzle)


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_counts_agree_on_a_puzzle_with_givens_taken_away(path, capsys, tmp_path) -> None:
    """Fewer givens, several solutions: dlx, pysat, backtrack and logic count the same number."""
    puzzle = read_puzzles(str(path))[0]
    cells = list(puzzle.cells)
    for k in [i for i, v in enumerate(cells) if v][:2]:
        cells[k] = 0
    from satdoku.backends.registry import get_backend
    looser = puzzle.with_cells(tuple(cells))
    counts = {name: get_backend(name).count(looser, limit=5000)
              for name in ("dlx", "pysat", "backtrack", "logic", "cpsat")}
    assert len(set(counts.values())) == 1 and counts["dlx"] >= 1, counts
    capped = min(counts["dlx"], 12)  # ILP enumerates by no-good cuts: a few grids are enough to compare
    assert get_backend("ilp:highs").count(looser, limit=capped) == capped
