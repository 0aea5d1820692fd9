"""The Gradio app: one tab per task, all standing on :mod:`nl2sparql.api`, served on 127.0.0.1 by default.

It works offline: Gradio's analytics and version check are off, the theme
uses the visitor's system fonts, server-side rendering (Node) and the MCP
server are off, and the footer has no link that loads anything.
"""

from __future__ import annotations

import logging
import threading

import gradio as gr

from .. import api
from . import (agent_tab, analyze_tab, execute_tab, fix_tab, generate_tab, ontology_tab, retrieve_tab, score_tab,
               translate_tab)
from .context import Context
from .render import esc
from .style import CSS, theme

log = logging.getLogger("nl2sparql.ui")

#: The largest file a visitor may upload (gold pools and predictions for the Score tab).
MAX_UPLOAD = "100mb"

TABS = (translate_tab, agent_tab, analyze_tab, retrieve_tab, ontology_tab, execute_tab, fix_tab, generate_tab,
        score_tab)


def _header(ctx: Context) -> str:
    llm = " · LLM translator available" if ctx.llm is not None else ""
    return (f'<div class="nl2s-header"><h1>nl2sparql</h1>'
            f"<p>Ask LiITA (Linking Italian) in Italian or English, see the SPARQL, check it and run it. "
            f'<span class="nl2s-kb" id="kb-label">knowledge base: {esc(ctx.kb.label)}</span>{esc(llm)}</p></div>')


def build_app(ctx: Context | None = None) -> gr.Blocks:
    """The app's Blocks for ``ctx`` (default: the environment's KB, no LLM)."""
    ctx = ctx or Context(kb=api.KBChoice.from_env())
    with gr.Blocks(title="nl2sparql · LiITA", analytics_enabled=False) as app:
        gr.HTML(_header(ctx))
        with gr.Tabs(elem_id="tabs"):
            for tab in TABS:
                tab.build(ctx)
    app.nl2sparql_context = ctx
    return app


def warm_up(ctx: Context) -> threading.Thread:
    """Open the KB, load the retrieval index and the KB's concept index in the background, so the first click
    is fast (an English word is mapped to the KB's lemmas: the lexicon and its embeddings are loaded)."""
    def work():
        try:
            api.translate("Quali sostantivi esprimono paura?", execute=True, kb=ctx.kb)
            api.translate("What is the Sicilian word for 'house'?", kb=ctx.kb)
        except Exception:  # noqa: BLE001 - a failed warm-up only costs the first click its speed
            log.warning("warm-up failed; the first request will open the knowledge base", exc_info=True)
    thread = threading.Thread(target=work, name="nl2sparql-ui-warm-up", daemon=True)
    thread.start()
    return thread


def launch(app: gr.Blocks, *, host: str = "127.0.0.1", port: int = 7860, block: bool = True, quiet: bool = False):
    """Serve ``app`` on ``host:port`` with every outside call turned off; returns Gradio's ``(app, url, share)``."""
    ctx: Context = app.nl2sparql_context
    app.queue(default_concurrency_limit=2)
    return app.launch(server_name=host, server_port=port, share=False, prevent_thread_lock=not block, quiet=quiet,
                      show_error=False, ssr_mode=False, mcp_server=False, pwa=False, footer_links=[],
                      allowed_paths=[str(ctx.workdir)], max_file_size=MAX_UPLOAD, theme=theme(), css=CSS,
                      enable_monitoring=False)
