"""Search ontology: the LiITA classes and properties that match a description in Italian or English.

In a build without ``api.search_ontology`` the tab says so and its button is disabled.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import gradio as gr

from .. import api
from .context import Context, guarded
from .render import NO_RESULTS, frame, message, short

UNAVAILABLE = "Ontology search is not available in this build (nl2sparql.api has no search_ontology yet)."

EXAMPLES = [["the emotion a lexical entry expresses"], ["traduzione in un dialetto"], ["iperonimo"],
            ["part of speech of a lemma"]]

#: Columns shown, in order, when a hit has them.
COLUMNS = ("rank", "score", "curie", "kind", "label", "label_it", "label_en", "description", "count")


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


@guarded(NO_RESULTS)
def search(ctx: Context, query: str, k: float = 5):
    """Search the ontology: (status, table of hits)."""
    run = search_fn()
    if run is None:
        raise api.ConfigError(UNAVAILABLE)
    hits = _hits(run(query or "", k=int(k or 5), kb=ctx.kb))
    columns = [c for c in COLUMNS if any(c in h for h in hits)] or ["result"]
    if columns == ["result"]:
        rows = [[short(h)] for h in hits]
    else:
        rows = [["" if h.get(c) is None else short(h[c], 300) for c in columns] for h in hits]
    return message("ok", f"{len(hits)} match(es)."), frame(rows, columns)


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
        table = gr.Dataframe(NO_RESULTS, interactive=False, wrap=True, label="Matching terms", elem_id="on-table")
        go.click(partial(search, ctx), [query, k], [status, table], api_name="search_ontology")
