"""How a run goes: where its chunks run (threads or an executor), their size, the progress callback and the
checkpoint, as one frozen value. An entry point (the command line, the public API, the server) makes it once;
every analysis passes it on to :func:`smear_sim.engine.runner.run` through :meth:`RunSettings.run`, the one place
these arguments are forwarded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .runner import Executor, Job, LocalExecutor, Progress, RunResult, run

if TYPE_CHECKING:
    from .checkpoint import Checkpoint

__all__ = ["RunSettings"]


@dataclass(frozen=True)
class RunSettings:
    """How a run goes (module docstring). None everywhere: this machine's cores, the executor's chunk size, no
    progress and no checkpoint."""

    threads: int | None = None  # for this machine's executor; another executor decides its own
    executor: Executor | None = None
    chunk_size: int | None = None
    progress: Progress | None = None
    checkpoint: Checkpoint | None = None

    def replace(self, **changes) -> RunSettings:
        """These settings with ``changes`` (e.g. ``progress=None`` for a run inside another)."""
        return dataclasses.replace(self, **changes)

    @property
    def local(self) -> bool:
        """Whether the chunks run in this process (where a command's own chunk size applies)."""
        return self.executor is None or isinstance(self.executor, LocalExecutor)

    def run(self, job: Job, *, default_chunk: int | None = None, chunk_size: int | None = None,
            stop: Callable[[np.ndarray], bool] | None = None) -> RunResult:
        """Run ``job`` under these settings. ``chunk_size`` overrides the settings' (a run that stops early counts
        in fixed batches); ``default_chunk`` is the job's own size when the settings give none and the chunks
        run here."""
        if chunk_size is None:
            chunk_size = self.chunk_size
            if chunk_size is None and default_chunk is not None and self.local:
                chunk_size = default_chunk
        return run(job, threads=self.threads, chunk_size=chunk_size, progress=self.progress, stop=stop,
                   executor=self.executor, checkpoint=self.checkpoint)
