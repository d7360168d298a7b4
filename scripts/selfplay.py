#!/usr/bin/env python3
"""Self-play between two move choosers, in pairs sharing the tile order: the
same as ``scrabble selfplay`` (``scrabble/match.py`` has the options).

    .venv/bin/python scripts/selfplay.py --a equity --b score --pairs 500 --seed 1
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.match import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
