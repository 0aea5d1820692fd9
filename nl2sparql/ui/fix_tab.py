"""Fix query: a query before and after every safe fix, with the list of fixes and the issues left."""

from __future__ import annotations

from functools import partial

import gradio as gr

from .. import api
from .context import Context, guarded
from .render import highlight_html, issues_html, message

EXAMPLES = [
    ['SELECT ?lemma WHERE {\n  ?lemma ontolex:writtenRep "cane" .\n}'],
    ["PREFIX elita: <http://w3id.org/elita#>\nSELECT ?e WHERE { ?x elita:HasEmotion ?e }"],
    ["SELECT ?pos COUNT(?lemma) AS ?n WHERE {\n  ?lemma lila:hasPOS ?pos .\n}"],
]
LABELS = ["A word without its language tag", "A wrong ELITA prefix IRI", "A Virtuoso-style COUNT"]


@guarded("", "", "", "")
def fix(ctx: Context, query: str, execute: bool = False):
    """Fix a query: (status, before, after, the fixes applied, the issues left)."""
    result = api.fix(query or "", kb=ctx.kb, execute=bool(execute))
    applied = f"{len(result.fixes)} fix{'es' if len(result.fixes) != 1 else ''} applied" if result.changed \
        else "Nothing to fix automatically"
    errors = sum(1 for issue in result.issues_after if issue.severity == "error")
    if errors:
        status = message("warn", f"{applied}; {errors} problem(s) need a hand edit (see the issues left).")
    else:
        status = message("ok" if result.changed else "info", f"{applied}.")
    left = issues_html(result.issues_after, ok_text="No LiITA rule is broken after the fixes.")
    fixes = issues_html([], result.fixes, ok_text="No fix was needed.")
    return status, highlight_html(result.query), highlight_html(result.fixed), fixes, left


def build(ctx: Context) -> None:
    """The Fix query tab."""
    with gr.Tab("Fix query", id="fix"):
        gr.Markdown("Apply every safe fix to a query: exact LiITA prefix IRIs, the ELITA graph IRI, `STR()` around "
                    "language-tagged values, missing PREFIX lines, Virtuoso-style projections.")
        query = gr.Code(EXAMPLES[0][0], language=None, interactive=True, lines=8, label="Query to fix",
                        elem_id="fx-query")
        with gr.Row():
            go = gr.Button("Fix", variant="primary", elem_id="fx-go", scale=0, min_width=140)
            execute = gr.Checkbox(label="Also run it on the knowledge base (empty answers get hints)", value=False)
        gr.Examples(EXAMPLES, inputs=[query], example_labels=LABELS, label="Example queries with problems")
        status = gr.HTML(elem_id="fx-status")
        with gr.Row():
            with gr.Column():
                gr.Markdown("**Before**")
                before = gr.HTML(elem_id="fx-before")
            with gr.Column():
                gr.Markdown("**After**")
                after = gr.HTML(elem_id="fx-after")
        with gr.Row():
            with gr.Column():
                gr.Markdown("**Fixes applied**")
                fixes = gr.HTML(elem_id="fx-fixes")
            with gr.Column():
                gr.Markdown("**Issues left**")
                left = gr.HTML(elem_id="fx-left")
        go.click(partial(fix, ctx), [query, execute], [status, before, after, fixes, left], api_name="fix")
