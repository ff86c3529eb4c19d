"""Faster compiles on CPython: the interpreter's spare frame-stack chunks are kept rather than given back at once.

CPython (3.11 and later: 3.11, 3.12 and 3.13 measured) keeps each thread's Python frames in chunks of 16 KiB that it
maps from the operating system (``mmap``). When the frame that opened a chunk returns, the chunk is unmapped at once
(``munmap``), so calls that cross a chunk's edge again and again map, fault in and unmap fresh pages every time.
Numba's compiler is deep, recursive Python (it copies a function's IR for every call it inlines), and compiling the
simulator crosses such an edge over a million times, so a cold compile spent a third of its time in the system
calls. How often a compile crosses an edge depends on how deep the stack is where it starts (docs/performance.md
has the figures).

:func:`keep_frame_chunks` gives the interpreter an arena allocator (``PyObject_SetArenaAllocator``, part of CPython's
public C API) that does what CPython's own does, ``mmap`` and ``munmap``, except that it keeps up to
:data:`KEPT` freed blocks of exactly :data:`CHUNK` bytes and hands them out again. Python's small-object arenas
(another size) come and go as before, so the memory kept is at most 1 MiB. The allocator runs inside the
interpreter's allocation, where no Python may run, so its two functions are a few lines of LLVM IR compiled by
llvmlite, the compiler library Numba is built on.

:func:`smear_sim.engine.compiling.compiling`, around a kernel's call that will compile, and the compile helper install
it, so that a process that only loads cached kernels does not pay the tenth of a second installing takes. (A hook on
importing the kernels, or on Numba's compile event, would reach every compile, but importing Numba's event module there
raced the server's warm-up thread importing Numba.) It is installed once a process, only on CPython with the GIL (the
interpreter calls the allocator holding it) and POSIX ``mmap``. ``SMEAR_SIM_KEEP_FRAME_CHUNKS=0`` leaves CPython's
allocator alone; so does anything unexpected on the way.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import sysconfig

__all__ = ["CHUNK", "KEPT", "VARIABLE", "keep_frame_chunks"]

VARIABLE = "SMEAR_SIM_KEEP_FRAME_CHUNKS"  # 0: leave CPython's allocator alone
CHUNK = 16 * 1024  # CPython's frame-stack chunk (DATA_STACK_CHUNK_SIZE)
KEPT = 64  # chunks kept at most: 1 MiB

# alloc(ctx, size) and free(ctx, ptr, size), as PyObjectArenaAllocator calls them (ctx unused; pointers as i64,
# which the calling convention passes alike). Blocks of CHUNK bytes are kept in @kept (a stack of @count).
_IR = """
@count = internal global i64 0
@kept = internal global [{kept} x i64] zeroinitializer

declare i64 @mmap(i64, i64, i32, i32, i32, i64)
declare i32 @munmap(i64, i64)

define i64 @frame_chunk_alloc(i64 %ctx, i64 %size) {{
entry:
  %n = load i64, i64* @count
  %chunk = icmp eq i64 %size, {chunk}
  %any = icmp sgt i64 %n, 0
  %reuse = and i1 %chunk, %any
  br i1 %reuse, label %take, label %map
take:
  %top = sub i64 %n, 1
  store i64 %top, i64* @count
  %slot = getelementptr [{kept} x i64], [{kept} x i64]* @kept, i64 0, i64 %top
  %block = load i64, i64* %slot
  ret i64 %block
map:
  %mapped = call i64 @mmap(i64 0, i64 %size, i32 {prot}, i32 {flags}, i32 -1, i64 0)
  %failed = icmp eq i64 %mapped, -1
  %result = select i1 %failed, i64 0, i64 %mapped
  ret i64 %result
}}

define void @frame_chunk_free(i64 %ctx, i64 %block, i64 %size) {{
entry:
  %n = load i64, i64* @count
  %chunk = icmp eq i64 %size, {chunk}
  %room = icmp slt i64 %n, {kept}
  %keep = and i1 %chunk, %room
  br i1 %keep, label %put, label %unmap
put:
  %slot = getelementptr [{kept} x i64], [{kept} x i64]* @kept, i64 0, i64 %n
  store i64 %block, i64* %slot
  %next = add i64 %n, 1
  store i64 %next, i64* @count
  ret void
unmap:
  %done = call i32 @munmap(i64 %block, i64 %size)
  ret void
}}
"""


class _ArenaAllocator(ctypes.Structure):
    """CPython's PyObjectArenaAllocator."""

    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


_installed: tuple | None = None  # the compiled functions and the allocator, alive as long as the process


def _applies() -> bool:
    return (os.environ.get(VARIABLE, "1") != "0" and sys.implementation.name == "cpython" and os.name == "posix"
            and sys.version_info >= (3, 11) and not sysconfig.get_config_var("Py_GIL_DISABLED"))


def keep_frame_chunks() -> bool:
    """Install the allocator of the module docstring, once; whether it is installed."""
    global _installed
    if _installed is not None:
        return True
    if not _applies():
        return False
    try:
        import mmap

        import llvmlite.binding as llvm

        with contextlib.suppress(Exception):
            llvm.initialize()  # needed before llvmlite 0.45, an error after it
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        module = llvm.parse_assembly(_IR.format(kept=KEPT, chunk=CHUNK, prot=mmap.PROT_READ | mmap.PROT_WRITE,
                                                flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS))
        module.verify()
        engine = llvm.create_mcjit_compiler(module, llvm.Target.from_default_triple().create_target_machine())
        engine.finalize_object()
        alloc = engine.get_function_address("frame_chunk_alloc")
        free = engine.get_function_address("frame_chunk_free")
        if not (alloc and free):
            return False
        allocator = _ArenaAllocator(None, alloc, free)
        ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(allocator))
    except Exception:  # another Python or llvmlite than those this was written for: CPython's allocator stays
        return False
    _installed = (engine, allocator)
    return True

