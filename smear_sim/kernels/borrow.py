"""Borrowed arrays: views that the hot loops of the drivers hand down without reference counting.

A Numba array carries a pointer to its reference count (its meminfo), and compiled code updates that count, with
an atomic instruction, wherever an array is bound to a variable, passed to a function that is not inlined or taken
out of a tuple; the pass that prunes these updates works inside one function only. A hand's play passes the same
few arrays (the rules, the card tables, the hand state) down through dozens of calls, so a driver whose arrays own
their memory spends a large part of each hand on these atomic updates. An array whose meminfo is null skips them
(Numba's increment and decrement test for null first): the arrays that reach a ``parallel=True`` loop body come in
that way, which is why the drivers ran faster when they were parallel.

:func:`borrowed` makes such a view of an array, or of each array in a tuple. The view does not keep its memory
alive: the driver keeps the owner, and calls :func:`keep_alive` on it after the loop that uses the view (a
variable's reference is otherwise dropped after its last use). A borrowed view must not outlive the driver call
that made it: it is never returned nor stored in an array or list that is.

The hottest functions below the drivers (a hand's play, the heuristic's card choice, the scoring) are compiled with
:data:`NO_REFCOUNT`: with no reference counting at all, not even the test for a null meminfo and the call it takes
(they run for every card of every hand). Such a function may take arrays, index them and pass them on, but must
neither allocate an array nor receive one from a function it calls: nothing would free it. (Numba refuses to
compile an allocation there; an array returned by a callee would leak unnoticed, so none of them calls one.)

Numba compiles a function that does not choose for itself with the reference counting of its first caller, so a
function that allocates would fail to compile, and a function that receives an array would leak it, whenever its
first caller is one of these. Every kernel below the drivers that allocates is therefore compiled with
:data:`REFCOUNTED`, and so is every decision of a player (the dispatch calls it from the hand) that does not run
without reference counting: what a function compiles to never depends on who called it first.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

__all__ = ["NO_REFCOUNT", "REFCOUNTED", "borrowed", "keep_alive"]

NO_REFCOUNT = {"_nrt": False}  # njit's options for a function compiled without reference counting (above)
REFCOUNTED = {"_nrt": True}  # and for one compiled with it, whoever calls it first (above)


def _borrowable(ty) -> bool:
    """Whether ``ty`` is an array, a tuple of borrowable values, or a value with no reference count."""
    if isinstance(ty, types.Array):
        return True
    if isinstance(ty, types.BaseTuple):
        return all(_borrowable(t) for t in ty)
    return isinstance(ty, (types.Number, types.Boolean, types.NoneType, types.Literal))


def _without_meminfo(context, builder, ty, value):
    """``value`` (of type ``ty``) with each array's meminfo and parent set to null."""
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        items = [_without_meminfo(context, builder, t, builder.extract_value(value, i)) for i, t in enumerate(ty)]
        return context.make_tuple(builder, ty, items)
    return value


@intrinsic
def borrowed(typingctx, value):
    """A view of the array ``value`` (or of each array in the tuple ``value``) with no reference count: passing it
    around costs no atomic updates. The caller keeps ``value`` alive (:func:`keep_alive`) while the view is used."""
    if not _borrowable(value):
        raise TypingError(f"borrowed() takes arrays and tuples of them, not {value}")

    def codegen(context, builder, signature, args):
        return _without_meminfo(context, builder, signature.args[0], args[0])

    return value(value), codegen


@intrinsic
def keep_alive(typingctx, value):
    """Nothing, at run time: a use of ``value`` that keeps its reference (and so its memory) until this point."""

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(value), codegen
