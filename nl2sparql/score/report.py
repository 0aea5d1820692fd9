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
from .checks import summarize_checks
from .field import summarize_field
from .runner import ERROR_CLASSES, ItemScore

JSON_NAME = "report.json"
MARKDOWN_NAME = "report.md"
CHART_NAME = "accuracy_by_pattern.png"
DIFFICULTY_ORDER = ("easy", "medium", "hard")


def group_figures(scores: Sequence[ItemScore]) -> dict:
    """Items, strict and relaxed accuracy, cell F1, the Text2SPARQL headline and QALD macro F1 of a group."""
    n = len(scores)
    if not n:
        return {"n": 0, "strict": 0.0, "relaxed": 0.0, "f1": 0.0, "t2s": None, "qald_f1": None}
    field = summarize_field([s.field for s in scores])
    return {
        "n": n,
        "strict": sum(s.strict for s in scores) / n,
        "relaxed": sum(s.relaxed for s in scores) / n,
        "f1": sum(s.f1 for s in scores) / n,
        "t2s": field["t2s_score"],
        "qald_f1": field["qald_macro_f1"],
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
    overall = group_figures(scores)
    diff_keys = [d for d in DIFFICULTY_ORDER if d in by_difficulty] + \
        sorted(d for d in by_difficulty if d not in DIFFICULTY_ORDER)
    return {
        "n": overall["n"],
        "strict_accuracy": overall["strict"],
        "relaxed_accuracy": overall["relaxed"],
        "macro_f1": overall["f1"],
        "by_pattern": {k: group_figures(v) for k, v in sorted(by_pattern.items())},
        "by_difficulty": {k: group_figures(by_difficulty[k]) for k in diff_keys},
        "by_error": {k: errors[k] for k in ERROR_CLASSES if errors.get(k)},
        "field": summarize_field([s.field for s in scores]),
        "checks": summarize_checks([s.checks for s in scores]),
        "empty_gold": _empty_gold(scores),
        "disagreements": disagreements(scores),
    }


def _empty_gold(scores: Sequence[ItemScore]) -> dict:
    """Items whose gold answer is empty (no rows): how many, and how many predictions agreed (both empty)."""
    empty = [s for s in scores if s.gold_rows == 0]
    return {"n": len(empty), "strict": sum(s.strict for s in empty)}


#: What each measure of a report is, in the order reports show them (key of the summary, name, meaning).
MEASURES = (
    ("strict_accuracy", "strict accuracy", "ours: the gold's columns (paired by content) and rows, nothing more"),
    ("relaxed_accuracy", "relaxed accuracy", "ours: the gold's columns found among the prediction's, rows as sets"),
    ("macro_f1", "cell F1", "ours: cells of the paired columns, averaged over items"),
    ("t2s_f1", "Text2SPARQL F1", "the challenge's official set F1 over all bound values, one bag of strings; "
                                 "empty golds are not counted"),
    ("t2s_score", "Text2SPARQL F1/NDCG", "the challenge's headline: NDCG in place of F1 for ordered golds"),
    ("qald_macro_f1", "QALD macro F1", "GERBIL's Macro F1 QALD: harmonic mean of macro precision and recall, "
                                        "QALD's empty-answer rules"),
)


def measure_values(summary: dict) -> dict[str, Optional[float]]:
    """The six measures of :data:`MEASURES` from a summary (``None`` where a measure has no item)."""
    field = summary.get("field") or {}
    return {key: summary.get(key, field.get(key)) for key, _, _ in MEASURES}


def disagreements(scores: Sequence[ItemScore], limit: int = 10) -> list[dict]:
    """Items where the official Text2SPARQL measure and our strict verdict disagree, each with why: the official
    measure scores a wrong answer 1, or a right one below 1, or leaves the item out (the first ``limit``)."""
    out = []
    for s in scores:
        why = _why_disagree(s)
        if why:
            official = s.field.t2s_score if s.field else None
            out.append({"id": s.id, "strict": s.strict, "t2s": official,
                        "qald_f1": s.field.qald_f1 if s.field else None, "why": why})
    return out[:limit]


def _why_disagree(s: ItemScore) -> Optional[str]:
    field = s.field
    if field is None:
        return None
    official = field.t2s_score
    ask = s.gold_rows is None
    if official is None:
        if s.gold_rows == 0:
            return ("the gold answer is empty: the official measure leaves the item out; ours counts it "
                    + ("right (both empty)" if s.strict else f"wrong ({s.detail or s.error})"))
        return None
    if official >= 1.0 and not s.strict:
        if ask:
            return "an ASK whose gold is true: the official measure scores any ASK answer right"
        return ("the bound values coincide as strings (the official measure sees no language tag, datatype or "
                f"pairing of values), but ours finds the answer wrong: {s.detail or s.error}")
    if s.strict and official < 1.0:
        if ask:
            return "an ASK whose gold is false: the official measure scores it 0 whatever is answered"
        if field.t2s_ndcg is not None:
            return "an ordered gold: the official NDCG ranks the values by their (equal) scores, not their order"
        return "the same answer by value (1 = 1.0), but the official measure compares the values' text"
    return None


# -- renderers ----------------------------------------------------------------

def fmt_pct(x: float) -> str:
    """``0.5`` → ``50.0%``."""
    return f"{100 * x:.1f}%"


def fmt_number(x: Optional[float]) -> str:
    """Three decimals, or a dash for a measure with no item."""
    return "–" if x is None else f"{x:.3f}"


def _checks_lines(summary: dict) -> list[str]:
    checks, empty = summary.get("checks") or {}, summary.get("empty_gold") or {}
    if not checks.get("predictions"):
        return []
    rules = ", ".join(f"{k} ({v})" for k, v in checks["rules_broken"].items()) or "none"
    lines = ["## Query checks", "", "| check | share |", "|---|---:|",
             f"| predicted IRIs not in the KB ({checks['iris_checked']} checked) | "
             f"{fmt_pct(checks['unknown_iri_share'])} |",
             f"| predictions with an IRI not in the KB | {fmt_pct(checks['with_unknown_iri_share'])} |",
             f"| predictions breaking a LiITA rule | {fmt_pct(checks['rule_break_share'])} |",
             f"| predictions that ran and returned nothing | {fmt_pct(checks['empty_share'])} |", "",
             f"Rules broken: {rules}.", ""]
    if empty.get("n"):
        lines += [f"Items whose gold answer is empty: {empty['n']}, answered empty (right): {empty['strict']}.", ""]
    return lines


def _disagreement_lines(summary: dict) -> list[str]:
    found = summary.get("disagreements") or []
    if not found:
        return []
    lines = ["## Where the official measure and ours disagree", "",
             "| id | strict | Text2SPARQL | QALD F1 | why |", "|---|---|---:|---:|---|"]
    for d in found:
        why = d["why"].replace("|", "\\|").replace("\n", " ")[:240]
        lines.append(f"| {d['id']} | {'right' if d['strict'] else 'wrong'} | {fmt_number(d['t2s'])} | "
                     f"{fmt_number(d['qald_f1'])} | {why} |")
    return lines + [""]


def render_markdown(summary: dict, scores: Sequence[ItemScore], meta: dict,
                    chart: Optional[str] = CHART_NAME, max_failures: int = 50) -> str:
    """The Markdown report (tables, the chart and the first failures)."""
    lines = ["# NL→SPARQL scoring report", ""]
    for key, value in meta.items():
        lines.append(f"- **{key}**: {value}")
    lines += ["", f"## Overall ({summary['n']} items)", "", "| measure | value | what it is |", "|---|---:|---|"]
    values = measure_values(summary)
    lines += [f"| {name} | {fmt_number(values[key])} | {meaning} |" for key, name, meaning in MEASURES]
    lines += [""] + _checks_lines(summary) + _disagreement_lines(summary)
    for title, key, head in (("By pattern", "by_pattern", "pattern"),
                             ("By difficulty", "by_difficulty", "difficulty")):
        groups = summary[key]
        if not groups:
            continue
        lines += [f"## {title}", "", f"| {head} | items | strict | relaxed | cell F1 | Text2SPARQL | QALD F1 |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for name, g in groups.items():
            lines.append(f"| {name} | {g['n']} | {fmt_pct(g['strict'])} | {fmt_pct(g['relaxed'])} | {g['f1']:.3f} | "
                         f"{fmt_number(g.get('t2s'))} | {fmt_number(g.get('qald_f1'))} |")
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


def report_dir(out_dir: Path) -> Path:
    """``out_dir``, created when missing (one line naming the problem when it cannot be)."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"{out_dir}: cannot create the report directory ({exc.strerror})") from None
    if not out_dir.is_dir():
        raise DataError(f"{out_dir}: not a directory")
    return out_dir


def write_reports(out_dir: Path, scores: Sequence[ItemScore], options: dict,
                  meta: Optional[dict] = None) -> dict[str, Path]:
    """Write the JSON report, the Markdown report and the chart into ``out_dir``."""
    out_dir = report_dir(out_dir)
    meta = dict(meta or {})
    summary = summarize(scores)
    payload = {"meta": meta, "options": options, "summary": summary,
               "items": [s.to_dict() for s in scores]}
    paths = {"json": out_dir / JSON_NAME, "markdown": out_dir / MARKDOWN_NAME, "chart": out_dir / CHART_NAME}
    atomic_write_text(paths["json"], json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    atomic_write(paths["chart"], lambda tmp: render_chart(summary, tmp))
    atomic_write_text(paths["markdown"], render_markdown(summary, scores, meta, CHART_NAME))
    return paths
