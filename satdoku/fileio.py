"""Files in and out: output written whole or not at all (a temporary file, then a rename), input read
in bounded lines."""
from __future__ import annotations

import gzip
import io
import os
import signal
import stat
import sys
import tempfile
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from satdoku.errors import InputError, first_line

CHUNK = 1 << 20  # characters read at a time
MAX_LINE = 1 << 26  # characters in one line of any file read: a 64x64 model on one line needs about 15 M


def atomic_write(path: str, data: str | bytes) -> None:
    """Write `data` to `path` atomically ('-' is stdout); a name ending in .gz is gzip-compressed.

    An interrupted (SIGINT, SIGTERM) or failed write leaves no partial file behind. A symlink is
    written through: the new file replaces its target. A FIFO or device node is written into, never
    replaced. A folder, or a path in a folder that does not exist, is an InputError.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if path == "-":
        _write_stdout(raw)
        return
    try:
        target = output_target(path)
    except OSError as err:  # a name too long, a folder that cannot be searched ...
        raise InputError(f"{path}: cannot write ({err.strerror or first_line(err, 120)})") from None
    if path.endswith(".gz"):
        raw = gzip.compress(raw, mtime=0)
    try:
        with terminate_raises():
            if is_special(target):
                _write_into(target, raw)
            else:
                _replace(target, raw)
    except OSError as err:
        raise InputError(f"{path}: cannot write ({err.strerror or first_line(err, 120)})") from None


@contextmanager
def atomic_output(path: str | None) -> Iterator[TextIO]:
    """A text stream for a run's output: stdout (None or '-'), or a temporary file beside `path` that
    replaces it only when the block ends without an error, so a run that fails or is stopped leaves no
    half-written file (a FIFO or device is written into as it goes; .gz is compressed).

    >>> import tempfile, os
    >>> target = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with atomic_output(target) as out:
    ...     _ = out.write("done\\n")
    >>> open(target).read()
    'done\\n'
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    try:
        target = output_target(path)
    except OSError as err:
        raise InputError(f"{path}: cannot write ({err.strerror or first_line(err, 120)})") from None
    if is_special(target):
        with open(target, "w", encoding="utf-8") as out:
            yield out
        return
    tmp: str | None = None
    try:
        with terminate_raises():
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            os.fchmod(fd, 0o666 & ~_umask())
            raw = os.fdopen(fd, "wb")
            stream = gzip.open(raw, "wt", encoding="utf-8") if path.endswith(".gz") else \
                io.TextIOWrapper(raw, encoding="utf-8")
            with stream:
                yield stream
            os.replace(tmp, target)
    except OSError as err:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise InputError(f"{path}: cannot write ({err.strerror or first_line(err, 120)})") from None
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


def _write_stdout(raw: bytes) -> None:
    """Bytes to standard output (as text when it has no byte buffer, as under redirect_stdout)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(raw.decode("utf-8", errors="replace"))
    else:
        sys.stdout.flush()
        buffer.write(raw)
    sys.stdout.flush()


def output_target(path: str) -> Path:
    """The file an output path writes: symlinks resolved; InputError for a folder or a missing folder.

    >>> output_target("/")
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: /: is a folder; give a file name to write
    """
    target = Path(os.path.realpath(path))
    if target.is_symlink():
        raise InputError(f"{path}: a loop of symbolic links; cannot write it")
    if path.endswith(os.sep) or target.is_dir():
        raise InputError(f"{path}: is a folder; give a file name to write")
    if not target.parent.is_dir():
        folder = target.parent if Path(path).is_symlink() else Path(path).parent
        raise InputError(f"{path}: folder {str(folder)!r} does not exist")
    if target.exists() and not (target.is_file() or is_special(target)):
        raise InputError(f"{path}: not a regular file, FIFO or device; cannot write it")
    return target


def is_special(path: Path) -> bool:
    """True for a FIFO or a character or block device: written into, never replaced."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def _write_into(target: Path, raw: bytes) -> None:
    """Write into an existing FIFO or device, as cp does (never created: no O_CREAT)."""
    fd = os.open(target, os.O_WRONLY)
    with os.fdopen(fd, "wb") as out:
        out.write(raw)


def _replace(target: Path, raw: bytes) -> None:
    """A temporary file beside the target, renamed over it; removed if anything interrupts."""
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def terminate_raises() -> Iterator[None]:
    """While the block runs, SIGTERM raises SystemExit(143) so that cleanups run; the old handler returns after.

    Only in the main thread (the only one that may set handlers), and not when SIGTERM is ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.getsignal(signal.SIGTERM)
    if old == signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old if old is not None else signal.SIG_DFL)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _umask() -> int:
    """The process's file-creation mask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_text(path: str, max_line: int | None = MAX_LINE, kind: str = "text") -> str:
    """A text file's contents ('-' is stdin, .gz is decompressed); a missing file is an InputError.

    Read in chunks: a line longer than `max_line` characters (None: no cap) or a NUL byte is an
    InputError naming the file and line as soon as it is read, so /dev/zero fails at once. The
    number of lines is not capped. Bytes that are not UTF-8 read as U+FFFD.
    """
    return "".join(line for lines in file_chunks(path, max_line, kind) for line in lines)


def iter_lines(path: str, max_line: int | None = MAX_LINE, kind: str = "text") -> Iterator[str]:
    """A text file's lines without their line ends, read as they come, with `read_text`'s checks; memory holds
    one chunk at a time, whatever the file's size."""
    for lines in file_chunks(path, max_line, kind):
        yield from (line.rstrip("\r\n") for line in lines if line)


def file_chunks(path: str, max_line: int | None = MAX_LINE, kind: str = "text") -> Iterator[list[str]]:
    """A text file's lines (with their ends) a chunk at a time ('-' is stdin, .gz is decompressed); a missing
    file, an over-long line or a NUL byte is an InputError naming the file (and line)."""
    source = "stdin" if path == "-" else path
    try:
        if path == "-":
            yield from _stdin_chunks(source, max_line, kind)
            return
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as stream:
            yield from checked_chunks(stream, source, max_line, kind)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except (OSError, EOFError, zlib.error) as err:
        raise InputError(f"{source}: cannot read ({first_line(err, 120)})") from None


def _stdin_chunks(source: str, max_line: int | None, kind: str) -> Iterator[list[str]]:
    """Standard input's lines a chunk at a time, decoded leniently from its bytes when it has them."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        yield from checked_chunks(sys.stdin, source, max_line, kind)
        return
    stream = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace")
    try:
        yield from checked_chunks(stream, source, max_line, kind)
    finally:
        stream.detach()  # leave sys.stdin's buffer open


def bounded_read(stream: TextIO, source: str, max_line: int | None = MAX_LINE, kind: str = "text") -> str:
    """All of a text stream, read in chunks; a line over `max_line` characters or a NUL is an InputError.

    >>> bounded_read(io.StringIO("ab\\ncd\\n"), "f")
    'ab\\ncd\\n'
    >>> bounded_read(io.StringIO("ab\\nabcdef\\n"), "f", 4, "puzzle")
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: f line 2: a line longer than 4 characters; not a puzzle file?
    """
    return "".join(line for lines in checked_chunks(stream, source, max_line, kind) for line in lines)


def checked_chunks(stream: TextIO, source: str, max_line: int | None = MAX_LINE,
                   kind: str = "text") -> Iterator[list[str]]:
    """A text stream's lines (with their line ends), a chunk's worth at a time, each checked as it is read."""
    carry, lineno = "", 0
    while chunk := stream.read(CHUNK):
        lines = (carry + chunk).splitlines(keepends=True)
        last = lines[-1] if lines else ""
        open_end = last == last.rstrip("\r\n") or last.endswith("\r")  # a final '\r' may be half of '\r\n'
        carry = lines.pop() if last and open_end else ""
        _check_lines(lines + [carry], source, lineno, max_line, kind)
        lineno += len(lines)
        yield lines
    yield [carry]


def _check_lines(lines: list[str], source: str, before: int, max_line: int | None, kind: str) -> None:
    """InputError for the first line that is over-long or holds a NUL byte; `before` lines came earlier."""
    too_long = max_line is not None and max(map(len, lines)) > max_line
    if not too_long and not any("\x00" in line for line in lines):
        return
    for lineno, line in enumerate(lines, before + 1):
        if "\x00" in line:
            raise InputError(f"{source} line {lineno}: binary data (a NUL byte), not a {kind} file")
        if max_line is not None and len(line.rstrip("\r\n")) > max_line:
            raise InputError(f"{source} line {lineno}: a line longer than {max_line} characters; "
                             f"not a {kind} file?")
