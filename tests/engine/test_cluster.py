"""Finding a cluster (smear_sim/engine/cluster.py): the --cluster and --scheduler values, and bad ones."""

from __future__ import annotations

import pytest

from smear_sim.core.errors import SmearError
from smear_sim.engine.cluster import parse_cluster, parse_scheduler, timeout


def test_parse_cluster():
    assert parse_cluster("local") is None  # one worker per core
    assert parse_cluster("local:3") == 3
    assert parse_cluster(" LOCAL:1 ") == 1
    for bad, words in [("local:0", "from 1 to 1,024"), ("local:2000", "from 1 to 1,024"), ("local:", "local:N"),
                       ("local:two", "local:N"), ("lokal", "local:N"), ("tcp://10.0.0.5:8786", "--scheduler")]:
        with pytest.raises(SmearError, match=words):
            parse_cluster(bad)


def test_parse_scheduler():
    assert parse_scheduler("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert parse_scheduler("10.0.0.5") == "tcp://10.0.0.5:8786"  # Dask's default port
    assert parse_scheduler("head-node:9000") == "tcp://head-node:9000"
    assert parse_scheduler("tls://head.example.org:8786/") == "tls://head.example.org:8786"
    assert parse_scheduler("tcp://[::1]:8786") == "tcp://[::1]:8786"
    for bad in ("", "tcp://", "http://10.0.0.5:8786", "10.0.0.5:0", "10.0.0.5:99999", "two words:1", "host:port"):
        with pytest.raises(SmearError, match="--scheduler takes a Dask scheduler's address"):
            parse_scheduler(bad)


def test_the_timeout_comes_from_the_environment(monkeypatch):
    assert timeout() == 10
    monkeypatch.setenv("SMEAR_SIM_SCHEDULER_TIMEOUT", "0.5")
    assert timeout() == 0.5
    monkeypatch.setenv("SMEAR_SIM_SCHEDULER_TIMEOUT", "0")
    with pytest.raises(SmearError, match="SMEAR_SIM_SCHEDULER_TIMEOUT must be a positive number"):
        timeout()


def test_local_workers_keep_the_adaptive_malloc_threshold(monkeypatch):
    # Dask's nanny sets MALLOC_TRIM_THRESHOLD_, which made the search player a quarter slower on its workers.
    pytest.importorskip("distributed")
    import os

    from smear_sim.engine.cluster import dask_executor

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    with dask_executor(workers=1) as executor:
        seen = executor.client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
    assert list(seen.values()) == [None]
