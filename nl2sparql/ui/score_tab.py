"""Score: run gold and predicted SPARQL on the KB and compare what they return.

Gold is a shipped pool or an uploaded pool file; predictions are an uploaded
JSONL of ``{id, sparql}``, or, with none, the offline translator's own answers.
"""

from __future__ import annotations

import gradio as gr

from .. import api
from .context import Context, guarded
from .progress import stream_progress
from .render import esc, frame, message
from .widgets import download

UPLOADED = "an uploaded file"
SPLITS = ["all", "train", "dev", "test"]
VERDICT_COLUMNS = ["id", "verdict", "F1", "gold rows", "predicted rows", "patterns", "detail"]

EXAMPLES = [["handwritten", "all", 10], ["sample_pool", "test", 20]]


def verdict(item: dict) -> str:
    """A short verdict for one scored item."""
    if item.get("strict"):
        return "✓ same answer"
    if item.get("relaxed"):
        return "≈ same answer (relaxed)"
    return f"✗ {item.get('error') or 'different answer'}"


def verdicts_frame(items: list[dict]):
    """One row per scored item."""
    return frame([[i["id"], verdict(i), f"{i.get('f1', 0):.2f}", i.get("gold_rows"), i.get("pred_rows"),
                   ", ".join(i.get("patterns") or []), (i.get("detail") or "")[:200]] for i in items],
                 VERDICT_COLUMNS)


def summary_html(result) -> str:
    """The headline numbers and the breakdown by difficulty."""
    s = result.summary
    cards = "".join(f'<div class="nl2s-card"><div class="nl2s-card-value">{value}</div>'
                    f'<div class="nl2s-card-label">{esc(label)}</div></div>'
                    for label, value in (("items", s["n"]), ("strict accuracy", f"{100 * s['strict_accuracy']:.1f}%"),
                                         ("relaxed accuracy", f"{100 * s['relaxed_accuracy']:.1f}%"),
                                         ("macro F1", f"{s['macro_f1']:.3f}")))
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{g['n']}</td><td>{100 * g['strict']:.1f}%</td>"
                   f"<td>{100 * g['relaxed']:.1f}%</td></tr>" for k, g in s["by_difficulty"].items())
    table = (f'<table class="nl2s-kv"><tr><th>difficulty</th><th>items</th><th>strict</th><th>relaxed</th></tr>'
             f"{rows}</table>") if rows else ""
    errors = ", ".join(f"{k}: {v}" for k, v in s["by_error"].items())
    return (f'<div class="nl2s-cards">{cards}</div>{table}'
            + (f'<p class="nl2s-muted">errors by class — {esc(errors)}</p>' if errors else ""))


@guarded("", None, frame([], VERDICT_COLUMNS), None, None)
def score(ctx: Context, gold: str, gold_file: str | None, predictions: str | None, split: str = "all",
          limit: float | None = None, progress=None):
    """Score, streaming progress: (status, summary, chart path, verdicts, Markdown report, JSON report)."""
    if gold == UPLOADED and not gold_file:
        raise api.DataError("choose a gold pool file to upload, or pick a shipped pool")
    gold_pool = gold_file if gold == UPLOADED else gold
    split_arg = None if split in (None, "", "all") else split
    out = ctx.new_dir("score")
    cap = None if limit in (None, "") else int(limit)
    if cap is not None and cap < 1:
        raise api.ConfigError("the item limit must be at least 1")

    def work(emit):
        report = lambda done, total: emit((done, total))  # noqa: E731
        if predictions:
            return api.score(gold_pool, predictions, split=split_arg, kb=ctx.kb, out=out, progress=report)
        return api.evaluate(gold_pool, translator="offline", split=split_arg, limit=cap, kb=ctx.kb, out=out,
                            progress=report)

    skip = (gr.skip(),) * 5
    yield (message("info", "Scoring…"),) + skip
    for kind, value in stream_progress(work, progress, step_of=lambda e: ("scoring items", e[0], e[1])):
        if kind == "progress":
            yield (value,) + skip
            continue
        who = "the uploaded predictions" if predictions else "the offline translator"
        notes = list(value.warnings)
        missing = value.meta.get("missing_predictions", 0)
        if predictions and missing:
            notes.append(f"{missing} gold item(s) have no prediction in the file (scored as missing)")
        kind = "warn" if predictions and missing == value.summary["n"] else "ok"
        status = message(kind, f"Scored {value.summary['n']} item(s): {who} against {gold_pool_name(gold, gold_file)}.",
                         notes)
        yield (status, summary_html(value), value.reports.get("chart"), verdicts_frame(value.items),
               value.reports.get("markdown"), value.reports.get("json"))


def gold_pool_name(gold: str, gold_file: str | None) -> str:
    """How the gold pool is named in messages."""
    return "the uploaded gold pool" if gold == UPLOADED else f"the shipped pool {gold}"


def build(ctx: Context) -> None:
    """The Score tab."""
    with gr.Tab("Score", id="score"):
        gr.Markdown("Compare predicted SPARQL with gold SPARQL by running both on the knowledge base. Upload "
                    "predictions as JSON lines `{\"id\": …, \"sparql\": …}`, or leave them out to score the "
                    "offline translator on the gold questions.")
        shipped = list(api.shipped_pools())
        with gr.Row():
            gold = gr.Dropdown([*shipped, UPLOADED], value=shipped[0] if shipped else UPLOADED, label="Gold pool",
                               elem_id="sc-gold")
            gold_file = gr.File(label="Gold pool file (.jsonl)", file_types=[".jsonl", ".json"], type="filepath",
                                elem_id="sc-gold-file", height=150)
            predictions = gr.File(label="Predictions (.jsonl, optional)", file_types=[".jsonl"], type="filepath",
                                  elem_id="sc-pred-file", height=150)
        with gr.Row(equal_height=True):
            split = gr.Dropdown(SPLITS, value="all", label="Split", min_width=120)
            limit = gr.Number(20, label="Items (offline translator only)", precision=0, min_width=160,
                              elem_id="sc-limit")
            go = gr.Button("Score", variant="primary", elem_id="sc-go", min_width=140)
        gr.Examples(EXAMPLES, inputs=[gold, split, limit], label="Example settings")
        status = gr.HTML(elem_id="sc-status")
        summary = gr.HTML(elem_id="sc-summary")
        chart = gr.Image(label="Accuracy by pattern", type="filepath", interactive=False, elem_id="sc-chart")
        verdicts = gr.Dataframe(frame([], VERDICT_COLUMNS), label="Per-item verdicts", interactive=False, wrap=True,
                                max_height=420, column_widths=["9%", "17%", "6%", "8%", "9%", "21%", "30%"],
                                elem_id="sc-verdicts")
        with gr.Row():
            report_md = download("Download the report (Markdown)", "sc-report-md")
            report_json = download("Download the report (JSON, with every query)", "sc-report-json")

        def on_score(gold, gold_file, predictions, split, limit, progress=gr.Progress()):
            yield from score(ctx, gold, gold_file, predictions, split, limit, progress)

        go.click(on_score, [gold, gold_file, predictions, split, limit],
                 [status, summary, chart, verdicts, report_md, report_json],
                 api_name="score", concurrency_limit=1)
