"""docker-compose.yml and the Dockerfiles, checked without a Docker engine."""

from __future__ import annotations

import pytest
import yaml

from tooling.services import ROOT


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_only_the_gateway_is_published(compose):
    services = compose["services"]
    assert set(services) == {"lexicon", "worker", "gateway"}
    assert services["gateway"]["ports"] == ["${GATEWAY_PORT:-8000}:8000"]
    assert "ports" not in services["worker"] and "expose" not in services["worker"]
    assert services["worker"]["networks"] == ["internal"]
    assert compose["networks"]["internal"]["internal"] is True
    assert "public" in services["gateway"]["networks"]
    assert services["gateway"]["environment"]["WORKER_URL"] == "http://worker:8001"


def test_lexicon_built_once_and_shared(compose):
    services = compose["services"]
    assert "build_lexicon.py" in " ".join(services["lexicon"]["command"])
    assert "lexicon-data:/data" in services["lexicon"]["volumes"]
    for name in ("worker", "gateway"):
        svc = services[name]
        assert "lexicon-data:/data:ro" in svc["volumes"]
        assert svc["depends_on"]["lexicon"]["condition"] == "service_completed_successfully"
    # the worker's table is one lexicon; the gateway serves every store built
    assert services["worker"]["environment"]["LEXICON_DB"] == "/data/sowpods.sqlite"
    assert services["gateway"]["environment"]["LEXICON_DIR"] == "/data"
    assert "enable" in " ".join(services["lexicon"]["command"])
    assert set(compose["volumes"]) >= {"lexicon-data"}


@pytest.mark.parametrize(("name", "port"), [("worker", 8001), ("gateway", 8000)])
def test_healthchecks_and_dockerfiles(compose, name, port):
    svc = compose["services"][name]
    check = " ".join(svc["healthcheck"]["test"])
    assert f"127.0.0.1:{port}/health" in check
    dockerfile = ROOT / svc["build"]["dockerfile"]
    assert svc["build"]["context"] == "."
    text = dockerfile.read_text()
    # the launcher with the limits and graceful shutdown, not bare uvicorn
    assert f'CMD ["python", "-m", "scrabble.{name}"' in text and f'"--port", "{port}"' in text
    assert "HEALTHCHECK" in text
    assert svc["restart"] == "unless-stopped" and svc["init"] is True
    assert int(svc["stop_grace_period"].rstrip("s")) > 10  # the 10 s drain fits
    for line in text.splitlines():  # everything copied exists in the build context
        if line.startswith("COPY "):
            for src in line.split()[1:-1]:
                assert (ROOT / src).exists(), src
