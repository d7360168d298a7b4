"""``python -m gateway``: the public gateway under uvicorn with its limits."""

import sys

from serving.server import main

sys.exit(main("gateway.app:app", "GATEWAY", 8000))
