"""Pieces shared by the accuracy benchmarks (``heldout_eval.py``, ``reference_eval.py``).

* :class:`MemoKB`: a KB wrapper that executes each distinct query once. The scorer runs the
  gold again for every prediction, and the persona variants of one question often translate
  to the same query.
* :func:`accuracy_line` / :func:`miss_line`: one printed line per group of
  :class:`~nl2sparql.score.ItemScore` objects.
* :func:`load_translator`: the offline :class:`~nl2sparql.translate.translator.Translator`
  with its load time.
"""

from __future__ import annotations

import pickle
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Iterable, Optional, Sequence

from nl2sparql.score import ERROR_CLASSES, ItemScore


class MemoKB:
    """Executes each distinct (query, timeout, row cap) once; errors are remembered too.

    With ``persist`` (a file under ``bench/out/``, one per store), the answers that succeeded are
    kept between runs (:meth:`save`), so a re-run only executes the queries it has not seen.
    """

    def __init__(self, kb, persist: Path | None = None):
        self.kb = kb
        self._memo: dict[tuple, tuple[bool, object]] = {}
        self.persist = persist
        if persist is not None and persist.is_file():
            try:
                with persist.open("rb") as f:
                    self._memo.update((k, (True, v)) for k, v in pickle.load(f).items())
            except (OSError, EOFError, pickle.UnpicklingError, AttributeError):
                pass  # a stale or torn cache only costs the queries again

    def execute(self, query: str, *, timeout: float | None = None, max_rows: int | None = None):
        """The wrapped KB's answer (or exception) for ``query``, computed at most once."""
        key = (query, timeout, max_rows)
        if key not in self._memo:
            try:
                self._memo[key] = (True, self.kb.execute(query, timeout=timeout, max_rows=max_rows))
            except Exception as exc:  # noqa: BLE001 - replayed to the scorer, which classifies it
                self._memo[key] = (False, exc)
        ok, value = self._memo[key]
        if not ok:
            raise value  # type: ignore[misc]
        return value

    def save(self) -> None:
        """Write the answers that succeeded to ``persist`` (atomically)."""
        if self.persist is None:
            return
        from nl2sparql.fileio import atomic_write
        answers = {k: v for k, (ok, v) in self._memo.items() if ok}
        atomic_write(self.persist, lambda tmp: Path(tmp).write_bytes(pickle.dumps(answers)))


def accuracy_line(label: str, scores: Sequence[ItemScore], width: int = 28) -> str:
    """``label  n=…  strict …%  relaxed …%`` for a group of scores."""
    n = len(scores)
    if not n:
        return f"{label:<{width}} n=   0"
    strict = sum(s.strict for s in scores)
    relaxed = sum(s.relaxed for s in scores)
    return (f"{label:<{width}} n={n:4d}  strict {strict:3d} = {100 * strict / n:5.1f}%"
            f"  relaxed {relaxed:3d} = {100 * relaxed / n:5.1f}%")


def miss_line(errors: Iterable[Optional[str]]) -> str:
    """Counts of the misses' error classes (``None`` = no miss), in the scorer's report order."""
    errors = Counter(e for e in errors if e)
    return ", ".join(f"{k} {errors[k]}" for k in ERROR_CLASSES if errors.get(k)) or "none"


def percentile_ms(samples: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of durations in seconds, in milliseconds."""
    ordered = sorted(samples)
    if not ordered:
        return 0.0
    if q == 0.5:
        return statistics.median(ordered) * 1000
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def load_translator(**kw):
    """The offline translator over the shipped pools, and the seconds it took to start."""
    from nl2sparql.translate.translator import Translator

    start = time.perf_counter()
    translator = Translator(**kw)
    return translator, time.perf_counter() - start


#: Confidence bins of the reliability table: ``[lo, hi)`` (the last one includes 1.0).
CONFIDENCE_BINS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, 1.0))


def calibration_lines(items: Sequence[dict], right: str = "strict") -> list[str]:
    """What an agent's confidence is worth, over per-item records with ``confidence``, ``verified``,
    ``attempts`` and a ``right`` flag (strict by default): the "verified but wrong" share, the
    accuracy at confidence ≥ 0.8, and the reliability table (confidence bins against accuracy)."""
    n = len(items)
    if not n:
        return ["no items"]
    verified = [i for i in items if i.get("verified")]
    wrong = [i for i in verified if not i[right]]
    high = [i for i in items if i["confidence"] >= 0.8]
    attempts = [i.get("attempts", 0) for i in items]
    lines = [f"verified {len(verified)}/{n}; verified but wrong {len(wrong)}/{len(verified) or 1} = "
             f"{100 * len(wrong) / (len(verified) or 1):.1f} %; unverified answers right "
             f"{sum(i[right] for i in items if not i.get('verified'))}/{n - len(verified)}",
             f"confidence >= 0.8: {sum(i[right] for i in high)}/{len(high)} right = "
             f"{100 * sum(i[right] for i in high) / (len(high) or 1):.1f} %; "
             f"attempts per question: mean {statistics.mean(attempts):.2f}, max {max(attempts)}",
             "| confidence | n | right | accuracy |", "|---|---|---|---|"]
    for lo, hi in CONFIDENCE_BINS:
        inside = [i for i in items if lo <= i["confidence"] < hi or (hi == 1.0 and i["confidence"] == 1.0)]
        share = f"{100 * sum(i[right] for i in inside) / len(inside):.1f} %" if inside else "-"
        lines.append(f"| [{lo:.1f}, {hi:.1f}{']' if hi == 1.0 else ')'} | {len(inside)} | "
                     f"{sum(i[right] for i in inside)} | {share} |")
    return lines
