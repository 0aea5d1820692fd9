"""``nl2sparql ui``: serve the web UI (a Gradio app over :mod:`nl2sparql.api`).

Register with ``app.command("ui")(ui)`` in ``cli/main.py``.
"""

from __future__ import annotations

import logging
import socket
from typing import Annotated

import typer

from .common import (LLM_PANEL, EndpointOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, ServiceOpt, StoreOpt, TimeoutOpt,
                     console, fail, friendly, kb_choice, llm_settings, warn_if_exposed)


@friendly
def ui(
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to serve on.")] = 7860,
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network).")] = "127.0.0.1",
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: TimeoutOpt = 20.0,
    llm: Annotated[bool, typer.Option("--llm", rich_help_panel=LLM_PANEL,
                                      help="Offer the LLM translator too (needs a configured LLM).")] = False,
    llm_model: LLMModelOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
) -> None:
    """Start the web UI: translate, run, check, generate and score in the browser (offline; Ctrl+C stops it)."""
    from .. import api

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    warn_if_exposed(host, "use the UI and its KB")
    _check_port(host, port)
    kb = kb_choice(store, endpoint, timeout, services=service)
    settings = llm_settings(llm, llm_model, llm_base_url, llm_config)
    api.execute("ASK {}", kb=kb)  # opens the KB now, so a bad --store or --endpoint is one line, not a broken page
    # Gradio takes seconds to import: only once the options are known to be good
    from ..ui import Context, build_app, launch, warm_up

    ctx = Context(kb=kb, llm=settings)
    try:
        app = build_app(ctx)
        warm_up(ctx)
        console.print(f"nl2sparql UI on [bold]http://{host}:{port}/[/]  (knowledge base: {kb.label}; Ctrl+C stops it)",
                      highlight=False)
        try:
            launch(app, host=host, port=port, quiet=True)
        except OSError as exc:
            raise fail(f"cannot serve on {host}:{port} ({exc}); choose another --port or --host")
    finally:
        ctx.cleanup()


def _check_port(host: str, port: int) -> None:
    """Fail with one line, before loading anything, when ``host:port`` cannot be served."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise fail(f"cannot serve on {host}:{port} ({exc.strerror}); choose another --port or --host")
