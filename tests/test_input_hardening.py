"""Issue 18, input and files: each reproducer is one line on stderr and a documented exit code, or a clean answer.

Every test runs the CLI in-process (`satdoku.cli.main`) and checks the exact exit code, that stderr is
one line starting with 'satdoku' (naming the file, line and cell where there is one) and, for exit 2,
that stdout is empty.
"""
from __future__ import annotations

import io
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from satdoku.cli import main
from satdoku.errors import InputError
from satdoku.fileio import atomic_write, read_text
from satdoku.models.formats import DIGITS, HEX, LETTERS, MAX_LINE, format_line, parse_puzzle, read_puzzles
from satdoku.models.generate import random_puzzle
from satdoku.models.geometry import Geometry, parse_box
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES

EXAMPLE = str(PUZZLES / "example_4x4.txt")
HUGE = "9" * 5000  # beyond Python's 4,300-digit int() limit


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one in-process CLI run."""
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(result: tuple[int, str, str], *fragments: str, code: int = 2) -> str:
    """The run failed with `code`, nothing on stdout, one stderr line holding every fragment."""
    got, out, err = result
    assert got == code, (got, out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("satdoku"), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


# 1. Unicode digits that str.isdigit() takes and int() does not

def test_superscript_in_an_integer_grid_names_the_cell(tmp_path, capsys) -> None:
    path = write(tmp_path, "sup.txt", "1,0,0,0,0,0,0,2,0,0,4,0,0,3,0,\u00b2\n")
    line = assert_one_line_error(run(capsys, ["solve", "-b", "dlx", path]), "sup.txt line 1", "r4c4")
    assert "'\u00b2'" in line


def test_other_scripts_digits_in_a_spaced_grid(tmp_path, capsys) -> None:
    path = write(tmp_path, "arabic.txt", "10 0 0 0 0 0 0 2 0 0 4 0 0 3 0 \u0663\n")
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", path]), "arabic.txt line 1")


def test_superscript_box_option(capsys) -> None:
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", "--box", "\u00b2x3", EXAMPLE]),
                          "box shape '\u00b2x3'")


def test_superscript_grids_shape(capsys) -> None:
    assert_one_line_error(run(capsys, ["grids", "\u00b2x3"]), "box shape '\u00b2x3'")


@pytest.mark.parametrize("text", ["\u00b2x3", "2x\u0663", "2x3x4", "x3", "2x", "", "-2x3", "2.0x3", "\uff12x3"])
def test_parse_box_accepts_ascii_digits_only(text: str) -> None:
    with pytest.raises(InputError, match="expected RxC"):
        parse_box(text)


def test_parse_box_spellings() -> None:
    assert parse_box(" 2 X 4 ") == parse_box("2*4") == parse_box("02x04") == Geometry(2, 4)


def test_dotless_i_is_not_a_letter(capsys, tmp_path) -> None:
    # 'ı'.upper() == 'I': a parser folding case with str.upper would read it as a digit
    p = random_puzzle(Geometry(3, 3), random.Random(1), 0.5)
    text = format_line(p.cells, p).replace(".", "\u0131", 1)
    path = write(tmp_path, "i.txt", text + "\n")
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", path]), "unknown character '\u0131'")


# 2. Integers beyond the 4,300-digit limit, overflowing literals, '--5'

def test_huge_integer_in_a_grid(tmp_path, capsys) -> None:
    path = write(tmp_path, "huge.txt", "1 0 0 0 0 0 0 2 0 0 4 0 0 3 0 " + HUGE + "\n")
    line = assert_one_line_error(run(capsys, ["solve", "-b", "dlx", path]), "huge.txt line 1, r4c4",
                                 "out of range 1-4")
    assert len(line) < 200


def test_huge_box_option(capsys) -> None:
    line = assert_one_line_error(run(capsys, ["solve", "-b", "dlx", "--box", HUGE + "x2", EXAMPLE]),
                                 "box shape", "outside 2..64")
    assert len(line) < 200


def test_huge_grids_shape(capsys) -> None:
    assert_one_line_error(run(capsys, ["grids", "2x" + HUGE]), "outside 2..64")


@pytest.mark.parametrize("model, fragment", [
    ("s SATISFIABLE\nv 99999999999999999999 0\n", "line 2: literal 99999999999999999999 is beyond"),
    ("s SATISFIABLE\nv 1 -" + HUGE + " 0\n", "line 2: literal -999"),
    ("SAT\n1 2 " + HUGE + " 0\n", "line 2: literal 999"),
    ("s SATISFIABLE\nv 2147483648 0\n", "line 2: literal 2147483648 is beyond the largest variable, 2147483647"),
    ("s SATISFIABLE\nv --5 0\n", "line 2: '--5' is not an integer"),
    ("s SATISFIABLE\nv 1 \u00b2 0\n", "line 2: '\u00b2' is not an integer"),
    ("s SATISFIABLE\nv 1 +2 0\n", "line 2: '+2' is not an integer"),
    ("s SATISFIABLE\nv 1_000 0\n", "line 2: '1_000' is not an integer"),
    ("s SATISFIABLE\n\x00\n", "line 2: binary data"),
], ids=["20-digits", "5000-digits-v", "5000-digits-bare", "2^31", "--5", "superscript", "plus", "underscore",
        "nul"])
def test_bad_model_literals_name_the_file_and_line(tmp_path, capsys, model: str, fragment: str) -> None:
    path = write(tmp_path, "answer.txt", model)
    assert_one_line_error(run(capsys, ["decode", EXAMPLE, path]), "answer.txt", fragment)


def test_a_bare_line_of_dashes_and_digits_is_not_a_model(tmp_path, capsys) -> None:
    path = write(tmp_path, "answer.txt", "--5\n")
    assert_one_line_error(run(capsys, ["decode", EXAMPLE, path]), "answer.txt: no answer found")


def test_a_good_model_still_decodes(tmp_path, capsys) -> None:
    puzzle = read_puzzles(EXAMPLE)[0]
    solution = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    assert is_solution(solution, puzzle)
    literals = [r * 16 + c * 4 + solution[r * 4 + c] for r in range(4) for c in range(4)]
    path = write(tmp_path, "answer.txt", "s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n")
    code, out, err = run(capsys, ["decode", EXAMPLE, path])
    assert (code, out.strip(), err) == (0, "1234341221434321", "")


# 3. Output paths: a folder, symlinks, FIFOs, devices, SIGTERM

def test_export_to_a_folder(tmp_path, capsys) -> None:
    assert_one_line_error(run(capsys, ["export", EXAMPLE, "-o", str(tmp_path)]), str(tmp_path), "is a folder")
    assert list(tmp_path.iterdir()) == []


def test_export_to_a_missing_folder(tmp_path, capsys) -> None:
    target = str(tmp_path / "no" / "out.cnf")
    assert_one_line_error(run(capsys, ["export", EXAMPLE, "-o", target]), "does not exist")


def test_export_through_a_symlink_replaces_its_target(tmp_path, capsys) -> None:
    real = tmp_path / "real" / "out.cnf"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "link.cnf"
    link.symlink_to(real)
    assert run(capsys, ["export", EXAMPLE, "-o", str(link)])[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("c satdoku")
    assert sorted(p.name for p in real.parent.iterdir()) == ["out.cnf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.cnf", "real"]


def test_export_through_a_dangling_symlink_creates_its_target(tmp_path, capsys) -> None:
    link = tmp_path / "link.cnf"
    link.symlink_to(tmp_path / "target.cnf")
    assert run(capsys, ["export", EXAMPLE, "-o", str(link)])[0] == 0
    assert link.is_symlink() and (tmp_path / "target.cnf").read_text().startswith("c satdoku")


def test_export_to_a_symlink_loop(tmp_path, capsys) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert_one_line_error(run(capsys, ["export", EXAMPLE, "-o", str(tmp_path / "a")]), "loop")
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()


def test_export_into_a_fifo_writes_into_it(tmp_path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        assert run(capsys, ["export", EXAMPLE, "-o", str(fifo)])[0] == 0
    finally:
        reader.join(10)
        if reader.is_alive() and stat.S_ISFIFO(fifo.stat().st_mode):  # nothing written: release the reader
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
            reader.join(5)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert received and received[0].startswith(b"c satdoku")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def private_null(tmp_path: Path) -> Path:
    """A character device node like /dev/null in tmp_path (never the real one: a regression would replace it)."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as err:
        pytest.skip(f"cannot make a device node here ({err})")
    return node


def test_export_to_a_device_writes_into_it(tmp_path, capsys) -> None:
    node = private_null(tmp_path)
    assert run(capsys, ["export", EXAMPLE, "-o", str(node)])[0] == 0
    assert stat.S_ISCHR(node.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_export_through_a_symlink_to_a_device(tmp_path, capsys) -> None:
    node = private_null(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(node)
    assert run(capsys, ["export", EXAMPLE, "-o", str(link)])[0] == 0
    assert link.is_symlink() and stat.S_ISCHR(node.stat().st_mode)


def test_unwritable_folder_is_one_line(tmp_path, capsys) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert_one_line_error(run(capsys, ["export", EXAMPLE, "-o", str(folder / "x.cnf")]), "cannot write")
    finally:
        folder.chmod(0o755)


def test_sigterm_during_a_write_leaves_no_part_file(tmp_path, monkeypatch) -> None:
    real_replace = os.replace

    def replace_after_sigterm(src, dst):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises here
        real_replace(src, dst)

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(os, "replace", replace_after_sigterm)
    with pytest.raises(SystemExit) as stop:
        atomic_write(str(tmp_path / "out.cnf"), "data\n")
    assert stop.value.code == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) == before


SLOW_EXPORT = """
import os, sys, time
real = os.replace
def slow(src, dst):
    print("writing", flush=True)
    time.sleep(30)
    real(src, dst)
os.replace = slow
from satdoku.cli import main
sys.exit(main(["export", sys.argv[1], "-o", sys.argv[2]]))
"""


def test_sigterm_from_outside_during_export(tmp_path) -> None:
    """A real `kill -TERM` while export writes: exit 143, no .part file, no traceback."""
    target = tmp_path / "out.cnf"
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.Popen([sys.executable, "-c", SLOW_EXPORT, EXAMPLE, str(target)], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
        assert any(p.name.endswith(".part") for p in tmp_path.iterdir())
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


# 4. Character grids up to 64x64 in every alphabet

def test_empty_36x36_solves_with_dlx(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(("." * 1296 + "\n").encode())))
    code, out, err = run(capsys, ["solve", "-b", "dlx", "-"])
    assert (code, err) == (0, "")
    line = out.strip()
    assert len(line) == 1296 and set(line) == set(DIGITS[:36])


def test_30x30_letters_round_trip(tmp_path, capsys) -> None:
    g = Geometry(5, 6)
    puzzle = random_puzzle(g, random.Random(30), 0.4)
    text = "".join("." if v == 0 else LETTERS[v - 1] for v in puzzle.cells)
    parsed = parse_puzzle(text)
    assert parsed == puzzle and parsed.alphabet == LETTERS[:30]
    assert format_line(parsed.cells, parsed) == text
    code, out, err = run(capsys, ["solve", "-b", "dlx", write(tmp_path, "l30.txt", text + "\n")])
    assert (code, err) == (0, "")
    solved = parse_puzzle(out.strip())
    assert solved.alphabet == LETTERS[:30] and is_solution(solved.cells, puzzle)


@pytest.mark.parametrize("alphabet", [DIGITS, HEX, LETTERS], ids=["digits", "hex", "letters"])
@pytest.mark.parametrize("shape", [(5, 7), (6, 6), (6, 7), (7, 8), (8, 8)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_alphabet_reaches_64(alphabet: str, shape: tuple[int, int]) -> None:
    g = Geometry(*shape)
    puzzle = random_puzzle(g, random.Random(g.n), 0.5)
    blank = "." if alphabet is HEX else "0"
    text = "".join(blank if v == 0 else alphabet[v - 1] for v in puzzle.cells)
    box = None if shape in ((6, 6), (6, 7), (7, 8), (8, 8)) else g
    parsed = parse_puzzle(text, box)
    assert parsed == puzzle and parsed.alphabet == alphabet[:g.n]
    expected = text if alphabet is HEX else text.replace("0", ".")  # output writes '.' for blanks
    assert format_line(parsed.cells, parsed) == expected


def test_alphabets_are_64_distinct_symbols_and_readable() -> None:
    for alphabet in (DIGITS, HEX, LETTERS):
        assert len(alphabet) == len(set(alphabet)) == 64 and alphabet.isascii()
        assert not set(alphabet) & set(" \t.*_-|,;+=#[")


def test_lowercase_still_folds_up_to_35() -> None:
    p = random_puzzle(Geometry(5, 7), random.Random(2), 0.6)
    upper = "".join("." if v == 0 else DIGITS[v - 1] for v in p.cells)
    assert parse_puzzle(upper.lower(), Geometry(5, 7)) == p


def test_case_matters_above_35() -> None:
    p = random_puzzle(Geometry(6, 6), random.Random(3), 0.7)
    text = "".join("." if v == 0 else DIGITS[v - 1] for v in p.cells)
    assert "a" in text and "A" in text
    assert parse_puzzle(text).cells == p.cells


def test_out_of_range_symbol_names_the_alphabet(capsys, tmp_path) -> None:
    text = "@" + "." * 1295  # '@' is digit 62 of the digits alphabet
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", write(tmp_path, "a.txt", text + "\n")]),
                          "a.txt line 1, r1c1: digit '@' out of range for a 36x36 grid (1-a)")


# 5. Bounded reading

def test_dev_zero_fails_at_once(capsys) -> None:
    start = time.perf_counter()
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", "/dev/zero"]), "/dev/zero line 1", "binary data")
    assert time.perf_counter() - start < 5


def test_an_endless_line_fails_at_once(capsys, monkeypatch) -> None:
    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:
            b[:] = b"." * len(b)
            return len(b)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx"]), "stdin line 1",
                          f"a line longer than {MAX_LINE} characters")


def test_a_long_line_is_named(tmp_path, capsys) -> None:
    text = "1...\n...2\n\n" + "." * (MAX_LINE + 1) + "\n"
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", write(tmp_path, "long.txt", text)]),
                          "long.txt line 4: a line longer than 65536 characters")


def test_nul_bytes_and_binary_garbage(tmp_path, capsys) -> None:
    data = b"1...\n...2\n..4.\n.3\x00.\n"
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", write(tmp_path, "nul.txt", data)]),
                          "nul.txt line 4: binary data (a NUL byte)")
    garbage = bytes(random.Random(5).randrange(1, 256) for _ in range(3000))
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", write(tmp_path, "bin.txt", garbage)]), "bin.txt")


def test_a_gzip_bomb_stops_at_the_first_long_line(tmp_path, capsys) -> None:
    import gzip
    path = tmp_path / "bomb.txt.gz"
    path.write_bytes(gzip.compress(b"." * (50 << 20)))
    start = time.perf_counter()
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", str(path)]), "line 1: a line longer")
    assert time.perf_counter() - start < 5


def test_a_corrupt_gzip_file(tmp_path, capsys) -> None:
    import gzip
    data = bytearray(gzip.compress(b"1...\n...2\n..4.\n.3..\n" * 100))
    data[30:40] = b"\xff" * 10
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", write(tmp_path, "bad.gz", bytes(data))]), "bad.gz")


def test_many_lines_are_not_capped(tmp_path) -> None:
    lines = MAX_LINE // 8 + 1000  # more characters in all than the per-line cap, many times over
    path = write(tmp_path, "many.txt", "1000000200400300\n" * lines)
    assert len(read_text(path, MAX_LINE, "puzzle")) == 17 * lines
    assert len(read_puzzles(path)) == lines


def test_a_64x64_line_of_integers_fits_the_cap() -> None:
    p = random_puzzle(Geometry(8, 8), random.Random(64), 0.9)
    text = ", ".join(f"{v:2d}" for v in p.cells)
    assert len(text) < MAX_LINE
    assert parse_puzzle(text) == p


def test_invalid_utf8_is_an_unknown_character(tmp_path, capsys) -> None:
    data = b"1...\n...2\n..4.\n.3.\xff\n"
    assert_one_line_error(run(capsys, ["solve", "-b", "dlx", write(tmp_path, "u.txt", data)]),
                          "u.txt lines 1-4, r4c4: unknown character")


# 6. No command

def test_no_arguments_prints_usage_on_stderr(capsys) -> None:
    code, out, err = run(capsys, [])
    assert code == 2 and out == "" and err.startswith("usage: satdoku")
