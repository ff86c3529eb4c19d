"""Files that commands write besides their tables: traces of simulated hands."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.io import atomic_write

__all__ = ["write_trace"]


def write_trace(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write one JSON object per line, atomically."""
    with atomic_write(path) as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
