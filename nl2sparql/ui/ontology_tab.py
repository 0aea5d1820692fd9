"""Search ontology: the LiITA classes and properties that match a description in Italian or English.

The matches are a table that fits the page (term, labels, kind, count, what it
means, as text); clicking a row shows the whole entry under it: both
descriptions, domain and range, inverse, where it lives, LiITA notes and a
usage query. In a build without ``api.search_ontology`` the tab says so and
its button is disabled.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import gradio as gr

from .. import api
from .context import Context, guarded
from .render import esc, frame, highlight_html, message, short

UNAVAILABLE = "Ontology search is not available in this build (nl2sparql.api has no search_ontology yet)."

EXAMPLES = [["the emotion a lexical entry expresses"], ["traduzione in un dialetto"], ["iperonimo"],
            ["part of speech of a lemma"]]

COLUMNS = ["#", "term", "label (en / it)", "kind", "count", "what it means"]
#: Column widths that keep the table inside the page; the meaning takes what is left and wraps.
WIDTHS = ["5%", "20%", "20%", "9%", "8%", "38%"]
NO_HITS = frame([], COLUMNS)


def search_fn():
    """The API's ontology search, or ``None`` in a build without it."""
    return getattr(api, "search_ontology", None)


def _hits(result: Any) -> list[dict]:
    """The hits of a search result: a list of dicts, or a result object/dict holding them."""
    if hasattr(result, "to_dict"):
        result = result.to_dict()
    if isinstance(result, dict):
        result = next((result[k] for k in ("hits", "results", "entries") if isinstance(result.get(k), list)), [])
    return [h.to_dict() if hasattr(h, "to_dict") else dict(h) for h in result or []]


def text(value: Any, lang: str | None = None) -> str:
    """A label or description as text: ``{"en": …, "it": …}`` becomes ``en / it`` (or the ``lang`` one)."""
    if isinstance(value, dict):
        if lang is not None:
            return str(value.get(lang) or next(iter(value.values()), ""))
        return " / ".join(str(v) for v in value.values() if v)
    return "" if value is None else str(value)


def hit_row(hit: dict) -> list[str]:
    """A hit as a table row (text only)."""
    count = hit.get("count")
    return [str(hit.get("rank", "")), text(hit.get("curie")), text(hit.get("label")), text(hit.get("kind")),
            "—" if count is None else f"{count:,}", short(text(hit.get("description"), "en"), 240)]


def term_html(hit: dict | None) -> str:
    """The whole entry of one hit, as a person reads it."""
    if not hit:
        return '<p class="nl2s-muted">Click a row to see the whole entry.</p>'
    facts = [(name, text(hit.get(key))) for name, key in (("kind", "kind"), ("domain", "domain"), ("range", "range"),
                                                          ("inverse", "inverse"), ("parent", "parent"),
                                                          ("where", "placement"))]
    if hit.get("count") is not None:
        facts.append(("count", f"{hit['count']:,} in this knowledge base"))
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts if v)
    notes = "".join(f"<li>{esc(n)}</li>" for n in hit.get("notes") or [])
    description = hit.get("description")
    described = (f"<p>{esc(text(description, 'en'))}</p><p class=\"nl2s-muted\">{esc(text(description, 'it'))}</p>"
                 if isinstance(description, dict) else f"<p>{esc(text(description))}</p>")
    usage = hit.get("usage")
    return (f'<div class="nl2s-term"><h3>{esc(text(hit.get("curie")))} · {esc(text(hit.get("label")))}</h3>'
            f'<div class="nl2s-iri">{esc(text(hit.get("iri")))}</div>{described}'
            f'<table class="nl2s-kv">{rows}</table>'
            + (f"<strong>Notes</strong><ul>{notes}</ul>" if notes else "")
            + (f"<strong>Usage</strong>{highlight_html(usage)}" if usage else "") + "</div>")


@guarded(NO_HITS, [], term_html(None))
def search(ctx: Context, query: str, k: float = 5):
    """Search the ontology: (status, table of hits, the hits, the first hit in full)."""
    run = search_fn()
    if run is None:
        raise api.ConfigError(UNAVAILABLE)
    hits = _hits(run(query or "", k=int(k or 5), kb=ctx.kb))
    status = message("ok", f"{len(hits)} match(es); click a row to see the whole entry.")
    return status, frame([hit_row(h) for h in hits], COLUMNS), hits, term_html(hits[0] if hits else None)


def show(hits: list | None, evt: gr.SelectData) -> str:
    """The whole entry of the clicked row."""
    row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
    ok = hits and isinstance(row, int) and 0 <= row < len(hits)
    return term_html(hits[row] if ok else None)


def build(ctx: Context) -> None:
    """The Search ontology tab."""
    available = search_fn() is not None
    with gr.Tab("Search ontology", id="ontology"):
        gr.Markdown("Describe a class or a property in your own words and find the LiITA terms that match, "
                    "with how often they occur in the knowledge base.")
        if not available:
            gr.HTML(message("warn", UNAVAILABLE), elem_id="on-unavailable")
        with gr.Row(equal_height=True):
            query = gr.Textbox(label="Description", elem_id="on-query", scale=5, interactive=available)
            k = gr.Slider(1, 20, value=5, step=1, label="How many", scale=1, min_width=200)
            go = gr.Button("Search", variant="primary", elem_id="on-go", scale=1, min_width=120,
                           interactive=available)
        gr.Examples(EXAMPLES, inputs=[query], label="Example descriptions")
        status = gr.HTML(elem_id="on-status")
        table = gr.Dataframe(NO_HITS, interactive=False, wrap=True, label="Matching terms", elem_id="on-table",
                             column_widths=WIDTHS)
        found = gr.State([])
        entry = gr.HTML(term_html(None), elem_id="on-entry")
        go.click(partial(search, ctx), [query, k], [status, table, found, entry], api_name="search_ontology")
        query.submit(partial(search, ctx), [query, k], [status, table, found, entry], api_visibility="private")
        table.select(show, [found], [entry], api_visibility="private")
