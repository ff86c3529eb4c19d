"""The learned player's kernels: the seat's view as a tensor (:mod:`.tensor`), the @njit twin of
:mod:`smear_sim.reference.view_tensor` over the kernels' hand state."""

from .tensor import VIEW_WORK_SIZE, before_play_state, new_work, set_auction, write_view_tensor

__all__ = ["VIEW_WORK_SIZE", "before_play_state", "new_work", "set_auction", "write_view_tensor"]
