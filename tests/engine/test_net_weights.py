"""The net's weights file (smear_sim/engine/net_weights.py): what it saves it loads, to the bit and the digest, and
a file that is not a net of this version is refused with one line."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core.errors import SmearError
from smear_sim.core.view_layout import VT_SIZE
from smear_sim.engine.net_weights import FORMAT, LAYERS, load_net, save_net, weights_digest
from tests.net_helpers import random_heads


def _arrays(heads) -> dict[str, np.ndarray]:
    return {f"{head}/{layer}": array for head, layers in heads.items() for layer, array in zip(LAYERS, layers, strict=True)}


def test_a_saved_net_loads_as_it_was_with_its_digest(tmp_path):
    heads = random_heads(3, hidden=8)
    digest = save_net(tmp_path / "net.npz", heads)
    net = load_net(tmp_path / "net.npz")
    assert net.digest == digest == weights_digest(heads)
    assert net["card"].hidden == 8 and net["card"].n_out == 54 and net["keep"].n_out == 1
    for head, layers in heads.items():
        for mine, loaded in zip(layers, net[head], strict=True):
            np.testing.assert_array_equal(mine, loaded)
            assert loaded.dtype == np.float32 and loaded.flags.c_contiguous
    assert weights_digest(random_heads(4, hidden=8)) != digest
    assert [p.name for p in tmp_path.iterdir()] == ["net.npz"]  # no temporary file left beside it


def _written(tmp_path, change) -> str:
    arrays = _arrays(random_heads(5, hidden=4))
    arrays.update(format=np.int64(FORMAT), vt_size=np.int64(VT_SIZE))
    change(arrays)
    np.savez(tmp_path / "bad.npz", **arrays)
    return str(tmp_path / "bad.npz")


@pytest.mark.parametrize(("change", "words"), [
    (lambda a: a.update(format=np.int64(2)), "format 2"),
    (lambda a: a.pop("format"), "no 'format'"),
    (lambda a: a.update(vt_size=np.int64(VT_SIZE - 1)), f"{VT_SIZE - 1} entries"),
    (lambda a: a.pop("keep/w1"), "no keep/w1"),
    (lambda a: a.update({"card/w2": a["card/w2"].astype(np.float64)}), "card/w2 is float64"),
    (lambda a: a.update({"card/w1": a["card/w1"][:, :3]}), "card/w1 has shape (4, 3)"),
    (lambda a: a.update({"keep/b2": np.zeros(2, np.float32)}), "keep/b2 has shape (2,)"),
    (lambda a: a.update({"card/b0": np.zeros((), np.float32)}), "card/b0 has shape ()"),
    (lambda a: a["keep/w0"].__setitem__((0, 0), np.nan), "not finite"),
])
def test_a_file_that_is_not_a_net_of_this_version_is_refused_in_one_line(tmp_path, change, words):
    with pytest.raises(SmearError) as error:
        load_net(_written(tmp_path, change))
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_file_that_is_not_an_npz_is_refused_in_one_line(tmp_path):
    (tmp_path / "text.npz").write_text("not a net\n")
    np.save(tmp_path / "one.npy", np.zeros(3))
    for path in (tmp_path / "text.npz", tmp_path / "one.npy", tmp_path / "missing.npz"):
        with pytest.raises(SmearError) as error:
            load_net(path)
        assert str(path) in str(error.value) and "\n" not in str(error.value)
