"""Reading files a user names (rule files, manifests, strategy files): regular files only, size-capped, so a
FIFO, a device or a folder is refused in one line rather than blocking or failing with a traceback."""
from __future__ import annotations

import os
import stat
from pathlib import Path


class NotAFile(OSError):
    """The path exists but is not a regular file (a folder, a FIFO, a device)."""


def read_regular_file(path: str | Path, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file (at most max_bytes + 1, so a caller can tell it is too large); NotAFile for
    a folder, FIFO or device (opened without blocking, never read), OSError as open() raises it."""
    def opener(name, flags):
        return os.open(name, flags | os.O_NONBLOCK)
    with open(path, "rb", opener=opener) as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise NotAFile(f"is {kind}")
        return handle.read() if max_bytes is None else handle.read(max_bytes + 1)
