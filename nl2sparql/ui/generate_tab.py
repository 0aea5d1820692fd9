"""Generate: grow a validated pool on the app's KB, watch its progress, then browse and download it.

Each run writes into its own folder under the app's work folder (a temporary directory).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import gradio as gr
import pandas as pd

from .. import api
from .context import Context, guarded
from .progress import stream_progress
from .render import frame, message
from .widgets import download, selected_sparql

MAX_TARGET = 2000
GENERATED = "the pool just generated"
COUNT_COLUMNS = ["outcome", "reason", "items", "what it means"]
#: Plain words for the pipeline's usual rejection reasons (others are shown by name only).
REASONS = {
    "over_target": "passed every check, but the target was already reached",
    "duplicate_query": "the same query as an earlier candidate",
    "duplicate_answer": "the same answer and patterns as an earlier candidate",
    "duplicate_question": "the same question as an earlier candidate",
    "slow_scan": "would start from a very large scan of the KB (drawn less often)",
    "empty": "returns no rows on this KB",
    "oversized": "returns too many rows to be a useful answer",
    "degenerate": "returns an answer with nothing to learn from",
    "timeout": "ran past its time budget",
    "parse": "does not parse",
    "execution": "failed on the KB",
}
BROWSE_COLUMNS = ["id", "question (IT)", "question (EN)", "patterns", "difficulty", "split", "rows"]

EXAMPLES = [[20, 1, []], [50, 7, ["EMOTION_LEXICON", "POS_FILTER"]], [30, 3, ["TRANSLATION"]]]


def counts_frame(result) -> pd.DataFrame:
    """Kept items and rejected candidates by reason."""
    rows = [["kept", "—", result.kept, "passed every check"]]
    rows += [["rejected", reason, n, REASONS.get(reason, "")]
             for reason, n in sorted(result.rejected.items(), key=lambda kv: -kv[1])]
    return frame(rows, COUNT_COLUMNS)


def coverage_frame(stats: dict) -> pd.DataFrame:
    """Items per pattern label (for the coverage chart)."""
    return pd.DataFrame({"pattern": list(stats["labels"]), "items": list(stats["labels"].values())})


@guarded(frame([], COUNT_COLUMNS), None, frame([], BROWSE_COLUMNS), [], None, None, None)
def generate(ctx: Context, target: float, seed: float, patterns: list[str] | None, progress=None):
    """Run the generation pipeline, streaming progress.

    Returns (status, counts, coverage, pool table, its SPARQL, pool path, manifest path, pool path for browsing).
    """
    target = int(target or 0)
    if not 1 <= target <= MAX_TARGET:
        raise api.ConfigError(f"the target must be between 1 and {MAX_TARGET} examples")
    folder = ctx.new_dir("pool")
    out = folder / "pool.jsonl"

    def work(emit):
        return api.generate(target, seed=int(seed or 0), patterns=patterns or None, out=out, kb=ctx.kb,
                            cache_dir=folder / "steps", progress=lambda step, done, total: emit((step, done, total)))

    skip = (gr.skip(),) * 7
    yield (message("info", "Starting the pipeline…"),) + skip
    for kind, value in stream_progress(work, progress):
        if kind == "progress":
            yield (value,) + skip
            continue
        result = value
        status = message("ok", f"Kept {result.kept} of the {result.target} asked for in {result.seconds:.1f} s; "
                               f"{result.executed} candidate queries were executed.",
                         [f"missing patterns: {', '.join(result.stats['missing_labels'])}"]
                         if result.stats["missing_labels"] else [])
        table, queries = pool_table(str(out), "")
        yield (status, counts_frame(result), coverage_frame(result.stats), table, queries, str(out), result.manifest,
               str(out))


def pool_table(pool: str, text: str) -> tuple[pd.DataFrame, list[str]]:
    """The pool's items whose id, questions or patterns contain ``text`` (first 500), and their SPARQL."""
    needle = (text or "").strip().lower()
    rows, queries = [], []
    for item in api.pool_items(pool):
        labels = ", ".join(item.get("patterns") or {})
        row = [item.get("id", ""), item.get("nl", ""), item.get("nl_en", ""), labels, item.get("difficulty", ""),
               item.get("split", ""), item.get("result_count", "")]
        if needle and needle not in " ".join(str(c) for c in row[:4]).lower():
            continue
        rows.append(row)
        queries.append(item.get("sparql", ""))
        if len(rows) == 500:
            break
    return frame(rows, BROWSE_COLUMNS), queries


@guarded(frame([], BROWSE_COLUMNS), [])
def browse(ctx: Context, which: str, generated: str | None, text: str = ""):
    """Browse a pool (the one just generated, or a shipped one): (status, table, SPARQL per row)."""
    if which == GENERATED:
        if not generated or not Path(generated).is_file():
            raise api.DataError("no pool generated yet in this session: press Generate first")
        pool = generated
    else:
        pool = which
    table, queries = pool_table(pool, text)
    shown = f"{len(queries)} item(s)" + (f" matching «{text.strip()}»" if (text or "").strip() else "")
    return message("info", f"{shown}; click a row to see its SPARQL."), table, queries


def build(ctx: Context) -> None:
    """The Generate tab."""
    with gr.Tab("Generate", id="generate"):
        gr.Markdown("Grow a pool of validated question/SPARQL pairs from the knowledge base: sample it, compose "
                    "queries from the pattern catalogue, keep only those that run with useful answers, write "
                    "Italian and English questions. The same seed gives the same pool.")
        with gr.Row(equal_height=True):
            target = gr.Number(30, label="Examples to keep", precision=0,
                               elem_id="gen-target", min_width=140)
            seed = gr.Number(1, label="Seed", precision=0, elem_id="gen-seed", min_width=120)
            patterns = gr.Dropdown(api.pattern_labels(), multiselect=True, label="Only these patterns (optional)",
                                   elem_id="gen-patterns", scale=3)
            go = gr.Button("Generate", variant="primary", elem_id="gen-go", min_width=140)
        gr.Examples(EXAMPLES, inputs=[target, seed, patterns], label="Example settings")
        status = gr.HTML(elem_id="gen-status")
        counts = gr.Dataframe(frame([], COUNT_COLUMNS), label="Kept and rejected", interactive=False, wrap=True,
                              column_widths=["12%", "20%", "8%", "60%"], elem_id="gen-counts")
        coverage = gr.BarPlot(x="pattern", y="items", label="Pattern coverage (items per pattern label)",
                              elem_id="gen-coverage", sort=api.pattern_labels(), x_label_angle=-35, height=340,
                              y_lim=[0, None])
        with gr.Row():
            pool_file = download("Download the pool (JSONL)", "gen-pool-file")
            manifest = download("Download the manifest (JSON)", "gen-manifest")
        generated = gr.State(None)
        gr.Markdown("### Browse a pool")
        with gr.Row(equal_height=True):
            which = gr.Dropdown([GENERATED, *api.shipped_pools()], value=GENERATED, label="Pool", min_width=220)
            text = gr.Textbox(label="Filter (id, question or pattern)", elem_id="gen-filter", scale=3)
            show = gr.Button("Show", elem_id="gen-show", min_width=100)
        browse_status = gr.HTML(elem_id="gen-browse-status")
        table = gr.Dataframe(frame([], BROWSE_COLUMNS), interactive=False, wrap=True, max_height=420,
                             column_widths=["9%", "30%", "30%", "15%", "6%", "5%", "5%"], elem_id="gen-table")
        sparql = gr.HTML(elem_id="gen-sparql")
        queries = gr.State([])

        def on_generate(target, seed, patterns, progress=gr.Progress()):
            yield from generate(ctx, target, seed, patterns, progress)

        on_browse = partial(browse, ctx)

        go.click(on_generate, [target, seed, patterns],
                 [status, counts, coverage, table, queries, pool_file, manifest, generated],
                 api_name="generate", concurrency_limit=1)
        show.click(on_browse, [which, generated, text], [browse_status, table, queries], api_name="browse")
        text.submit(on_browse, [which, generated, text], [browse_status, table, queries], api_visibility="private")
        table.select(selected_sparql, [queries], [sparql], api_visibility="private")
