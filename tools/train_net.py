"""Train the learned player's nets (issue 47) from the search's training data, and write them with their model card.

Reads every chunk (``*.npz``, the format of smear_sim.analysis.net_data; docs/learned.md) in DATA, trains the
``card`` head (a value per card: each legal card's P(win) under the search) and the ``keep`` head (the P(win) of the
position after trump and the keep), and writes ``net.npz`` (smear_sim/engine/net_weights.py's format) and
``net.json`` (the model card: inputs, sizes, data, seeds, loss, held-out error, time taken, the weights' sha256) into
--out, both atomically and only at the end: Ctrl-C leaves the old files, or none.

Whole chunks are held out (--held-out), never single rows, so that no position of a held-out hand is trained on.
The same data, --seed and --threads give the same weights (PyTorch's deterministic algorithms, seeded shuffles).
Needs PyTorch on the CPU: pip install -e '.[train]' (docs/learned.md says why this library).

Example (a seconds-long run on a small folder of chunks, writing beside it rather than into the package):

    python tools/train_net.py runs/net_data --out runs/net --epochs 10 --hidden 64 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
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
META_KEYS = ("seed", "hands", "policies", "K", "rules", "version")  # read from each chunk's meta, where given


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


def read_chunks(paths: list[Path]) -> tuple[Data, list[dict]]:
    """The chunks' decisions, checked, and each chunk's metadata (its JSON ``meta``, where it has one)."""
    parts, metas = [], []
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = _check_chunk(path, data)
                meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        except (OSError, ValueError, EOFError, AttributeError) as exc:
            raise SmearError(f"{path} is not a training data chunk: {exc}") from None
        parts.append(arrays)
        metas.append(meta if isinstance(meta, dict) else {})
    groups, offset = [], 0
    for arrays in parts:
        decision = arrays["keep_decision"]
        for value in np.unique(decision):
            groups.append(offset + np.flatnonzero(decision == value))
        offset += len(decision)
    widest = max((len(g) for g in groups), default=1)
    keep_groups = np.full((len(groups), widest), -1, dtype=np.int64)
    for row, members in enumerate(groups):
        keep_groups[row, :len(members)] = members
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
    """What the chunks say of themselves: each meta key's distinct values, hands summed."""
    summary: dict = {"chunks": len(metas)}
    for key in META_KEYS:
        values = [m[key] for m in metas if key in m]
        if not values:
            continue
        if key == "hands":
            summary[key] = int(sum(values))
        else:
            distinct = sorted({json.dumps(v, sort_keys=True) for v in values})
            summary[key] = [json.loads(v) for v in distinct]
    return summary


# -- the model and its training (PyTorch) ---------------------------------------------------------------------------


def make_model(torch, hidden: int, n_out: int):
    nn = torch.nn
    return nn.Sequential(nn.Linear(VT_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, n_out))


def exported(model) -> NetHead:
    """The model's layers in the weights' format: ``w`` input-major (PyTorch keeps [out, in]), float32."""
    linears = [model[0], model[2], model[4]]
    layers = []
    for linear in linears:
        layers.append(np.ascontiguousarray(linear.weight.detach().numpy().T, dtype=np.float32))
        layers.append(np.ascontiguousarray(linear.bias.detach().numpy(), dtype=np.float32))
    return NetHead(*layers)


def card_loss(torch, pred, legal, win, rank_weight: float):
    """MSE over the legal cards' values; plus, weighted, the cross-entropy of a softmax over the legal cards against
    the search's best."""
    mask = legal.float()
    loss = ((pred - win) ** 2 * mask).sum() / mask.sum()
    if rank_weight:
        logits = pred.masked_fill(~legal, -1e9) * 20.0  # a P(win) difference of 0.05 is one unit of logit
        best = win.masked_fill(~legal, -1.0).argmax(dim=1)
        loss = loss + rank_weight * torch.nn.functional.cross_entropy(logits, best)
    return loss


def keep_loss(torch, pred, present, win, rank_weight: float):
    """MSE over a decision's candidates; plus, weighted, a softmax cross-entropy within each decision."""
    mask = present.float()
    loss = ((pred - win) ** 2 * mask).sum() / mask.sum()
    if rank_weight:
        logits = pred.masked_fill(~present, -1e9) * 20.0
        best = win.masked_fill(~present, -1.0).argmax(dim=1)
        loss = loss + rank_weight * torch.nn.functional.cross_entropy(logits, best)
    return loss


def _keep_batch(torch, data: Data, decisions, model=None):
    """The rows of ``decisions`` as [decisions, candidates] tensors: inputs, presence, targets (and predictions)."""
    groups = torch.from_numpy(data.keep_groups[decisions])
    present = groups >= 0
    rows = groups.clamp(min=0)
    win = torch.from_numpy(data.keep_win)[rows]
    if model is None:
        return rows, present, win
    pred = model(torch.from_numpy(data.keep_tensor)[rows.reshape(-1)]).reshape(rows.shape)
    return rows, present, win, pred


def evaluate(torch, models: dict, data: Data, train: Data) -> dict:
    """Held-out error by head: the mean absolute error of the values (every legal card; every keep candidate), of the
    value of the action the net would choose, how often its choice is the search's best, what choosing it costs in
    P(win) against the search's best (regret), and the error of a constant (the training mean) for comparison."""
    result = {}
    with torch.no_grad():
        if len(data.card_tensor):
            pred = models["card"](torch.from_numpy(data.card_tensor)).numpy()
            legal, win = data.card_legal, data.card_win
            rows = np.arange(len(win))
            chosen = np.where(legal, pred, -np.inf).argmax(axis=1)
            best = np.where(legal, win, -np.inf).argmax(axis=1)
            mean = float(train.card_win[train.card_legal].mean()) if train.card_legal.any() else 0.5
            result["card"] = {
                "decisions": len(win), "mae": float(np.abs(pred - win)[legal].mean()),
                "mae_chosen": float(np.abs(pred[rows, chosen] - win[rows, chosen]).mean()),
                "agreement": float((chosen == best).mean()),
                "regret": float((win[rows, best] - win[rows, chosen]).mean()),
                "baseline_mae": float(np.abs(mean - win[legal]).mean())}
        if data.keep_decisions:
            _, present, win, pred = _keep_batch(torch, data, np.arange(data.keep_decisions), models["keep"])
            present, win, pred = present.numpy(), win.numpy(), pred.numpy()
            rows = np.arange(len(win))
            chosen = np.where(present, pred, -np.inf).argmax(axis=1)
            best = np.where(present, win, -np.inf).argmax(axis=1)
            mean = float(train.keep_win.mean()) if len(train.keep_win) else 0.5
            result["keep"] = {
                "decisions": len(win), "positions": int(present.sum()),
                "mae": float(np.abs(pred - win)[present].mean()),
                "mae_chosen": float(np.abs(pred[rows, chosen] - win[rows, chosen]).mean()),
                "agreement": float((chosen == best).mean()),
                "regret": float((win[rows, best] - win[rows, chosen]).mean()),
                "baseline_mae": float(np.abs(mean - win[present]).mean())}
    return result


@dataclass(frozen=True)
class Settings:
    hidden: int = 128
    epochs: int = 30
    batch: int = 256
    lr: float = 1e-3
    seed: int = 0
    threads: int = 1
    rank_weight: float = 0.0


def train(torch, train_data: Data, held: Data, settings: Settings, progress=None) -> tuple[dict, list[dict]]:
    """The two heads' models, trained; and each epoch's losses and held-out error."""
    torch.manual_seed(settings.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(settings.threads)
    models = {head: make_model(torch, settings.hidden, n_out) for head, n_out in HEAD_OUTPUTS.items()}
    optimizers = {head: torch.optim.Adam(model.parameters(), lr=settings.lr) for head, model in models.items()}
    shuffle = torch.Generator().manual_seed(settings.seed)
    card_x, card_legal = torch.from_numpy(train_data.card_tensor), torch.from_numpy(train_data.card_legal)
    card_win = torch.from_numpy(train_data.card_win)
    history = []
    for epoch in range(1, settings.epochs + 1):
        started = time.perf_counter()
        losses = {}
        for head, model in models.items():
            model.train()
            total, batches = 0.0, 0
            if head == "card":
                count = len(card_x)
                per_batch = settings.batch
            else:
                count = train_data.keep_decisions
                per_batch = max(1, settings.batch // max(1, train_data.keep_groups.shape[1]))
            order = torch.randperm(count, generator=shuffle)
            for start in range(0, count, per_batch):
                index = order[start:start + per_batch]
                if head == "card":
                    loss = card_loss(torch, model(card_x[index]), card_legal[index], card_win[index],
                                     settings.rank_weight)
                else:
                    _, present, win, pred = _keep_batch(torch, train_data, index.numpy(), model)
                    loss = keep_loss(torch, pred, present, win, settings.rank_weight)
                optimizers[head].zero_grad()
                loss.backward()
                optimizers[head].step()
                total += loss.item()
                batches += 1
            losses[head] = total / max(1, batches)
        for model in models.values():
            model.eval()
        row = {"epoch": epoch, "loss": losses, "held_out": evaluate(torch, models, held, train_data),
               "seconds": time.perf_counter() - started}
        history.append(row)
        if progress is not None:
            progress(row)
    return models, history


# -- the command ----------------------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2 (argparse's own prints the usage first)
        sys.stderr.write(f"train_net.py: {one_line(message)} (see --help)\n")
        raise SystemExit(2)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="a folder of training data chunks (*.npz)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="the folder for net.npz and net.json (default: smear_sim/data, the shipped net)")
    defaults = Settings()
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="units of each hidden layer, H")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch", type=int, default=defaults.batch, help="rows a batch (keep: candidates)")
    parser.add_argument("--lr", type=float, default=defaults.lr, help="Adam's learning rate")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="the weights' start, shuffles and split")
    parser.add_argument("--threads", type=int, default=defaults.threads, help="PyTorch's CPU threads")
    parser.add_argument("--rank-weight", type=float, default=defaults.rank_weight,
                        help="weight of a ranking term within each decision, beside the MSE (0: none)")
    parser.add_argument("--held-out", type=float, default=0.1, help="the fraction of chunks held out (1 at least)")
    return parser.parse_args(argv)


def check(args: argparse.Namespace) -> list[Path]:
    """The chunks to read; a one-line SmearError for any bad option, before any work."""
    for name in ("hidden", "epochs", "batch", "threads"):
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
    if not args.data.is_dir():
        raise SmearError(f"{args.data} is not a folder of training data chunks")
    paths = sorted(args.data.glob("*.npz"))
    if len(paths) < 2:
        raise SmearError(f"{args.data} holds {len(paths)} chunk(s) (*.npz); training holds whole chunks out, so it "
                         "needs 2 at least")
    for name in ("net.npz", "net.json"):
        check_output_file(args.out / name, "--out")
    return paths


def model_card(args, settings: Settings, torch_version: str, digest: str, summary: dict, sizes: dict,
               history: list[dict], seconds: float) -> dict:
    last = history[-1]
    return {
        "format": FORMAT, "weights": "net.npz", "weights_sha256": digest, "package_version": __version__,
        "inputs": {"vt_size": VT_SIZE, "layout": "smear_sim/core/view_layout.py", "layout_digest": layout_digest()},
        "heads": {head: {"sizes": [VT_SIZE, settings.hidden, settings.hidden, n_out], "activation": "relu",
                         "target": ("each legal card's P(win the game) under the search" if head == "card"
                                    else "P(win the game) of the position after trump and the keep")}
                  for head, n_out in HEAD_OUTPUTS.items()},
        "data": {"folder": str(args.data), **summary, **sizes},
        "training": {"library": f"torch {torch_version}", "seed": settings.seed, "epochs": settings.epochs,
                     "batch": settings.batch, "lr": settings.lr, "threads": settings.threads, "optimizer": "adam",
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
        try:
            import torch
        except ImportError:
            raise SmearError("tools/train_net.py needs PyTorch: pip install -e '.[train]'") from None
        started = time.perf_counter()
        train_paths, held_paths = split_chunks(paths, args.held_out, args.seed)
        train_data, train_meta = read_chunks(train_paths)
        held_data, held_meta = read_chunks(held_paths)
        settings = Settings(args.hidden, args.epochs, args.batch, args.lr, args.seed, args.threads, args.rank_weight)
        print(f"training on {len(train_data.card_tensor):,} card decisions and {len(train_data.keep_tensor):,} keep "
              f"positions ({len(train_paths)} chunks), holding out {len(held_paths)} chunk(s)", file=sys.stderr)
        models, history = train(torch, train_data, held_data, settings, _progress(args.epochs))
    except SmearError as exc:
        print(f"train_net.py: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("train_net.py: stopped; nothing written", file=sys.stderr)
        return 130
    sizes = {"card_decisions": len(train_data.card_tensor) + len(held_data.card_tensor),
             "keep_positions": len(train_data.keep_tensor) + len(held_data.keep_tensor),
             "keep_decisions": train_data.keep_decisions + held_data.keep_decisions,
             "held_out_chunks": [p.name for p in held_paths]}
    heads = {head: exported(model) for head, model in models.items()}
    with signals_deferred():  # the weights and their card: both or neither
        digest = weights_digest(heads)
        card = model_card(args, settings, torch.__version__, digest, data_summary(train_meta + held_meta), sizes,
                          history, time.perf_counter() - started)
        save_net(args.out / "net.npz", heads)
        with atomic_write(args.out / "net.json") as handle:
            handle.write(json.dumps(card, indent=1) + "\n")
    print(json.dumps({"out": str(args.out), "weights_sha256": digest, "held_out": card["held_out"],
                      "seconds": card["seconds"]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
