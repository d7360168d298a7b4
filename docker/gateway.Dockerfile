# The public gateway: POST /scrabble-api, /score, /gcg/analyze, GET /lexicons, /health, /docs.
# Build from the repository root: docker build -f docker/gateway.Dockerfile .
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    NUMBA_CACHE_DIR=/numba-cache LEXICON_DIR=/data
COPY pyproject.toml README.md ./
COPY scrabble ./scrabble
COPY scripts ./scripts
COPY lexicon/sowpods.txt lexicon/enable.txt lexicon/PROVENANCE.md ./lexicon/
RUN pip install --no-cache-dir . && mkdir -p /numba-cache /data
EXPOSE 8000
HEALTHCHECK --interval=5s --timeout=3s --start-period=90s --retries=3 \
  CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2).status != 200)"
# python -m scrabble.gateway: uvicorn with the limits and graceful SIGTERM of docs/service.md
CMD ["python", "-m", "scrabble.gateway", "--host", "0.0.0.0", "--port", "8000"]
