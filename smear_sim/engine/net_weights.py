"""The learned player's weights: the file format, its checks, and the packed arrays the kernels take.

One ``.npz`` holds the two heads of the net (docs/learned.md, issue 47's contract): for each head ``card`` and
``keep``, the layers ``{head}/w0`` float32[VT_SIZE, H] (input-major: row ``i`` is input ``i``'s weights, so the
sparse first layer is a sum of rows), ``{head}/b0`` [H], ``{head}/w1`` [H, H], ``{head}/b1`` [H], ``{head}/w2``
[H, n_out], ``{head}/b2`` [n_out], where a layer computes ``y = x @ w + b``; and ``format`` and ``vt_size`` as 0-d
integers. The shipped net is ``smear_sim/data/net.npz``, made by ``tools/train_net.py`` with its model card
``net.json`` beside it.

:func:`load_net` reads and checks a file, and gives each head as a :class:`NetHead`, the tuple of C-contiguous
float32 arrays that :mod:`smear_sim.kernels.net.mlp` takes (kernels never read files). A file that is not such a net
is a one-line :class:`~smear_sim.core.errors.SmearError`. :func:`save_net` writes one atomically.

The net's version is :func:`weights_digest`: a sha256 of the arrays themselves (names, shapes and bytes, in a fixed
order), not of the file, so that it does not depend on how the file was written (the keys' order, compression).
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..core.cards import DECK_SIZE
from ..core.errors import SmearError
from ..core.io import atomic_write
from ..core.view_layout import VT_SIZE

__all__ = ["FORMAT", "HEAD_OUTPUTS", "LAYERS", "NET_ENV", "NetHead", "NetWeights", "check_heads", "kernel_arrays",
           "layer_shapes", "load_net", "net_path", "save_net", "shipped_net_path", "weights_digest"]

FORMAT = 1  # the layout of the file above; a change to it is a new format, refused by older code
HEAD_OUTPUTS = {"card": DECK_SIZE, "keep": 1}  # each head's outputs: a value per card code; one value
LAYERS = ("w0", "b0", "w1", "b1", "w2", "b2")
NET_ENV = "SMEAR_SIM_NET"  # names the net the ``net`` player plays by, in place of the shipped one
_LIMIT = 256 * 2**20  # bytes of arrays: far more than any net of this shape (H = 1024 is about 20 MB)


class NetHead(NamedTuple):
    """One head's layers, in the order the kernels unpack them."""

    w0: np.ndarray
    b0: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @property
    def hidden(self) -> int:
        return self.b0.shape[0]

    @property
    def n_out(self) -> int:
        return self.b2.shape[0]


@dataclass(frozen=True)
class NetWeights:
    """A net's heads, checked; ``digest`` is :func:`weights_digest` of them."""

    heads: Mapping[str, NetHead]
    digest: str

    def __getitem__(self, head: str) -> NetHead:
        return self.heads[head]


def shipped_net_path() -> Path:
    """Where the net that ships with the package lies (it may not be there yet)."""
    return Path(__file__).resolve().parent.parent / "data" / "net.npz"


def net_path() -> Path:
    """The net the ``net`` player plays by: the file named by the environment variable ``SMEAR_SIM_NET`` where it is
    set (to compare nets, or in expert iteration), else the shipped one."""
    named = os.environ.get(NET_ENV, "").strip()
    return Path(named).expanduser() if named else shipped_net_path()


def kernel_arrays(net: NetWeights) -> tuple[np.ndarray, ...]:
    """The net's arrays as the kernels' players take them (:data:`smear_sim.core.bidder.NET_AT`): the card head's
    layers, then the keep head's."""
    return tuple(net["card"]) + tuple(net["keep"])


def layer_shapes(hidden: int, n_out: int) -> dict[str, tuple[int, ...]]:
    """Each layer's shape, for a head of ``hidden`` units and ``n_out`` outputs."""
    return {"w0": (VT_SIZE, hidden), "b0": (hidden,), "w1": (hidden, hidden), "b1": (hidden,),
            "w2": (hidden, n_out), "b2": (n_out,)}


def check_heads(arrays: Mapping[str, np.ndarray], source: str = "the net") -> dict[str, NetHead]:
    """The heads of ``arrays`` (keys ``{head}/{layer}``), each checked: every layer there, float32, of its shape
    (one H per head, read from ``b0``), and finite. Raises a one-line :class:`SmearError` naming ``source``."""
    expected = {f"{head}/{layer}" for head in HEAD_OUTPUTS for layer in LAYERS}
    missing = sorted(expected - set(arrays))
    if missing:
        raise SmearError(f"{source} has no {', '.join(missing)}: it is not a smear-sim net (tools/train_net.py)")
    heads = {}
    for head, n_out in HEAD_OUTPUTS.items():
        b0 = arrays[f"{head}/b0"]
        hidden = b0.shape[0] if b0.ndim == 1 else 0
        if hidden < 1:
            raise SmearError(f"{source}: {head}/b0 has shape {b0.shape}, not (H,) with H >= 1")
        layers = []
        for layer, shape in layer_shapes(hidden, n_out).items():
            array = arrays[f"{head}/{layer}"]
            if array.dtype != np.float32:
                raise SmearError(f"{source}: {head}/{layer} is {array.dtype}, not float32")
            if array.shape != shape:
                raise SmearError(f"{source}: {head}/{layer} has shape {array.shape}, not {shape} "
                                 f"(VT_SIZE {VT_SIZE}, H {hidden}, {n_out} outputs)")
            if not np.isfinite(array).all():
                raise SmearError(f"{source}: {head}/{layer} holds a value that is not finite")
            layers.append(np.ascontiguousarray(array))
        heads[head] = NetHead(*layers)
    return heads


def weights_digest(heads: Mapping[str, NetHead]) -> str:
    """The sha256 of the heads' arrays (name, shape and bytes of each, heads and layers in their fixed order)."""
    digest = hashlib.sha256()
    for head in HEAD_OUTPUTS:
        for layer, array in zip(LAYERS, heads[head], strict=True):
            digest.update(f"{head}/{layer}{array.shape}".encode())
            digest.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
    return digest.hexdigest()


def _integer(data, key: str, source: str) -> int:
    if key not in data.files:
        raise SmearError(f"{source} has no '{key}': it is not a smear-sim net (tools/train_net.py)")
    value = data[key]
    if value.shape != () or value.dtype.kind not in "iu":
        raise SmearError(f"{source}: '{key}' is not an integer")
    return int(value)


def load_net(path: str | Path | None = None) -> NetWeights:
    """The net in ``path`` (default: :func:`net_path`, ``SMEAR_SIM_NET`` or the shipped one), checked
    (:func:`check_heads`, ``format``, ``vt_size``)."""
    path = net_path() if path is None else Path(path)
    source = str(path)
    if not path.is_file():
        where = f" (set by {NET_ENV})" if os.environ.get(NET_ENV, "").strip() else ""
        raise SmearError(f"the net player has no weights: {source}{where} does not exist; train one "
                         f"(tools/train_net.py) or name one with {NET_ENV}=PATH")
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise SmearError(f"{source} is one array, not a smear-sim net (an .npz of its layers)")
        with data:
            found = _integer(data, "format", source)
            if found != FORMAT:
                raise SmearError(f"{source} is a net of format {found}; this version reads format {FORMAT}: "
                                 "train it again (tools/train_net.py)")
            vt_size = _integer(data, "vt_size", source)
            if vt_size != VT_SIZE:
                raise SmearError(f"{source} reads view tensors of {vt_size} entries; this version writes {VT_SIZE}: "
                                 "train it again (tools/train_net.py)")
            sizes = sum(info.file_size for info in data.zip.infolist())
            if sizes > _LIMIT:
                raise SmearError(f"{source} holds {sizes:,} bytes of arrays, more than a net of this shape")
            arrays = {key: data[key] for key in data.files if "/" in key}
    except SmearError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise SmearError(f"{source} is not a smear-sim net file: {exc}") from None
    heads = check_heads(arrays, source)
    return NetWeights(heads, weights_digest(heads))


def save_net(path: str | Path, heads: Mapping[str, NetHead]) -> str:
    """Write ``heads`` (checked first) to ``path`` atomically; returns their :func:`weights_digest`."""
    checked = check_heads({f"{head}/{layer}": np.asarray(array) for head, layers in heads.items()
                           for layer, array in zip(LAYERS, layers, strict=True)})
    arrays = {f"{head}/{layer}": array for head, layers in checked.items()
              for layer, array in zip(LAYERS, layers, strict=True)}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as handle:
        np.savez(handle, format=np.int64(FORMAT), vt_size=np.int64(VT_SIZE), **arrays)
    return weights_digest(checked)
