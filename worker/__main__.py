"""``python -m worker``: the internal worker under uvicorn with its limits."""

import sys

from serving.server import main

sys.exit(main("worker.app:app", "WORKER", 8001))
