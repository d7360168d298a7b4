"""glibc malloc settings for a long-running service process.

glibc serves an allocation of 128 KiB or more with mmap, but after the first
such block is freed it raises that threshold (up to 32 MiB), so later large
blocks (a response's JSON, a two-blank position's arrays) come from the heap,
where a few that live on (cached answers) pin the freed ones around them. The
worker held 567 MB after 100 two-blank positions that way, 203 MB with the
threshold fixed at 64 KiB (``docs/service.md``). Fixing it turns the dynamic
adjustment off; every large block then goes back to the system when freed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

M_MMAP_THRESHOLD = -3  # glibc's <malloc.h>
MMAP_THRESHOLD = int(os.environ.get("SERVICE_MMAP_THRESHOLD", 64 * 1024))


def fix_mmap_threshold(threshold: int = MMAP_THRESHOLD) -> bool:
    """Fix malloc's mmap threshold; False where there is no glibc (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, threshold))
