"""Summaries and reports of a scoring run: JSON, Markdown and a bar chart PNG.

:func:`summarize` aggregates :class:`~nl2sparql.score.runner.ItemScore`
objects (overall strict/relaxed accuracy and macro F1, then by pattern, by
difficulty and by error class). :func:`write_reports` writes
``report.json``, ``report.md`` and ``accuracy_by_pattern.png`` into a
directory; every file is written to a temporary name first and moved into
place with :func:`os.replace`, so a reader never sees half a report.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Optional, Sequence

from ..errors import DataError
from ..fileio import atomic_write, atomic_write_text, write_jsonl  # noqa: F401 - write_jsonl re-exported
from .runner import ERROR_CLASSES, ItemScore

JSON_NAME = "report.json"
MARKDOWN_NAME = "report.md"
CHART_NAME = "accuracy_by_pattern.png"
DIFFICULTY_ORDER = ("easy", "medium", "hard")


def _group(scores: Sequence[ItemScore]) -> dict:
    n = len(scores)
    if not n:
        return {"n": 0, "strict": 0.0, "relaxed": 0.0, "f1": 0.0}
    return {
        "n": n,
        "strict": sum(s.strict for s in scores) / n,
        "relaxed": sum(s.relaxed for s in scores) / n,
        "f1": sum(s.f1 for s in scores) / n,
    }


def summarize(scores: Sequence[ItemScore]) -> dict:
    """Overall accuracy and macro F1, plus breakdowns by pattern, difficulty and error class."""
    by_pattern: dict[str, list[ItemScore]] = defaultdict(list)
    by_difficulty: dict[str, list[ItemScore]] = defaultdict(list)
    for s in scores:
        for label in s.patterns:
            by_pattern[label].append(s)
        by_difficulty[s.difficulty or "unknown"].append(s)
    errors = Counter(s.error for s in scores if s.error)
    overall = _group(scores)
    diff_keys = [d for d in DIFFICULTY_ORDER if d in by_difficulty] + \
        sorted(d for d in by_difficulty if d not in DIFFICULTY_ORDER)
    return {
        "n": overall["n"],
        "strict_accuracy": overall["strict"],
        "relaxed_accuracy": overall["relaxed"],
        "macro_f1": overall["f1"],
        "by_pattern": {k: _group(v) for k, v in sorted(by_pattern.items())},
        "by_difficulty": {k: _group(by_difficulty[k]) for k in diff_keys},
        "by_error": {k: errors[k] for k in ERROR_CLASSES if errors.get(k)},
    }


# -- renderers ----------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render_markdown(summary: dict, scores: Sequence[ItemScore], meta: dict,
                    chart: Optional[str] = CHART_NAME, max_failures: int = 50) -> str:
    """The Markdown report (tables, the chart and the first failures)."""
    lines = ["# NL→SPARQL scoring report", ""]
    for key, value in meta.items():
        lines.append(f"- **{key}**: {value}")
    lines += ["", "## Overall", "", "| items | strict accuracy | relaxed accuracy | macro F1 |",
              "|---:|---:|---:|---:|",
              f"| {summary['n']} | {_pct(summary['strict_accuracy'])} | "
              f"{_pct(summary['relaxed_accuracy'])} | {summary['macro_f1']:.3f} |", ""]
    for title, key, head in (("By pattern", "by_pattern", "pattern"),
                             ("By difficulty", "by_difficulty", "difficulty")):
        groups = summary[key]
        if not groups:
            continue
        lines += [f"## {title}", "", f"| {head} | items | strict | relaxed | F1 |", "|---|---:|---:|---:|---:|"]
        for name, g in groups.items():
            lines.append(f"| {name} | {g['n']} | {_pct(g['strict'])} | {_pct(g['relaxed'])} | {g['f1']:.3f} |")
        lines.append("")
    if chart and summary["by_pattern"]:
        lines += [f"![Accuracy by pattern]({chart})", ""]
    lines += ["## By error class", ""]
    if summary["by_error"]:
        lines += ["| error | items |", "|---|---:|"]
        lines += [f"| {k} | {v} |" for k, v in summary["by_error"].items()]
    else:
        lines.append("No errors: every item is a strict match.")
    failures = [s for s in scores if not s.strict]
    if failures:
        lines += ["", f"## Failures (first {min(len(failures), max_failures)} of {len(failures)})", "",
                  "| id | error | relaxed | F1 | detail |", "|---|---|---|---:|---|"]
        for s in failures[:max_failures]:
            detail = s.detail.replace("|", "\\|").replace("\n", " ")[:200]
            lines.append(f"| {s.id} | {s.error} | {'yes' if s.relaxed else 'no'} | {s.f1:.2f} | {detail} |")
    return "\n".join(lines) + "\n"


def render_chart(summary: dict, path: str) -> None:
    """Horizontal bars of strict and relaxed accuracy per pattern (PNG, Agg backend)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    groups = summary["by_pattern"] or {"all": {"strict": summary["strict_accuracy"],
                                               "relaxed": summary["relaxed_accuracy"], "n": summary["n"]}}
    names = list(groups)
    strict = [100 * groups[k]["strict"] for k in names]
    relaxed = [100 * groups[k]["relaxed"] for k in names]
    fig = Figure(figsize=(8, 1.2 + 0.4 * len(names)))
    FigureCanvasAgg(fig)  # render with Agg without touching the global backend
    ax = fig.add_subplot()
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], relaxed, height=0.4, label="relaxed", color="#9ecae1")
    ax.barh([y - 0.2 for y in ys], strict, height=0.4, label="strict", color="#3182bd")
    ax.set_yticks(list(ys), [f"{k} (n={groups[k]['n']})" for k in names])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("accuracy (%)")
    ax.set_title("Execution accuracy by pattern")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)


def write_reports(out_dir: Path, scores: Sequence[ItemScore], options: dict,
                  meta: Optional[dict] = None) -> dict[str, Path]:
    """Write the JSON report, the Markdown report and the chart into ``out_dir``."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"{out_dir}: cannot create the report directory ({exc.strerror})") from None
    if not out_dir.is_dir():
        raise DataError(f"{out_dir}: not a directory")
    meta = dict(meta or {})
    summary = summarize(scores)
    payload = {"meta": meta, "options": options, "summary": summary,
               "items": [s.to_dict() for s in scores]}
    paths = {"json": out_dir / JSON_NAME, "markdown": out_dir / MARKDOWN_NAME, "chart": out_dir / CHART_NAME}
    atomic_write_text(paths["json"], json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    atomic_write(paths["chart"], lambda tmp: render_chart(summary, tmp))
    atomic_write_text(paths["markdown"], render_markdown(summary, scores, meta, CHART_NAME))
    return paths
