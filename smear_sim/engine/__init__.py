"""How work runs: the one chunked runner every simulating command uses, and the throughput benchmark."""
