"""``python -m scrabble.worker``: the internal worker under uvicorn with its limits."""

import sys

from scrabble.serving.server import main

if __name__ == "__main__":
    sys.exit(main("scrabble.worker.app:app", "WORKER", 8001))
