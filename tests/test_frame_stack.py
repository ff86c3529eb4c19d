"""smear_sim._frame_stack: the interpreter keeps its spare frame-stack chunks, so calls that cross a chunk's edge again
and again stop faulting in fresh pages; it can be turned off; a call that will compile installs it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from smear_sim._frame_stack import VARIABLE

pytestmark = pytest.mark.skipif(sys.implementation.name != "cpython" or os.name != "posix",
                                reason="CPython on POSIX only")

# A call whose frame is larger than its caller's opens a fresh chunk at some depth: it is made 1,000 times at every
# depth up to 400, and the page faults counted.
_CROSSING = """
import resource, sys
from smear_sim._frame_stack import keep_frame_chunks
installed = keep_frame_chunks()
namespace = {}
exec("def leaf():\\n" + "".join(f"    v{i} = {i}\\n" for i in range(200)) + "    return v0\\n", namespace)
leaf = namespace["leaf"]
def down(n):
    if n == 0:
        for _ in range(1000):
            leaf()
        return
    down(n - 1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for depth in range(400):
    down(depth)
print(installed, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _crossing(keep: str) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", _CROSSING], env=os.environ | {VARIABLE: keep}, capture_output=True,
                          text=True, timeout=120, check=True)
    installed, faults = done.stdout.split()
    return installed, int(faults)


def test_calls_crossing_a_chunk_edge_fault_in_no_fresh_pages_once_the_chunks_are_kept():
    installed, faults = _crossing("1")
    assert installed == "True" and faults < 1000, faults  # without: about 36,000 (CPython 3.11 to 3.13)


def test_it_can_be_turned_off():
    installed, _ = _crossing("0")
    assert installed == "False"


def test_a_call_that_will_compile_installs_it_and_one_that_loads_does_not():
    code = ("import io, smear_sim._frame_stack as f, smear_sim.kernels\n"
            "from smear_sim.engine.compiling import compiling\n"
            "with compiling(False): pass\n"
            "print(f._installed is not None)\n"
            "with compiling(True, io.StringIO()): pass\n"
            "print(f._installed is not None)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "True"]
