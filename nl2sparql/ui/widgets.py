"""Page pieces several tabs use: the result block, download buttons, and 'show the clicked row's SPARQL'."""

from __future__ import annotations

import gradio as gr

from .render import NO_RESULTS, highlight_html


def download(label: str, elem_id: str) -> gr.DownloadButton:
    """A compact download button; a handler gives it its file by returning the path."""
    return gr.DownloadButton(label, value=None, size="sm", variant="secondary", elem_id=elem_id,
                             min_width=max(140, 9 * len(label)), scale=0)


def results_block(prefix: str, downloads: bool = True) -> tuple:
    """A caption line, the result table and (with ``downloads``) CSV and JSON buttons; ids start with ``prefix``."""
    caption = gr.HTML(elem_id=f"{prefix}-caption")
    table = gr.Dataframe(NO_RESULTS, label="Results", interactive=False, wrap=True, elem_id=f"{prefix}-table")
    if not downloads:
        return caption, table
    with gr.Row():
        csv = download("Download CSV", f"{prefix}-csv")
        json = download("Download JSON", f"{prefix}-json")
    return caption, table, csv, json


def selected_sparql(queries: list | None, evt: gr.SelectData) -> str:
    """The highlighted SPARQL of the clicked table row (empty when out of range)."""
    row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
    ok = queries and isinstance(row, int) and 0 <= row < len(queries)
    return highlight_html(queries[row]) if ok else ""
