"""Remake tests/golden/net/: a small net trained by tools/train_net.py's code, inputs, and JAX's outputs on them.

The kernels' forward pass must give the training library's numbers (tests/kernels/net/test_mlp.py), and CI has no
JAX, so its outputs are saved here: those of the trained parameters themselves, through train_net's own forward
pass, not of the saved file read back, so that the export is under test too. Needs the [train] extra:

    python tests/golden/make_net_golden.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

import train_net  # noqa: E402

from smear_sim.core.io import atomic_write  # noqa: E402
from smear_sim.core.view_layout import VT_SIZE  # noqa: E402
from smear_sim.engine.net_weights import save_net  # noqa: E402
from tests.net_helpers import write_chunks  # noqa: E402

OUT = ROOT / "tests" / "golden" / "net"
SETTINGS = train_net.Settings(hidden=16, epochs=3, batch=64, lr=3e-3, seed=0)
ROWS = 12  # inputs per head: 8 from held-out chunks, 4 with every entry set


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = sorted(write_chunks(Path(folder), chunks=4, decisions=120, seed=7).glob("*.npz"))
        train_paths, held_paths = train_net.split_chunks(paths, 0.25, SETTINGS.seed)
        data, _ = train_net.read_chunks(train_paths)
        held, _ = train_net.read_chunks(held_paths)
    libraries = train_net.load_libraries()
    params, history = train_net.train(libraries, data, held, SETTINGS)
    dense = np.random.default_rng(1).uniform(-1, 1, (ROWS - 8, VT_SIZE)).astype(np.float32)
    inputs = {"card": np.concatenate([held.card_tensor[:8], dense]),
              "keep": np.concatenate([held.keep_tensor[:8], dense])}
    saved = {}
    for head, layers in params.items():
        saved[f"{head}/x"] = inputs[head]
        saved[f"{head}/y"] = train_net.predict(libraries, layers, inputs[head])
    digest = save_net(OUT / "net.npz", {head: train_net.exported(layers) for head, layers in params.items()})
    with atomic_write(OUT / "outputs.npz", "wb") as handle:
        np.savez_compressed(handle, **saved)
    card = {"weights_sha256": digest, "library": train_net._versions(libraries), "hidden": SETTINGS.hidden,
            "epochs": SETTINGS.epochs, "seed": SETTINGS.seed, "held_out": history[-1]["held_out"],
            "made_by": "python tests/golden/make_net_golden.py"}
    with atomic_write(OUT / "net.json") as handle:
        handle.write(json.dumps(card, indent=1) + "\n")
    print(json.dumps({"out": str(OUT), "weights_sha256": digest}))


if __name__ == "__main__":
    main()
