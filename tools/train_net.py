"""Train the learned player's nets (issue 47) from the search's training data, and write them with their model card.

Reads every chunk (``*.npz``, the format of smear_sim.analysis.net_data; docs/learned.md) in DATA, trains the
``card`` head (a value per card: each legal card's P(win) under the search) and the ``keep`` head (the P(win) of the
position after trump and the keep), and writes ``net.npz`` (smear_sim/engine/net_weights.py's format) and
``net.json`` (the model card: inputs, sizes, data, seeds, loss, held-out error, time taken, the weights' sha256) into
--out, both atomically and only at the end: Ctrl-C leaves the old files, or none.

Whole chunks are held out (--held-out), never single rows, so that no position of a held-out hand is trained on.
The same data and --seed give the same weights (seeded draws and shuffles; XLA on the CPU, on one thread unless
--all-cores). Needs JAX and optax: pip install -e '.[train]' (docs/learned.md says why this library).

Example (a seconds-long run on a small folder of chunks, writing beside it rather than into the package):

    python tools/train_net.py runs/net/heuristic --out runs/try --epochs 10 --hidden 64 --seed 1
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from smear_sim._version import __version__
from smear_sim.core.cards import DECK_SIZE
from smear_sim.core.errors import SmearError, one_line
from smear_sim.core.io import atomic_write, check_output_file, signals_deferred
from smear_sim.core.view_layout import VIEW_FIELDS, VT_SIZE
from smear_sim.engine.net_weights import FORMAT, HEAD_OUTPUTS, NetHead, save_net, weights_digest

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "smear_sim" / "data"
CARD_ARRAYS = {"card_tensor": (np.float32, (VT_SIZE,)), "card_legal": (np.bool_, (DECK_SIZE,)),
               "card_win": (np.float32, (DECK_SIZE,))}
KEEP_ARRAYS = {"keep_tensor": (np.float32, (VT_SIZE,)), "keep_win": (np.float32, ()),
               "keep_decision": (np.int64, ())}


def layout_digest() -> str:
    """A short sha256 of the view tensor's layout (its fields' names and sizes): a net reads one layout."""
    import hashlib

    text = json.dumps([[name, size] for name, size, _ in VIEW_FIELDS])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- the data -------------------------------------------------------------------------------------------------------


@dataclass
class Data:
    """The decisions of some chunks: card decisions as rows; keep candidates as rows grouped by decision."""

    card_tensor: np.ndarray
    card_legal: np.ndarray
    card_win: np.ndarray
    keep_tensor: np.ndarray
    keep_win: np.ndarray
    keep_groups: np.ndarray  # int64[decisions, most candidates]: each decision's rows, -1 past its last

    @property
    def keep_decisions(self) -> int:
        return len(self.keep_groups)


def _check_chunk(path: Path, data) -> dict[str, np.ndarray]:
    arrays = {}
    for key, (dtype, tail) in {**CARD_ARRAYS, **KEEP_ARRAYS}.items():
        if key not in data.files:
            raise SmearError(f"{path} has no '{key}': it is not a training data chunk (smear_sim.analysis.net_data)")
        array = data[key]
        if array.dtype != dtype or array.shape[1:] != tail:
            raise SmearError(f"{path}: '{key}' is {array.dtype}{list(array.shape)}, not {np.dtype(dtype)}[N"
                             f"{''.join(f', {n}' for n in tail)}]")
        arrays[key] = array
    for group in (CARD_ARRAYS, KEEP_ARRAYS):
        if len({len(arrays[key]) for key in group}) != 1:
            raise SmearError(f"{path}: the arrays {', '.join(group)} have different numbers of rows")
    for key in ("card_tensor", "card_win", "keep_tensor", "keep_win"):
        if not np.isfinite(arrays[key]).all():
            raise SmearError(f"{path}: '{key}' holds a value that is not finite")
    return arrays


def _chunk_meta(data) -> dict:
    """A chunk's metadata: its JSON ``meta``, and any other 0-d array it holds (the contract allows either)."""
    meta = {}
    if "meta" in data.files:
        found = json.loads(str(data["meta"]))
        meta.update(found if isinstance(found, dict) else {})
    for key in data.files:
        if key != "meta" and key not in CARD_ARRAYS and key not in KEEP_ARRAYS:
            value = data[key]
            if value.shape == ():
                meta.setdefault(key, value.item())
    return meta


def decision_groups(decision: np.ndarray, offset: int = 0) -> np.ndarray:
    """The rows of each keep decision (``keep_decision``'s values, in order) as a [decisions, widest] matrix of row
    numbers (plus ``offset``), -1 past a decision's last candidate."""
    order = np.argsort(decision, kind="stable")
    _, starts, counts = np.unique(decision[order], return_index=True, return_counts=True)
    groups = np.full((len(counts), max(1, counts.max(initial=1))), -1, dtype=np.int64)
    within = np.arange(len(order)) - np.repeat(starts, counts)
    groups[np.repeat(np.arange(len(counts)), counts), within] = order + offset
    return groups


def read_chunks(paths: list[Path]) -> tuple[Data, list[dict]]:
    """The chunks' decisions, checked, and each chunk's metadata."""
    parts, metas = [], []
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = _check_chunk(path, data)
                metas.append(_chunk_meta(data))
        except (OSError, ValueError, EOFError, AttributeError) as exc:
            raise SmearError(f"{path} is not a training data chunk: {exc}") from None
        parts.append(arrays)
    groups, offset = [], 0
    for arrays in parts:
        groups.append(decision_groups(arrays["keep_decision"], offset))
        offset += len(arrays["keep_decision"])
    widest = max(g.shape[1] for g in groups)
    keep_groups = np.concatenate([np.pad(g, ((0, 0), (0, widest - g.shape[1])), constant_values=-1) for g in groups])
    join = lambda key: np.concatenate([arrays[key] for arrays in parts])  # noqa: E731
    return Data(join("card_tensor"), join("card_legal"), join("card_win"), join("keep_tensor"), join("keep_win"),
                keep_groups), metas


def split_chunks(paths: list[Path], held_out: float, seed: int) -> tuple[list[Path], list[Path]]:
    """Training and held-out chunks: a seeded draw of ``held_out`` of them (one at least), whole."""
    order = np.random.default_rng(seed).permutation(len(paths))
    n_held = min(len(paths) - 1, max(1, round(held_out * len(paths))))
    held = set(order[:n_held].tolist())
    return [p for i, p in enumerate(paths) if i not in held], [p for i, p in enumerate(paths) if i in held]


def data_summary(metas: list[dict]) -> dict:
    """What the chunks say of themselves: each metadata key's distinct values in the order met (one value alone as
    itself), hands summed; the chunk's own index left out."""
    summary: dict = {"chunks": len(metas)}
    for key in sorted({key for meta in metas for key in meta} - {"chunk", "chunk_index"}):
        values = [meta[key] for meta in metas if key in meta]
        if key == "hands" and all(isinstance(v, int) for v in values):
            summary[key] = sum(values)
            continue
        distinct = [json.loads(v) for v in dict.fromkeys(json.dumps(v, sort_keys=True) for v in values)]
        summary[key] = distinct[0] if len(distinct) == 1 else distinct
    return summary


# -- the model and its training (JAX and optax) ----------------------------------------------------------------------


def load_libraries(all_cores: bool = False):
    """JAX, its numpy and optax, on the CPU, on one thread unless ``all_cores`` (XLA reads its flags at import)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the shipped nets are made, and remade, on the CPU
    if not all_cores:
        one = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {one}".strip()
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise SmearError("tools/train_net.py needs JAX and optax: pip install -e '.[train]'") from None
    return jax, jnp, optax


def init_head(jax, key, hidden: int, n_out: int) -> list[tuple]:
    """A head's layers ``(w, b)``, ``w`` input-major as the weights file keeps it, drawn as PyTorch's Linear draws
    them (uniform within 1/sqrt(inputs))."""
    sizes = (VT_SIZE, hidden, hidden, n_out)
    layers = []
    for n_in, n_out_layer in zip(sizes[:-1], sizes[1:], strict=True):
        key, w_key, b_key = jax.random.split(key, 3)
        bound = 1 / math.sqrt(n_in)
        layers.append((jax.random.uniform(w_key, (n_in, n_out_layer), minval=-bound, maxval=bound),
                       jax.random.uniform(b_key, (n_out_layer,), minval=-bound, maxval=bound)))
    return layers


def forward(jnp, layers, x):
    """The head's outputs for the rows of ``x`` (any leading shape): ``x @ w + b`` per layer, ReLU between."""
    for i, (w, b) in enumerate(layers):
        x = x @ w + b
        if i < len(layers) - 1:
            x = jnp.maximum(x, 0)
    return x


def exported(layers) -> NetHead:
    return NetHead(*(np.ascontiguousarray(np.asarray(a), dtype=np.float32) for layer in layers for a in layer))


def choice_loss(jax, jnp, pred, mask, win, rank_weight):
    """The MSE of the values of a decision's actions (``mask``: the legal cards, or a decision's keep candidates);
    plus, weighted, the cross-entropy of a softmax over them against the search's best."""
    weight = mask.astype(jnp.float32)
    loss = (((pred - win) ** 2) * weight).sum() / jnp.maximum(weight.sum(), 1)
    logits = jnp.where(mask, pred * 20.0, -1e9)  # a P(win) difference of 0.05 is one unit of logit
    best = jnp.argmax(jnp.where(mask, win, -1.0), axis=1)
    rank = -jnp.take_along_axis(jax.nn.log_softmax(logits, axis=1), best[:, None], axis=1).mean()
    return loss + rank_weight * rank


@functools.cache
def _compiled_forward(jax, jnp):
    return jax.jit(lambda layers, x: forward(jnp, layers, x))


def predict(libraries, layers, x: np.ndarray, rows: int = 8192) -> np.ndarray:
    """The head's outputs for the rows of ``x``, a block of ``rows`` at a time (numpy, float32)."""
    jax, jnp, _ = libraries
    run = _compiled_forward(jax, jnp)
    parts = [np.asarray(run(layers, x[i:i + rows])) for i in range(0, len(x), rows)]
    return np.concatenate(parts) if parts else np.zeros((0, layers[-1][1].shape[0]), np.float32)


def choice_metrics(pred: np.ndarray, mask: np.ndarray, win: np.ndarray, constant: float) -> dict:
    """Held-out error of one head over decisions (rows) of actions (columns, ``mask`` the real ones): the mean
    absolute error of every action's value, and of the value of the action the net would choose; how often its
    choice is the search's best; what choosing it costs in P(win) against the search's best (regret); and the error
    of a constant (the training mean) for comparison."""
    rows = np.arange(len(win))
    chosen = np.where(mask, pred, -np.inf).argmax(axis=1)
    best = np.where(mask, win, -np.inf).argmax(axis=1)
    return {"decisions": len(win), "actions": int(mask.sum()), "mae": float(np.abs(pred - win)[mask].mean()),
            "mae_chosen": float(np.abs(pred[rows, chosen] - win[rows, chosen]).mean()),
            "agreement": float((chosen == best).mean()),
            "regret": float((win[rows, best] - win[rows, chosen]).mean()),
            "baseline_mae": float(np.abs(constant - win[mask]).mean())}


def evaluate(libraries, params: dict, data: Data, train_data: Data) -> dict:
    """:func:`choice_metrics` of each head on ``data``."""
    result = {}
    if len(data.card_tensor):
        constant = float(train_data.card_win[train_data.card_legal].mean())
        result["card"] = choice_metrics(predict(libraries, params["card"], data.card_tensor), data.card_legal,
                                        data.card_win, constant)
    if data.keep_decisions:
        present = data.keep_groups >= 0
        rows = np.where(present, data.keep_groups, 0)
        pred = predict(libraries, params["keep"], data.keep_tensor)[:, 0][rows]
        result["keep"] = choice_metrics(pred, present, data.keep_win[rows], float(train_data.keep_win.mean()))
    return result


@dataclass(frozen=True)
class Settings:
    hidden: int = 128
    epochs: int = 30
    batch: int = 256
    lr: float = 1e-3
    seed: int = 0
    rank_weight: float = 0.0


def _batches(data: Data, head: str, order: np.ndarray, batch: int):
    """The training batches of one head, in ``order``: (inputs, mask, targets), as [decisions, actions] arrays."""
    if head == "card":
        for start in range(0, len(order), batch):
            index = order[start:start + batch]
            yield data.card_tensor[index], data.card_legal[index], data.card_win[index]
        return
    per_batch = max(1, batch // data.keep_groups.shape[1])  # about ``batch`` candidates
    for start in range(0, len(order), per_batch):
        groups = data.keep_groups[order[start:start + per_batch]]
        rows = np.where(groups >= 0, groups, 0)
        yield data.keep_tensor[rows], groups >= 0, data.keep_win[rows]


def train(libraries, train_data: Data, held: Data, settings: Settings, progress=None) -> tuple[dict, list[dict]]:
    """The two heads' layers, trained with Adam; and each epoch's losses and held-out error."""
    jax, jnp, optax = libraries
    key = jax.random.PRNGKey(settings.seed)
    shuffle = np.random.default_rng(settings.seed)
    optimizer = optax.adam(settings.lr)
    params, states = {}, {}
    for head, n_out in HEAD_OUTPUTS.items():
        key, head_key = jax.random.split(key)
        params[head] = init_head(jax, head_key, settings.hidden, n_out)
        states[head] = optimizer.init(params[head])

    def loss_of(layers, x, mask, win):
        pred = forward(jnp, layers, x)
        if pred.ndim == 3:  # keep: [decisions, candidates, 1]
            pred = pred[..., 0]
        return choice_loss(jax, jnp, pred, mask, win, settings.rank_weight)

    @jax.jit
    def step(layers, state, x, mask, win):
        loss, grads = jax.value_and_grad(loss_of)(layers, x, mask, win)
        updates, state = optimizer.update(grads, state, layers)
        return optax.apply_updates(layers, updates), state, loss

    counts = {"card": len(train_data.card_tensor), "keep": train_data.keep_decisions}
    history = []
    for epoch in range(1, settings.epochs + 1):
        started = time.perf_counter()
        losses = {}
        for head in HEAD_OUTPUTS:
            total, batches = 0.0, 0
            for x, mask, win in _batches(train_data, head, shuffle.permutation(counts[head]), settings.batch):
                params[head], states[head], loss = step(params[head], states[head], x, mask, win)
                total += float(loss)
                batches += 1
            losses[head] = total / max(1, batches)
        row = {"epoch": epoch, "loss": losses, "held_out": evaluate(libraries, params, held, train_data),
               "seconds": time.perf_counter() - started}
        history.append(row)
        if progress is not None:
            progress(row)
    return params, history


# -- the command ----------------------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2 (argparse's own prints the usage first)
        sys.stderr.write(f"train_net.py: {one_line(message)} (see --help)\n")
        raise SystemExit(2)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+",
                        help="folders of training data chunks (*.npz), read in the order given")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="the folder for net.npz and net.json (default: smear_sim/data, the shipped net)")
    defaults = Settings()
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="units of each hidden layer, H")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch", type=int, default=defaults.batch, help="rows a batch (keep: candidates)")
    parser.add_argument("--lr", type=float, default=defaults.lr, help="Adam's learning rate")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="the weights' start, shuffles and split")
    parser.add_argument("--all-cores", action="store_true",
                        help="let XLA use every core (default: one thread; the weights may differ between the two)")
    parser.add_argument("--rank-weight", type=float, default=defaults.rank_weight,
                        help="weight of a ranking term within each decision, beside the MSE (0: none)")
    parser.add_argument("--held-out", type=float, default=0.1, help="the fraction of chunks held out (1 at least)")
    return parser.parse_args(argv)


def check(args: argparse.Namespace) -> list[Path]:
    """The chunks to read; a one-line SmearError for any bad option, before any work."""
    for name in ("hidden", "epochs", "batch"):
        if getattr(args, name) < 1:
            raise SmearError(f"--{name} must be at least 1, not {getattr(args, name)}")
    if not (args.lr > 0 and math.isfinite(args.lr)):
        raise SmearError(f"--lr must be a positive number, not {args.lr}")
    if not (args.rank_weight >= 0 and math.isfinite(args.rank_weight)):
        raise SmearError(f"--rank-weight must be 0 or more, not {args.rank_weight}")
    if not 0 < args.held_out < 1:
        raise SmearError(f"--held-out must be between 0 and 1, not {args.held_out}")
    if args.seed < 0:
        raise SmearError(f"--seed must be 0 or more, not {args.seed}")
    paths = []
    for folder in args.data:
        if not folder.is_dir():
            raise SmearError(f"{folder} is not a folder of training data chunks")
        paths += sorted(folder.glob("*.npz"))
    if len(paths) < 2:
        raise SmearError(f"{' '.join(map(str, args.data))} hold(s) {len(paths)} chunk(s) (*.npz); training holds "
                         "whole chunks out, so it needs 2 at least")
    for name in ("net.npz", "net.json"):
        check_output_file(args.out / name, "--out")
    return paths


def _versions(libraries) -> str:
    jax, _, optax = libraries
    return f"jax {jax.__version__}, optax {optax.__version__}"


def model_card(args, settings: Settings, library: str, digest: str, summary: dict, sizes: dict,
               history: list[dict], seconds: float) -> dict:
    last = history[-1]
    return {
        "format": FORMAT, "weights": "net.npz", "weights_sha256": digest, "package_version": __version__,
        "inputs": {"vt_size": VT_SIZE, "layout": "smear_sim/core/view_layout.py", "layout_digest": layout_digest()},
        "heads": {head: {"sizes": [VT_SIZE, settings.hidden, settings.hidden, n_out], "activation": "relu",
                         "target": ("each legal card's P(win the game) under the search" if head == "card"
                                    else "P(win the game) of the position after trump and the keep")}
                  for head, n_out in HEAD_OUTPUTS.items()},
        "data": {"folders": [str(folder) for folder in args.data], **summary, **sizes},
        "training": {"library": library, "seed": settings.seed, "epochs": settings.epochs,
                     "batch": settings.batch, "lr": settings.lr, "all_cores": args.all_cores, "optimizer": "adam",
                     "loss": {"card": "MSE over the legal cards' P(win)", "keep": "MSE over the candidates' P(win)",
                              "rank_weight": settings.rank_weight},
                     "final_loss": last["loss"]},
        "held_out": last["held_out"],
        "seconds": round(seconds, 1),
    }


def _progress(epochs: int):
    def show(row: dict) -> None:
        parts = [f"epoch {row['epoch']}/{epochs}"]
        for head, loss in row["loss"].items():
            held = row["held_out"].get(head, {})
            parts.append(f"{head} loss {loss:.5f}, held-out MAE {held.get('mae', float('nan')):.4f}, "
                         f"agreement {held.get('agreement', float('nan')):.1%}")
        parts.append(f"{row['seconds']:.1f} s")
        print("  ".join(parts), file=sys.stderr, flush=True)

    return show


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        paths = check(args)
        libraries = load_libraries(args.all_cores)
        started = time.perf_counter()
        train_paths, held_paths = split_chunks(paths, args.held_out, args.seed)
        train_data, train_meta = read_chunks(train_paths)
        held_data, held_meta = read_chunks(held_paths)
        settings = Settings(args.hidden, args.epochs, args.batch, args.lr, args.seed, args.rank_weight)
        print(f"training on {len(train_data.card_tensor):,} card decisions and {len(train_data.keep_tensor):,} keep "
              f"positions ({len(train_paths)} chunks), holding out {len(held_paths)} chunk(s)", file=sys.stderr)
        params, history = train(libraries, train_data, held_data, settings, _progress(args.epochs))
    except SmearError as exc:
        print(f"train_net.py: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("train_net.py: stopped; nothing written", file=sys.stderr)
        return 130
    sizes = {"card_decisions": len(train_data.card_tensor) + len(held_data.card_tensor),
             "keep_positions": len(train_data.keep_tensor) + len(held_data.keep_tensor),
             "keep_decisions": train_data.keep_decisions + held_data.keep_decisions,
             "held_out_chunks": [f"{p.parent.name}/{p.name}" for p in held_paths]}
    heads = {head: exported(layers) for head, layers in params.items()}
    with signals_deferred():  # the weights and their card: both or neither
        digest = weights_digest(heads)
        card = model_card(args, settings, _versions(libraries), digest, data_summary(train_meta + held_meta), sizes,
                          history, time.perf_counter() - started)
        save_net(args.out / "net.npz", heads)
        with atomic_write(args.out / "net.json") as handle:
            handle.write(json.dumps(card, indent=1) + "\n")
    print(json.dumps({"out": str(args.out), "weights_sha256": digest, "held_out": card["held_out"],
                      "seconds": card["seconds"]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
