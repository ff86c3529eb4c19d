"""The training library, chosen by measuring (docs/learned.md): one epoch of the card head in PyTorch or in JAX+optax.

    python benchmarks/train_libraries.py --library torch [--rows 20000] [--hidden 128] [--epochs 3]
    python benchmarks/train_libraries.py --library jax

Each library in a virtual environment of its own with only numpy beside it (this script imports nothing of
smear-sim, so it runs there): the same made-up data (a seeded generator: view-tensor-like rows of 819 entries with
about 54 set, a legal mask, a target per card), the same net (819 -> H -> H -> 54, ReLU), Adam at 1e-3, batches of
256, the masked MSE of tools/train_net.py. Prints the first epoch (compiling included, for JAX) and the median of the
others, in seconds, on the threads the library takes by default (all cores) and on one.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

VT_SIZE, N_OUT = 819, 54


def make_data(rows: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = np.zeros((rows, VT_SIZE), dtype=np.float32)
    for row in x:
        row[rng.choice(VT_SIZE, 54, replace=False)] = 1
    legal = rng.random((rows, N_OUT)) < 0.2
    legal[np.arange(rows), rng.integers(0, N_OUT, rows)] = True
    direction = rng.standard_normal((VT_SIZE, N_OUT)).astype(np.float32) * 0.1
    win = np.where(legal, 1 / (1 + np.exp(-(x @ direction))), 0).astype(np.float32)
    return x, legal, win


def torch_epochs(x, legal, win, hidden, epochs, batch, threads):
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(threads)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(VT_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                          nn.Linear(hidden, N_OUT))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, legal, win = torch.from_numpy(x), torch.from_numpy(legal), torch.from_numpy(win)
    times = []
    for _ in range(epochs):
        started = time.perf_counter()
        order = torch.randperm(len(x))
        for start in range(0, len(x), batch):
            index = order[start:start + batch]
            mask = legal[index].float()
            loss = (((model(x[index]) - win[index]) ** 2) * mask).sum() / mask.sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        times.append(time.perf_counter() - started)
    return torch.__version__, times


def jax_epochs(x, legal, win, hidden, epochs, batch, threads):
    import jax
    import jax.numpy as jnp
    import optax

    key = jax.random.PRNGKey(0)
    sizes = [VT_SIZE, hidden, hidden, N_OUT]
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
        key, sub = jax.random.split(key)
        bound = 1 / n_in ** 0.5
        params.append((jax.random.uniform(sub, (n_in, n_out), minval=-bound, maxval=bound), jnp.zeros(n_out)))

    def forward(params, x):
        for i, (w, b) in enumerate(params):
            x = x @ w + b
            if i < len(params) - 1:
                x = jax.nn.relu(x)
        return x

    def loss_fn(params, x, mask, win):
        return (((forward(params, x) - win) ** 2) * mask).sum() / mask.sum()

    optimizer = optax.adam(1e-3)
    state = optimizer.init(params)

    @jax.jit
    def step(params, state, x, mask, win):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, mask, win)
        updates, state = optimizer.update(grads, state)
        return optax.apply_updates(params, updates), state, loss

    rng = np.random.default_rng(0)
    mask = legal.astype(np.float32)
    times = []
    full = len(x) // batch * batch  # whole batches only: a last short batch would compile a second step
    for _ in range(epochs):
        started = time.perf_counter()
        order = rng.permutation(len(x))[:full]
        for start in range(0, full, batch):
            index = order[start:start + batch]
            params, state, loss = step(params, state, x[index], mask[index], win[index])
        loss.block_until_ready()
        times.append(time.perf_counter() - started)
    return jax.__version__, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", choices=("torch", "jax"), required=True)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="torch: set_num_threads; jax: run the script under XLA_FLAGS for one thread")
    args = parser.parse_args()
    x, legal, win = make_data(args.rows)
    run = torch_epochs if args.library == "torch" else jax_epochs
    version, times = run(x, legal, win, args.hidden, args.epochs, args.batch, args.threads)
    print(json.dumps({"library": args.library, "version": version, "rows": args.rows, "hidden": args.hidden,
                      "threads": args.threads, "first_epoch_s": round(times[0], 2),
                      "epoch_s": round(float(np.median(times[1:] or times)), 2)}))


if __name__ == "__main__":
    main()
