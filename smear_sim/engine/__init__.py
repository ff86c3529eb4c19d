"""How work runs: the jobs (one builder per driver, :mod:`smear_sim.engine.jobs`), the one chunked runner every
simulating command uses, its executors (threads, the page's turn-taking in :mod:`smear_sim.engine.turns`, Dask) and
the throughput benchmark."""
