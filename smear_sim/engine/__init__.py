"""How work runs: the one chunked runner every simulating command uses, its executors (threads, the page's
turn-taking in :mod:`smear_sim.engine.turns`, Dask) and the throughput benchmark."""
