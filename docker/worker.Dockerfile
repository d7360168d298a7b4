# The internal worker: compact Numba signature table behind POST /candidates.
# Build from the repository root: docker build -f docker/worker.Dockerfile .
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    NUMBA_CACHE_DIR=/numba-cache LEXICON_DB=/data/sowpods.sqlite
COPY pyproject.toml README.md ./
COPY scrabble ./scrabble
COPY scripts ./scripts
COPY lexicon/sowpods.txt lexicon/enable.txt lexicon/PROVENANCE.md ./lexicon/
RUN pip install --no-cache-dir . && mkdir -p /numba-cache /data
EXPOSE 8001
# /health is 503 until the table is loaded and the probe compiled
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 \
  CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8001/health', timeout=2).status != 200)"
# python -m scrabble.worker: uvicorn with the limits and graceful SIGTERM of docs/service.md
CMD ["python", "-m", "scrabble.worker", "--host", "0.0.0.0", "--port", "8001"]
