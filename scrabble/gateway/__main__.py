"""``python -m scrabble.gateway``: the public gateway under uvicorn with its limits."""

import sys

from scrabble.serving.server import main

# the guard matters: compute processes are spawned, and spawn imports the
# parent's main module (as __mp_main__) in each of them
if __name__ == "__main__":
    sys.exit(main("scrabble.gateway.app:app", "GATEWAY", 8000))
