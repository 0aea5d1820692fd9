"""Retrieve examples: the pool examples most similar to a question, with their SPARQL."""

from __future__ import annotations

from functools import partial

import gradio as gr

from .. import api
from .context import Context, guarded
from .render import frame, message
from .widgets import selected_sparql

ALL_POOLS = "all shipped pools"
COLUMNS = ["rank", "score", "id", "question", "patterns"]

EXAMPLES = [["sinonimi di paura"], ["Which emotions does the word 'nostalgia' convey?"], ["traduzione in siciliano"]]


@guarded(frame([], COLUMNS), [])
def retrieve(ctx: Context, question: str, k: float = 5, pool: str = ALL_POOLS):
    """The ``k`` nearest examples: (status, table, their SPARQL queries in rank order)."""
    pools = None if not pool or pool == ALL_POOLS else [pool]
    result = api.retrieve(question or "", k=int(k or 5), pools=pools)
    status = message("ok", f"{len(result.examples)} of {result.pool_size} examples; click a row to see its SPARQL.",
                     result.warnings)
    table = frame([[e.rank, f"{e.score:.3f}", e.id, e.question, ", ".join(e.patterns)] for e in result.examples],
                  COLUMNS)
    return status, table, [e.sparql for e in result.examples]


def build(ctx: Context) -> None:
    """The Retrieve examples tab."""
    with gr.Tab("Retrieve examples", id="retrieve"):
        gr.Markdown("Find the examples in the pools that are closest to a question (meaning, words and "
                    "patterns). The translator uses them as models.")
        with gr.Row(equal_height=True):
            question = gr.Textbox(label="Question", elem_id="re-question", scale=4)
            k = gr.Slider(1, 20, value=5, step=1, label="How many", scale=1, min_width=200)
            pool = gr.Dropdown([ALL_POOLS, *api.shipped_pools()], value=ALL_POOLS, label="Pool", scale=1,
                               min_width=220)
            go = gr.Button("Retrieve", variant="primary", elem_id="re-go", scale=1, min_width=120)
        gr.Examples(EXAMPLES, inputs=[question], label="Example questions")
        status = gr.HTML(elem_id="re-status")
        table = gr.Dataframe(frame([], COLUMNS), interactive=False, wrap=True, label="Nearest examples",
                             column_widths=["6%", "8%", "13%", "48%", "25%"], elem_id="re-table")
        sparql = gr.HTML(elem_id="re-sparql")
        queries = gr.State([])
        go.click(partial(retrieve, ctx), [question, k, pool], [status, table, queries],
                 api_name="retrieve")
        question.submit(partial(retrieve, ctx), [question, k, pool], [status, table, queries],
                        api_visibility="private")
        table.select(selected_sparql, [queries], [sparql], api_visibility="private")
