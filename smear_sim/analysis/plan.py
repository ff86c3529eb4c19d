"""One value for a run: who plays (each team's policy and the tables its bidder reads), under which rules, and how
the run goes (:class:`smear_sim.engine.settings.RunSettings`). An entry point makes it once with
:meth:`RunPlan.of`, the one place its defaults are filled in, and the analyses pass it down.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import SmearError
from ..core.players import parse_policies, policy_array
from ..core.rules import Rules
from ..engine.runner import Executor, Job, Progress, RunResult
from ..engine.settings import RunSettings
from .session_tables import player_bidder_arrays

if TYPE_CHECKING:
    from ..engine.checkpoint import Checkpoint

__all__ = ["RunPlan"]


@dataclass(frozen=True)
class RunPlan:
    """Who plays, under which rules, and how the run goes (module docstring)."""

    policies: tuple[str, str]  # team 0's and team 1's, canonical (core.players.parse_policies)
    rules: Rules
    bidder_arrays: tuple[np.ndarray, ...] = field(repr=False)  # the tables the players read (analysis.session_tables)
    settings: RunSettings = RunSettings()

    @classmethod
    def of(
        cls,
        policies: str | tuple[str, str] | list[str] = "heuristic",
        rules: Rules | None = None,
        *,
        bidder_arrays: tuple[np.ndarray, ...] | None = None,
        settings: RunSettings | None = None,
        threads: int | None = None,
        executor: Executor | None = None,
        chunk_size: int | None = None,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> RunPlan:
        """The plan with its defaults filled in: the default rules, the players' tables looked up (never made:
        an entry point readies them first), and ``settings`` or the settings the other keywords give."""
        rules = Rules() if rules is None else rules
        policies = parse_policies(policies)
        if settings is None:
            settings = RunSettings(threads, executor, chunk_size, progress, checkpoint)
        if bidder_arrays is None:
            bidder_arrays = player_bidder_arrays(policies, rules)
        return cls(policies, rules, bidder_arrays, settings)

    def replace(self, **changes) -> RunPlan:
        """This plan with the run's settings changed (e.g. ``progress=None``): who plays stays."""
        return dataclasses.replace(self, settings=self.settings.replace(**changes))

    def one_policy(self, what: str) -> str:
        """The policy of all four seats, for an analysis (``what``: "bid tables play") that needs one."""
        if self.policies[0] != self.policies[1]:
            raise SmearError(f"{what} one policy at all four seats; give a single --policy")
        return self.policies[0]

    @property
    def players(self) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
        """The kernels' first three arguments: the rules, the policy codes and the equity bidder's arrays."""
        return self.rules.to_array(), policy_array(self.policies), self.bidder_arrays

    def run(self, job: Job, **how) -> RunResult:
        """Run ``job`` under the plan's settings (:meth:`RunSettings.run`)."""
        return self.settings.run(job, **how)
