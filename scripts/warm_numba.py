#!/usr/bin/env python3
"""Compile every Numba function once, so Numba's on-disk cache is warm
(``tooling/warm.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.warm import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
