"""`satdoku export` and `satdoku decode`: files written whole, every target, models read back and verified."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from satdoku.cli import main
from satdoku.encoders.dimacs import Answer, Dimacs, write_model
from satdoku.models.formats import read_puzzles
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES, REPO

INKALA_FILE = str(PUZZLES / "inkala.txt")
INKALA = read_puzzles(INKALA_FILE)[0]
SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satdoku", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120)


def solve_file(cnf_path) -> list[int]:
    cnf = CNF(from_file=str(cnf_path))
    with Solver(name="glucose4", bootstrap_with=cnf) as solver:
        assert solver.solve()
        return solver.get_model()


def test_export_to_stdout_is_dimacs(capsys):
    assert main(["export", INKALA_FILE]) == 0
    text = capsys.readouterr().out
    dimacs = Dimacs.from_text(text)
    assert len(dimacs.clauses) == 11988 + 21 and dimacs.n_vars == 729


@pytest.mark.parametrize("encoding,count", [("minimal", 8829), ("efficient", 11745), ("extended", 11988)])
def test_export_encodings_have_exact_counts(encoding, count, tmp_path):
    out = tmp_path / "x.cnf"
    assert main(["export", INKALA_FILE, "--encoding", encoding, "-o", str(out)]) == 0
    assert f"p cnf 729 {count + 21}" in out.read_text().splitlines()


def test_export_gz_then_decode_model_files(tmp_path, capsys):
    out = tmp_path / "inkala.cnf.gz"
    assert main(["export", INKALA_FILE, "--givens", "simplify", "--amo", "seqcounter", "-o", str(out)]) == 0
    text = gzip.decompress(out.read_bytes()).decode()
    assert text.startswith("c satdoku") and "givens: simplify" in text
    (tmp_path / "plain.cnf").write_text(text)
    model = solve_file(tmp_path / "plain.cnf")
    competition = tmp_path / "answer.txt"
    competition.write_text(write_model(Answer("SAT", model)))
    minisat_style = tmp_path / "result.txt"
    minisat_style.write_text("SAT\n" + " ".join(map(str, model)) + " 0\n")
    for path in (competition, minisat_style):
        capsys.readouterr()
        assert main(["decode", INKALA_FILE, str(path)]) == 0
        assert capsys.readouterr().out.strip() == SOLUTION


def test_decode_formats(tmp_path, capsys):
    cnf = tmp_path / "i.cnf"
    assert main(["export", INKALA_FILE, "-o", str(cnf)]) == 0
    answer = tmp_path / "a.txt"
    answer.write_text(write_model(Answer("SAT", solve_file(cnf))))
    capsys.readouterr()
    assert main(["decode", INKALA_FILE, str(answer), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solution"] == SOLUTION and record["status"] == "solved"
    assert main(["decode", INKALA_FILE, str(answer), "--format", "grid"]) == 0
    assert capsys.readouterr().out.startswith("8 1 2 | 7 5 3 | 6 4 9")


def test_names_lines(tmp_path):
    out = tmp_path / "n.cnf"
    assert main(["export", str(PUZZLES / "example_4x4.txt"), "--names", "-o", str(out)]) == 0
    names = [line for line in out.read_text().splitlines() if line.startswith("c name ")]
    assert len(names) == 64 and names[0] == "c name 1 r1c1=1" and names[-1] == "c name 64 r4c4=4"


def test_several_puzzles_need_an_index(shared_puzzles, tmp_path):
    path = str(shared_puzzles / "norvig_top95.txt")
    done = run_cli("export", path)
    assert done.returncode == 2 and "95 puzzles" in done.stderr and "--index" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    out = tmp_path / "third.cnf"
    assert run_cli("export", path, "--index", "3", "-o", str(out)).returncode == 0
    third = read_puzzles(path)[2]
    from satdoku.verified import decoded_model
    assert is_solution(decoded_model(third, solve_file(out), "x"), third)
    done = run_cli("export", path, "--index", "96")
    assert done.returncode == 2 and "holds 95" in done.stderr


def test_output_in_a_missing_folder_leaves_nothing(tmp_path):
    target = tmp_path / "nope" / "x.cnf"
    done = run_cli("export", INKALA_FILE, "-o", str(target))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "does not exist" in done.stderr
    assert not target.parent.exists()


def test_export_is_atomic_when_encoding_fails(tmp_path):
    target = tmp_path / "x.cnf"
    target.write_text("old content\n")
    done = run_cli("export", INKALA_FILE, "--amo", "native", "-o", str(target))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert target.read_text() == "old content\n" and list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("target,needle", [("cpsat", None), ("lp", "Subject To"), ("mps", "ROWS")])
def test_other_targets_are_dispatched(target, needle, tmp_path):
    out = tmp_path / f"inkala.{target}"
    done = run_cli("export", INKALA_FILE, "--to", target, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 1000
    if needle:
        assert needle in out.read_text()


def test_sat_options_do_not_apply_to_other_targets():
    done = run_cli("export", INKALA_FILE, "--to", "lp", "--encoding", "minimal")
    assert done.returncode == 2 and "--encoding" in done.stderr and done.stdout == ""


def test_a_missing_exporter_is_backend_unavailable(monkeypatch, capsys):
    import importlib
    real = importlib.import_module

    def fake(name, *args):
        if name == "satdoku.encoders.ilp":
            raise ImportError("No module named 'pulp'")
        return real(name, *args)
    monkeypatch.setattr(importlib, "import_module", fake)
    assert main(["export", INKALA_FILE, "--to", "mps"]) == 2
    assert "not available" in capsys.readouterr().err


def test_decode_unsat_and_unknown(tmp_path, capsys):
    answer = tmp_path / "a.txt"
    answer.write_text("s UNSATISFIABLE\n")
    assert main(["decode", INKALA_FILE, str(answer)]) == 1
    answer.write_text("s UNKNOWN\n")
    assert main(["decode", INKALA_FILE, str(answer)]) == 3


def test_decode_a_wrong_model_is_a_solver_error(tmp_path):
    answer = tmp_path / "a.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(str(v) for v in range(1, 730)) + " 0\n")
    done = run_cli("decode", INKALA_FILE, str(answer))
    assert done.returncode == 4 and "two digits in cell" in done.stderr and done.stderr.count("\n") == 1
    answer.write_text("s SATISFIABLE\nv -1 0\n")
    done = run_cli("decode", INKALA_FILE, str(answer))
    assert done.returncode == 4 and "has no digit" in done.stderr


@pytest.mark.parametrize("content,message", [("garbage here\n", "no answer"), ("s SATISFIABLE\n", "no model")])
def test_decode_malformed_model_file(content, message, tmp_path):
    answer = tmp_path / "a.txt"
    answer.write_text(content)
    done = run_cli("decode", INKALA_FILE, str(answer))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_decode_missing_model_file():
    done = run_cli("decode", INKALA_FILE, "/nonexistent/model.txt")
    assert done.returncode == 2 and "no such file" in done.stderr
