"""Translate: a question in Italian or English becomes LiITA SPARQL, checked and run on the KB.

The SPARQL stays editable: run the edited query or check it against the LiITA rules.
"""

from __future__ import annotations

from functools import partial

import gradio as gr

from .. import api
from .context import Context, guarded
from .execute_tab import run_query
from .render import (NO_RESULTS, frame, highlight_html, issues_html, message, patterns_frame, plan_html,
                     rows_caption, rows_files, rows_frame, slots_html)
from .widgets import results_block

EXAMPLES = [
    ["Quali sostantivi esprimono paura?"],
    ["Which adjectives express joy?"],
    ["Come si dice «casa» in parmigiano?"],
    ["How do you say 'cane' in Sicilian?"],
    ["Quali sono i sinonimi di «casa»?"],
    ["Quanti sensi ha la parola «testa»?"],
    ["What does the word 'gioia' mean?"],
    ["Quali lemmi finiscono in -zione?"],
]

SIMILAR_COLUMNS = ["id", "score", "example question", "patterns"]


@guarded("", patterns_frame({}), "", "", "", NO_RESULTS, None, None, frame([], SIMILAR_COLUMNS))
def translate(ctx: Context, question: str, mode: str = "offline", execute: bool = True):
    """Translate and (with ``execute``) run.

    Returns (status, SPARQL, patterns, slots, checks, caption, rows, CSV path, JSON path, similar examples).
    """
    if mode == "llm" and ctx.llm is None:
        raise api.ConfigError("the LLM translator is off in this app (start it with `nl2sparql ui --llm`)")
    llm = ctx.llm if mode == "llm" else None
    result = api.translate(question or "", mode=mode, execute=execute, kb=ctx.kb, llm=llm)
    if result.off_topic:
        return (message("warn", result.off_topic), "", patterns_frame({}), "", "", "", NO_RESULTS, None, None,
                frame([], SIMILAR_COLUMNS))
    how = f"{result.mode}, {result.source}, confidence {result.confidence:.2f}"
    status = message("ok", f"Translated in {result.elapsed_ms:.0f} ms ({how})", result.notes + result.warnings)
    checks = issues_html(result.issues, result.fixes)
    answer = ("", NO_RESULTS, None, None)
    if result.rows is not None:
        answer = (rows_caption(result.rows), rows_frame(result.rows)) + rows_files(result.rows, ctx.new_dir("rows"))
    similar = frame([[e.get("id", ""), f"{e.get('score', 0):.3f}", e.get("question", ""),
                      ", ".join(e.get("patterns", []))] for e in result.examples],
                    SIMILAR_COLUMNS)
    return (status, result.sparql, patterns_frame(result.patterns), slots_html(result.slots) + plan_html(result.slots),
            checks) + answer + (similar,)


@guarded("")
def check(ctx: Context, query: str):
    """Validate an edited query on the KB: (status, issues)."""
    result = api.validate(query or "", kb=ctx.kb, execute=True)
    status = message("ok" if result.ok else "warn",
                     "The query passes the LiITA checks." if result.ok else "The query breaks a LiITA rule; see below.")
    return status, issues_html(result.issues)


def build(ctx: Context) -> None:
    """The Translate tab."""
    with gr.Tab("Translate", id="translate"):
        with gr.Row(equal_height=True):
            question = gr.Textbox(label="Your question (Italian or English)", elem_id="tr-question", scale=5,
                                  placeholder="e.g. Quali sostantivi esprimono paura?", lines=1, max_lines=3)
            mode = gr.Radio(["offline", "llm"], value="offline", label="Translator", visible=ctx.llm is not None,
                            scale=1, min_width=160)
            go = gr.Button("Translate", variant="primary", elem_id="tr-go", scale=1, min_width=140)
        gr.Examples(EXAMPLES, inputs=[question], label="Example questions (click one, then Translate)")
        status = gr.HTML(elem_id="tr-status")
        with gr.Row():
            with gr.Column(scale=3):
                with gr.Tabs():
                    with gr.Tab("SPARQL", id="tr-read"):
                        view = gr.HTML(highlight_html("", "The SPARQL query appears here."), elem_id="tr-view")
                    with gr.Tab("Edit", id="tr-edit"):
                        sparql = gr.Code(language=None, interactive=True, lines=12, label="SPARQL (editable)",
                                         elem_id="tr-sparql")
                with gr.Row():
                    rerun = gr.Button("Run the edited query", elem_id="tr-rerun", size="sm")
                    recheck = gr.Button("Check the edited query", elem_id="tr-recheck", size="sm")
            with gr.Column(scale=2):
                patterns = gr.Dataframe(patterns_frame({}), label="Detected patterns", interactive=False,
                                        elem_id="tr-patterns", max_height=220)
                gr.Markdown("**Slots** (what the reader understood)")
                slots = gr.HTML(elem_id="tr-slots")
                gr.Markdown("**Validation**")
                checks = gr.HTML(elem_id="tr-checks")
        caption, table, csv, json = results_block("tr")
        with gr.Accordion("Similar examples from the pools", open=False):
            similar = gr.Dataframe(frame([], SIMILAR_COLUMNS), interactive=False, wrap=True, elem_id="tr-similar")
        outputs = [status, sparql, patterns, slots, checks, caption, table, csv, json, similar]
        go.click(partial(translate, ctx), [question, mode], outputs, api_name="translate")
        question.submit(partial(translate, ctx), [question, mode], outputs, api_visibility="private")
        sparql.change(highlight_html, [sparql], [view], api_visibility="private", show_progress="hidden")
        rerun.click(partial(run_query, ctx), [sparql], [status, caption, table, csv, json],
                    api_visibility="private")
        recheck.click(partial(check, ctx), [sparql], [status, checks], api_name="check")
