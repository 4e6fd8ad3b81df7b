"""satdoku: generalized sudoku through one exact-cover model, emitted to SAT, CP-SAT, ILP and DLX."""
from satdoku.models.formats import parse_puzzle, parse_puzzles, read_puzzles
from satdoku.models.geometry import Geometry, default_geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

__version__ = "0.1.0"

__all__ = ["Geometry", "Puzzle", "default_geometry", "exact_cover", "is_solution",
           "parse_puzzle", "parse_puzzles", "read_puzzles", "__version__"]
