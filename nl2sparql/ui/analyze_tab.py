"""Analyze: how the offline reader understands a question, without building SPARQL."""

from __future__ import annotations

from functools import partial

import gradio as gr

from .. import api
from .context import Context, guarded
from .render import esc, message, patterns_frame, slots_html

EXAMPLES = [
    ["Quali aggettivi hanno polarità positiva?"],
    ["How many senses does the word 'testa' have?"],
    ["Quali sono gli iperonimi di «cane»?"],
    ["Which Sicilian words translate 'casa'?"],
]


def _step(step) -> str:
    if not isinstance(step, dict):
        return esc(step)
    slots = ", ".join(f"{k}={v}" for k, v in (step.get("slots") or {}).items())
    return f"<code>{esc(step.get('pattern', '?'))}</code>" + (f" ({esc(slots)})" if slots else "")


def _readings(readings: list[dict]) -> str:
    """The translator's readings of the question (shape, starting word, pattern steps), best first."""
    if not readings:
        return ""
    items = []
    for r in readings:
        word = f" from the word «{esc(r['word'])}»" if r.get("word") else ""
        steps = " → ".join(_step(s) for s in r.get("steps", [])) or "no pattern step"
        items.append(f"<li>a <em>{esc(r.get('shape', '?'))}</em> answer{word}: {steps}</li>")
    return f'<div class="nl2s-plan"><strong>Readings, best first</strong><ol>{"".join(items)}</ol></div>'


@guarded("", patterns_frame({}), "")
def analyze(ctx: Context, question: str):
    """Analyze a question: (status, summary, patterns, slots)."""
    result = api.analyze(question or "")
    language = {"it": "Italian", "en": "English"}.get(result.language, result.language)
    summary = (f'<table class="nl2s-kv"><tr><th>language</th><td>{esc(language)}</td></tr>'
               f'<tr><th>answer shape</th><td>{esc(result.shape)}</td></tr>'
               f'<tr><th>complexity</th><td>{esc(result.complexity)}</td></tr></table>' + _readings(result.readings))
    status = message("ok", f"Analyzed: read as {language}, {len(result.patterns)} pattern(s) detected.")
    return status, summary, patterns_frame(result.patterns), slots_html(result.slots)


def build(ctx: Context) -> None:
    """The Analyze tab."""
    with gr.Tab("Analyze", id="analyze"):
        gr.Markdown("See which LiITA query patterns a question asks for and which words, emotions or filters "
                    "the reader picked out of it.")
        with gr.Row(equal_height=True):
            question = gr.Textbox(label="Question (Italian or English)", elem_id="an-question", scale=5)
            go = gr.Button("Analyze", variant="primary", elem_id="an-go", scale=1, min_width=140)
        gr.Examples(EXAMPLES, inputs=[question], label="Example questions")
        status = gr.HTML(elem_id="an-status")
        with gr.Row():
            summary = gr.HTML(elem_id="an-summary")
            patterns = gr.Dataframe(patterns_frame({}), label="Detected patterns", interactive=False,
                                    elem_id="an-patterns")
        gr.Markdown("**Slots**")
        slots = gr.HTML(elem_id="an-slots")
        outputs = [status, summary, patterns, slots]
        go.click(partial(analyze, ctx), [question], outputs, api_name="analyze")
        question.submit(partial(analyze, ctx), [question], outputs, api_visibility="private")
