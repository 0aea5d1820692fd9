"""The operator contract (DataFlow style).

An operator's constructor takes its configuration and the services it needs
(a KB, an LLM client); ``run(storage, input_*_key=…, output_*_key=…)`` reads
the previous step from ``storage``, writes its own step, and returns a
:class:`StepReport`. ``input_keys``/``output_keys`` declare which record
fields it needs and adds, so a pipeline can check its wiring before running.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, ClassVar

ProgressFn = Callable[[int, int], None]


@dataclass
class StepReport:
    """What one operator did: rows in, kept, rejected by reason, extras for the manifest."""

    operator: str
    rows_in: int = 0
    kept: int = 0
    rejected: Counter = field(default_factory=Counter)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {"operator": self.operator, "rows_in": self.rows_in, "kept": self.kept,
                "rejected": dict(sorted(self.rejected.items())), **self.extra}


def checkpoint_for(storage):
    """The checkpoint log of the storage's current step, or ``None`` (DataFlow's storages have none)."""
    make = getattr(storage, "checkpoint", None)
    return make() if callable(make) else None


class Operator:
    """Base class: subclasses set ``input_keys``/``output_keys`` and implement ``run``."""

    #: Record fields the operator reads (by their default key names).
    input_keys: ClassVar[tuple[str, ...]] = ()
    #: Record fields the operator writes.
    output_keys: ClassVar[tuple[str, ...]] = ()
    #: Bump when the operator's output changes for the same input (recorded in provenance).
    version: ClassVar[str] = "1"

    def __init__(self, config: dict | None = None, progress: ProgressFn | None = None):
        self.config = dict(config or {})
        self.progress = progress or (lambda done, total: None)

    @property
    def name(self) -> str:
        """The operator's class name."""
        return type(self).__name__

    @property
    def threads(self) -> int:
        """Workers the operator may run at once (config ``threads``, default 1): query threads or forked
        processes, whichever its work needs; its output does not depend on them."""
        return max(1, int(self.config.get("threads", 1)))

    def params(self) -> dict:
        """Parameters recorded in the run manifest (JSON-ready)."""
        return {k: v for k, v in self.config.items() if isinstance(v, (str, int, float, bool, list, type(None)))}

    def run(self, storage, **keys) -> StepReport:  # pragma: no cover - interface
        raise NotImplementedError

    @staticmethod
    def write_rejects(storage, rows: list[dict]) -> None:
        """Write rejects when the storage supports it (DataFlow's does not)."""
        writer = getattr(storage, "write_rejects", None)
        if writer is not None:
            writer(rows)
