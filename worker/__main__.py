"""``python -m worker``: the internal worker under uvicorn with its limits."""

import sys

from serving.server import main

if __name__ == "__main__":
    sys.exit(main("worker.app:app", "WORKER", 8001))
