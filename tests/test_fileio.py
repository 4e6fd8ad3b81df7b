"""Atomic output files (whole or absent, the usual permissions, gzip by name, links and special files),
and bounded reading (line cap, NUL bytes, stdin)."""
from __future__ import annotations

import gzip
import io
import os
import signal
import stat
import sys
import threading

import pytest

from satdoku import fileio
from satdoku.errors import InputError
from satdoku.fileio import atomic_write, bounded_read, output_target, read_text, terminate_raises


def test_written_file_has_the_umask_mode(tmp_path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write(str(tmp_path / "out.txt"), "hello\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == 0o644
    assert read_text(str(tmp_path / "out.txt")) == "hello\n"


def test_gzip_by_name_round_trips(tmp_path) -> None:
    path = tmp_path / "out.cnf.gz"
    atomic_write(str(path), "p cnf 1 1\n1 0\n")
    assert gzip.decompress(path.read_bytes()) == b"p cnf 1 1\n1 0\n"
    assert read_text(str(path)) == "p cnf 1 1\n1 0\n"


def test_failed_write_leaves_nothing_and_is_one_input_error(tmp_path, monkeypatch) -> None:
    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(InputError, match=r"out.txt: cannot write \(No space left on device\)"):
        atomic_write(str(tmp_path / "out.txt"), "data")
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_is_an_input_error(tmp_path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        atomic_write(str(tmp_path / "no" / "out.txt"), "data")


# bounded reading


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_bounded_read_is_the_whole_text_whatever_the_chunk(monkeypatch, chunk: int) -> None:
    monkeypatch.setattr(fileio, "CHUNK", chunk)
    text = "ab\ncd\r\n\nefg\x0chij\n\nlast"
    assert bounded_read(io.StringIO(text), "f", 4) == text


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20])
def test_the_long_line_is_named_as_parse_puzzles_counts_lines(monkeypatch, chunk: int) -> None:
    monkeypatch.setattr(fileio, "CHUNK", chunk)
    text = "ab\r\ncd\x0cef\n\n" + "x" * 9 + "\n"
    # splitlines: 'ab', 'cd', 'ef', '', 'xxxxxxxxx' -> the fifth line
    with pytest.raises(InputError, match=r"^f line 5: a line longer than 8 characters; not a puzzle file\?$"):
        bounded_read(io.StringIO(text), "f", 8, "puzzle")


def test_a_line_exactly_at_the_cap_is_read() -> None:
    assert bounded_read(io.StringIO("x" * 8 + "\n" + "y" * 8), "f", 8) == "x" * 8 + "\n" + "y" * 8


def test_nul_names_its_line() -> None:
    with pytest.raises(InputError, match="f line 3: binary data"):
        bounded_read(io.StringIO("a\nb\nc\x00d\n"), "f", None)


def test_read_text_of_stdin_without_a_byte_buffer(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1...\n"))
    assert read_text("-") == "1...\n"


def test_read_text_of_stdin_bytes_that_are_not_utf8(monkeypatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"1.\xff.\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert read_text("-") == "1.\ufffd.\n"
    assert not stdin.buffer.closed  # the wrapper around sys.stdin's buffer was detached, not closed


def test_gzip_stream_is_bounded_too(tmp_path) -> None:
    path = tmp_path / "long.gz"
    path.write_bytes(gzip.compress(b"." * 100 + b"\n"))
    with pytest.raises(InputError, match="line 1: a line longer than 50"):
        read_text(str(path), 50)


def test_a_folder_and_a_missing_file_are_input_errors(tmp_path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        read_text(str(tmp_path))
    with pytest.raises(InputError, match="no such file"):
        read_text(str(tmp_path / "missing.txt"))


# where output goes


def test_stdout_without_a_byte_buffer(monkeypatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    atomic_write("-", "p cnf 1 1\n")
    assert out.getvalue() == "p cnf 1 1\n"


def test_output_target_resolves_links_and_refuses_folders(tmp_path) -> None:
    (tmp_path / "real.txt").write_text("x")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    assert output_target(str(tmp_path / "link.txt")) == (tmp_path / "real.txt").resolve()
    for folder in (str(tmp_path), str(tmp_path) + "/", str(tmp_path / "new") + "/"):
        with pytest.raises(InputError, match="is a folder"):
            output_target(folder)


def test_a_socket_is_not_replaced(tmp_path) -> None:
    import socket
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(InputError, match="not a regular file, FIFO or device"):
            atomic_write(str(path), "data")
        assert stat.S_ISSOCK(path.stat().st_mode)
    finally:
        server.close()


def test_an_existing_file_is_replaced_whole(tmp_path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old and longer\n")
    atomic_write(str(path), "new\n")
    assert path.read_text() == "new\n" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_sigterm_handler_is_restored_and_respects_ignore() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with terminate_raises():
        assert signal.getsignal(signal.SIGTERM) not in (before, signal.SIG_IGN)
    assert signal.getsignal(signal.SIGTERM) == before
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with terminate_raises():
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before)


def test_sigterm_handler_is_left_alone_outside_the_main_thread(tmp_path) -> None:
    seen: list[object] = []

    def write_in_thread() -> None:
        with terminate_raises():
            seen.append(signal.getsignal(signal.SIGTERM))
        atomic_write(str(tmp_path / "t.txt"), "x")

    before = signal.getsignal(signal.SIGTERM)
    worker = threading.Thread(target=write_in_thread)
    worker.start()
    worker.join(10)
    assert seen == [before] and (tmp_path / "t.txt").read_text() == "x"
