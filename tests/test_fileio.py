"""Atomic output files: whole or absent, the usual permissions, gzip by name."""
from __future__ import annotations

import gzip
import os
import stat

import pytest

from satdoku.errors import InputError
from satdoku.fileio import atomic_write, read_text


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


def test_failed_write_leaves_nothing(tmp_path, monkeypatch) -> None:
    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(str(tmp_path / "out.txt"), "data")
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_is_an_input_error(tmp_path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        atomic_write(str(tmp_path / "no" / "out.txt"), "data")
