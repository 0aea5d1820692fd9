"""Several agents side by side: one table and one chart per pattern, difficulty and language, and what changed.

Each run (a predictions file with a label) is scored against the same gold
on the same KB by one :class:`~nl2sparql.score.runner.Scorer`, so each gold
runs once. The items compared are the gold items (of the split) that at
least one run answered; a run without an answer for one of them has it
``missing``, as ``score`` counts it.

The language of a prediction is the language of the question it answered:
its ``question`` field (which ``ask`` and ``evaluate`` write) is looked up
among the item's Italian and English questions and their style variants.

:func:`write_comparison` writes ``compare.json``, ``compare.md`` and
``compare.png`` (strict accuracy per group, one bar per run).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from ..errors import DataError
from ..fileio import atomic_write, atomic_write_text
from .data import GoldItem
from .report import (DIFFICULTY_ORDER, MEASURES, fmt_number, fmt_pct, group_figures, measure_values, report_dir,
                     summarize)
from .runner import ItemScore, Progress, Scorer

JSON_NAME = "compare.json"
MARKDOWN_NAME = "compare.md"
CHART_NAME = "compare.png"
#: The groupings of a comparison: (summary key, title, what an item's group is).
GROUPINGS = (("by_pattern", "pattern"), ("by_difficulty", "difficulty"), ("by_language", "language"))
UNKNOWN_LANG = "unknown"


@dataclass
class Run:
    """One labelled run: its predictions ``{id: sparql}`` and the question each answered (``{id: text}``)."""

    label: str
    predictions: dict[str, Optional[str]]
    questions: dict[str, str] = field(default_factory=dict)


def question_lang(item: GoldItem, question: Optional[str]) -> str:
    """``it`` or ``en`` when ``question`` is one of the item's questions in that language, else ``unknown``."""
    if not question:
        return UNKNOWN_LANG
    text = question.strip()
    if text == item.question.strip() or text in {v.strip() for v in item.variants.values()}:
        return "it"
    if text == item.question_en.strip() or text in {v.strip() for v in item.variants_en.values()}:
        return "en"
    return UNKNOWN_LANG


def compare_runs(scorer: Scorer, items: Sequence[GoldItem], runs: Sequence[Run],
                 progress: Optional[Progress] = None) -> dict:
    """Score every run on the items any run answered; the comparison as a JSON-ready dict."""
    answered = set().union(*(r.predictions for r in runs))
    items = [i for i in items if i.id in answered]
    if not items:
        raise DataError("no prediction of any run has the id of a gold item (of this split): nothing to compare")
    total, done = len(items) * len(runs), 0
    scored: dict[str, list[ItemScore]] = {}
    langs: dict[str, dict[str, str]] = {}
    for run in runs:
        out = []
        for item in items:
            result = scorer.score(item.sparql, run.predictions.get(item.id), item.id)
            result.patterns, result.difficulty = item.pattern_labels, item.difficulty
            out.append(result)
            done += 1
            if progress is not None:
                progress(done, total)
        scored[run.label] = out
        langs[run.label] = {i.id: question_lang(i, run.questions.get(i.id)) for i in items}
    return {
        "runs": [r.label for r in runs],
        "items": len(items),
        "agents": {label: _summary(scores) for label, scores in scored.items()},
        **{key: _tables(items, scored, langs, key) for key, _ in GROUPINGS},
        "differences": _differences(items, runs, scored, langs),
        "scores": {label: [s.to_dict() for s in scores] for label, scores in scored.items()},
    }


def _summary(scores: list[ItemScore]) -> dict:
    summary = summarize(scores)
    return {"measures": measure_values(summary), "checks": summary["checks"], "by_error": summary["by_error"],
            "empty_gold": summary["empty_gold"]}


def _tables(items: Sequence[GoldItem], scored: dict[str, list[ItemScore]], langs: dict[str, dict[str, str]],
            key: str) -> dict[str, dict[str, dict]]:
    """``{group: {run label: group figures}}`` for one grouping."""
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for label, scores in scored.items():
        groups: dict[str, list[ItemScore]] = defaultdict(list)
        for item, s in zip(items, scores):
            if key == "by_pattern":
                names = s.patterns or ["(none)"]
            elif key == "by_difficulty":
                names = [s.difficulty or "unknown"]
            else:
                names = [langs[label][item.id]]
            for name in names:
                groups[name].append(s)
        for name, members in groups.items():
            out[name][label] = group_figures(members)
    order = list(DIFFICULTY_ORDER) if key == "by_difficulty" else ["it", "en"] if key == "by_language" else []
    return dict(sorted(out.items(), key=lambda kv: (kv[0] not in order, order.index(kv[0]) if kv[0] in order
                                                    else 0, kv[0])))


def _differences(items: Sequence[GoldItem], runs: Sequence[Run], scored: dict[str, list[ItemScore]],
                 langs: dict[str, dict[str, str]]) -> list[dict]:
    """The items on which the runs' strict verdicts differ, each run's verdict and error class."""
    out = []
    for n, item in enumerate(items):
        verdicts = {r.label: scored[r.label][n] for r in runs}
        if len({s.strict for s in verdicts.values()}) < 2:
            continue
        first = runs[0].label
        out.append({
            "id": item.id, "question": item.question or item.question_en,
            "patterns": item.pattern_labels, "difficulty": item.difficulty,
            "runs": {label: {"strict": s.strict, "error": s.error, "f1": round(s.f1, 3),
                             "lang": langs[label][item.id], "sparql": s.pred_sparql}
                     for label, s in verdicts.items()},
            "change": "fixed" if len(runs) == 2 and not verdicts[first].strict else
                      "broken" if len(runs) == 2 else None,
        })
    return out


# -- renderers ----------------------------------------------------------------------------------------------

def render_comparison(result: dict, meta: dict, chart: Optional[str] = CHART_NAME, max_differences: int = 100) -> str:
    """The Markdown comparison: every measure per run, the group tables, the chart and the per-item differences."""
    runs = result["runs"]
    lines = ["# NL→SPARQL agents compared", ""]
    lines += [f"- **{key}**: {value}" for key, value in meta.items()]
    lines += ["", f"## Measures ({result['items']} items)", "", "| measure | " + " | ".join(runs) + " | what it is |",
              "|---|" + "---:|" * len(runs) + "---|"]
    for key, name, meaning in MEASURES:
        lines.append(f"| {name} | " + " | ".join(fmt_number(result["agents"][r]["measures"][key]) for r in runs) +
                     f" | {meaning} |")
    checks = [("unknown_iri_share", "predicted IRIs not in the KB"), ("rule_break_share", "breaking a LiITA rule"),
              ("empty_share", "ran and returned nothing")]
    for key, name in checks:
        lines.append(f"| {name} | " + " | ".join(fmt_pct(result["agents"][r]["checks"][key]) for r in runs) +
                     " | query check (share) |")
    lines.append("")
    for key, title in GROUPINGS:
        lines += [f"## Strict accuracy by {title}", "", f"| {title} | items | " + " | ".join(runs) + " |",
                  "|---|---:|" + "---:|" * len(runs)]
        for name, cells in result[key].items():
            n = max(c["n"] for c in cells.values())
            lines.append(f"| {name} | {n} | " + " | ".join(fmt_pct(cells[r]["strict"]) if r in cells else "–"
                                                              for r in runs) + " |")
        lines.append("")
    if chart:
        lines += [f"![Strict accuracy by pattern, difficulty and language]({chart})", ""]
    diffs = result["differences"]
    lines += [f"## Items where the runs differ ({len(diffs)})", ""]
    if len(runs) == 2 and diffs:
        fixed = sum(d["change"] == "fixed" for d in diffs)
        lines += [f"{runs[1]} against {runs[0]}: {fixed} fixed, {len(diffs) - fixed} broken.", ""]
    if diffs:
        lines += ["| id | patterns | " + " | ".join(runs) + " | question |", "|---|---|" + "---|" * len(runs) + "---|"]
        for d in diffs[:max_differences]:
            cells = [("right" if v["strict"] else f"wrong ({v['error']})") for v in d["runs"].values()]
            question = (d["question"] or "").replace("|", "\\|")[:90]
            lines.append(f"| {d['id']} | {', '.join(d['patterns'][:2])} | " + " | ".join(cells) + f" | {question} |")
    else:
        lines.append("The runs agree on every item.")
    return "\n".join(lines) + "\n"


def render_comparison_chart(result: dict, path: str) -> None:
    """Strict accuracy per pattern (left), difficulty and language (right), one bar per run (PNG, Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    runs = result["runs"]
    # rows of bars on the left; on the right the two small panels and, below them, the table of measures
    rows = max(len(result["by_pattern"]), len(result["by_difficulty"]) + len(result["by_language"]) + 10)
    fig = Figure(figsize=(11, 1.4 + rows * (0.12 * len(runs) + 0.14)))
    FigureCanvasAgg(fig)
    # bars as thick on the right as on the left: the right panels take the rows they need, a blank the rest
    right = [len(result["by_difficulty"]) + 1, len(result["by_language"]) + 1]
    grid = fig.add_gridspec(3, 2, width_ratios=[1.15, 1], height_ratios=[*right, rows + 2 - sum(right)])
    axes = {"by_pattern": fig.add_subplot(grid[:, 0]), "by_difficulty": fig.add_subplot(grid[0, 1]),
            "by_language": fig.add_subplot(grid[1, 1])}
    colours = ["#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363", "#de2d26", "#fd8d3c", "#9ecae1"]
    bar = 0.8 / len(runs)
    for key, title in GROUPINGS:
        ax, groups = axes[key], list(result[key])
        for k, label in enumerate(runs):
            values = [100 * result[key][g][label]["strict"] if label in result[key][g] else 0 for g in groups]
            ax.barh([y - 0.4 + bar * (k + 0.5) for y in range(len(groups))], values, height=bar,
                    label=label, color=colours[k % len(colours)])
        ax.set_yticks(list(range(len(groups))),
                      [f"{g} (n={max(c['n'] for c in result[key][g].values())})" for g in groups], fontsize=8)
        ax.set_ylim(len(groups) - 0.5, -0.5)
        ax.set_xlim(0, 100)
        ax.tick_params(axis="x", labelsize=8)
        ax.set_title(f"by {title}", fontsize=10, loc="left")
        ax.grid(axis="x", alpha=0.3)
    _measures_table(fig.add_subplot(grid[2, 1]), result, runs)
    fig.suptitle("Strict accuracy (%)", fontsize=11, x=0.01, ha="left")
    handles, labels = axes["by_pattern"].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", ncol=min(4, len(runs)), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, format="png", dpi=100)


def _measures_table(ax, result: dict, runs: list[str]) -> None:
    """Every measure of every run, as a small table in the chart's free corner."""
    ax.axis("off")
    cells = [[fmt_number(result["agents"][r]["measures"][key]) for r in runs] for key, _, _ in MEASURES]
    table = ax.table(cellText=cells, rowLabels=[name for _, name, _ in MEASURES], colLabels=runs,
                     loc="upper right", cellLoc="right")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.scale(1, 1.3)


def write_comparison(out_dir: Path, result: dict, meta: dict) -> dict[str, Path]:
    """Write ``compare.json``, ``compare.md`` and ``compare.png`` into ``out_dir`` (each file atomically)."""
    out_dir = report_dir(out_dir)
    paths = {"json": out_dir / JSON_NAME, "markdown": out_dir / MARKDOWN_NAME, "chart": out_dir / CHART_NAME}
    atomic_write_text(paths["json"], json.dumps({"meta": meta, **result}, ensure_ascii=False, indent=2) + "\n")
    atomic_write(paths["chart"], lambda tmp: render_comparison_chart(result, tmp))
    atomic_write_text(paths["markdown"], render_comparison(result, meta))
    return paths
