"""Execute SPARQL: an editable query, the result table, and the answer as CSV and JSON files.

The API refuses SPARQL Update, so nothing typed here can change the KB.
"""

from __future__ import annotations

from functools import partial

import gradio as gr

from .. import api
from .context import Context, guarded
from .render import NO_RESULTS, rows_caption, rows_files, rows_frame
from .widgets import results_block

EXAMPLES = [
    ["SELECT ?emotion ?label WHERE {\n  ?emotion a elita:Emotion ;\n"
     "           rdfs:label ?label .\n}\nORDER BY ?label"],
    ["SELECT ?wr WHERE {\n  ?lemma a lila:Lemma ;\n         lila:hasPOS lila:adjective ;\n"
     "         ontolex:writtenRep ?wr .\n}\nORDER BY ?wr\nLIMIT 20"],
    ["SELECT ?g (COUNT(*) AS ?triples) WHERE {\n  GRAPH ?g { ?s ?p ?o }\n}\nGROUP BY ?g\nORDER BY DESC(?triples)"],
    ["ASK { ?lemma ontolex:writtenRep \"casa\"@it }"],
]
LABELS = ["The ELITA emotions", "20 adjectives", "Triples in each graph", "Is «casa» a written form? (ASK)"]


@guarded("", NO_RESULTS, None, None)
def run_query(ctx: Context, query: str, max_rows: float | None = None):
    """Execute ``query`` on the app's KB: (status, caption, table, CSV path, JSON path)."""
    cap = None if max_rows in (None, "") else int(max_rows)
    if cap is not None and cap < 1:
        raise api.ConfigError("the row cap must be at least 1")
    rows = api.execute(query or "", kb=ctx.kb, max_rows=cap)
    return ("", rows_caption(rows), rows_frame(rows)) + rows_files(rows, ctx.new_dir("rows"))


def build(ctx: Context) -> None:
    """The Execute SPARQL tab."""
    with gr.Tab("Execute SPARQL", id="execute"):
        gr.Markdown("Run a read-only query (SELECT, ASK, CONSTRUCT or DESCRIBE) on the knowledge base. "
                    "Standard LiITA prefixes are added when missing; updates are refused.")
        query = gr.Code(EXAMPLES[0][0], language=None, interactive=True, lines=10, label="SPARQL query",
                        elem_id="exec-query")
        gr.Examples(EXAMPLES, inputs=[query], example_labels=LABELS, label="Example queries")
        with gr.Row():
            cap = gr.Number(label="Row cap", value=1000, precision=0, scale=0, min_width=140,
                            elem_id="exec-cap")
            run = gr.Button("Run query", variant="primary", elem_id="exec-run", scale=0, min_width=180)
        status = gr.HTML(elem_id="exec-status")
        caption, table, csv, json = results_block("exec")
        run.click(partial(run_query, ctx), [query, cap], [status, caption, table, csv, json],
                  api_name="execute")
