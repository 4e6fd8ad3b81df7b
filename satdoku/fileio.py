"""Writing output files whole or not at all: a temporary file beside the target, then a rename."""
from __future__ import annotations

import gzip
import os
import sys
import tempfile
from pathlib import Path

from satdoku.errors import InputError


def atomic_write(path: str, data: str | bytes) -> None:
    """Write `data` to `path` atomically ('-' is stdout); a name ending in .gz is gzip-compressed.

    An interrupted or failed write leaves no partial file behind.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if path == "-":
        sys.stdout.buffer.write(raw)
        sys.stdout.flush()
        return
    target = Path(path)
    if not target.parent.is_dir():
        raise InputError(f"{path}: folder {str(target.parent)!r} does not exist")
    if path.endswith(".gz"):
        raw = gzip.compress(raw, mtime=0)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's file-creation mask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_text(path: str) -> str:
    """A text file's contents ('-' is stdin, .gz is decompressed); a missing file is an InputError."""
    if path == "-":
        return sys.stdin.read()
    try:
        if path.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
                return f.read()
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except (OSError, EOFError) as err:
        raise InputError(f"{path}: cannot read ({err})") from None
