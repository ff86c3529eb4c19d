"""The learned player's kernels: the seat's view as a tensor (:mod:`.tensor`), the @njit twin of
:mod:`smear_sim.reference.view_tensor` over the kernels' hand state; and the net's forward pass (:mod:`.mlp`), with
its sparse first layer kept as an accumulator."""

from .mlp import acc_add, acc_fill, acc_fill_dense, acc_remove, acc_start, forward, forward_dense, head_from_acc
from .tensor import VIEW_WORK_SIZE, before_play_state, new_work, set_auction, write_view_tensor

__all__ = ["VIEW_WORK_SIZE", "acc_add", "acc_fill", "acc_fill_dense", "acc_remove", "acc_start", "before_play_state",
           "forward", "forward_dense", "head_from_acc", "new_work", "set_auction", "write_view_tensor"]
