"""Pieces every command shares: the console, KB selection options and error reporting.

One way to choose the KB everywhere: ``--store DIR`` | ``--endpoint URL`` |
the embedded sample (default); the same through ``NL2SPARQL_STORE`` /
``NL2SPARQL_ENDPOINT``.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated, Callable, List, Optional

import typer
from rich.console import Console

from ..errors import Nl2SparqlError
from ..fileio import AGAIN, no_space

console = Console()
err_console = Console(stderr=True)

StoreOpt = Annotated[Optional[Path], typer.Option(
    "--store", envvar="NL2SPARQL_STORE", help="On-disk Oxigraph store directory (from `kb load`).",
    show_default=False)]
EndpointOpt = Annotated[Optional[str], typer.Option(
    "--endpoint", envvar="NL2SPARQL_ENDPOINT", help="Remote SPARQL endpoint URL, e.g. https://liita.it/sparql.",
    show_default=False)]
TimeoutOpt = Annotated[float, typer.Option("--timeout", help="Per-query time budget in seconds.")]
ServiceOpt = Annotated[Optional[List[str]], typer.Option(
    "--service", help="Service map entry IRI=graph (answer from that graph) or IRI=URL (the endpoint calls URL "
    "instead); repeatable; else NL2SPARQL_SERVICES. Unmapped SERVICE targets are refused.", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
LLMModelOpt = Annotated[Optional[str], typer.Option(
    "--llm-model", help="LLM model (else NL2SPARQL_LLM_MODEL).", show_default=False)]
LLMBaseUrlOpt = Annotated[Optional[str], typer.Option(
    "--llm-base-url", help="OpenAI-compatible server, e.g. http://localhost:8000/v1 (else OPENAI_BASE_URL).",
    show_default=False)]
LLMConfigOpt = Annotated[Optional[Path], typer.Option(
    "--llm-config", help="LLM settings file (TOML).", show_default=False)]


def kb_choice(store: Optional[Path], endpoint: Optional[str], timeout: float | None = None,
              max_rows: int | None = None, workers: int = 1, services: Optional[List[str]] = None):
    """The :class:`~nl2sparql.api.KBChoice` of ``--store`` / ``--endpoint`` / ``--service`` (the sample with neither)."""
    from ..api import KBChoice
    return KBChoice(store=str(store) if store else None, endpoint=endpoint, timeout=timeout,
                    max_rows=max_rows, workers=workers, services=tuple(services) if services else None)


def fail(message: str, code: int = 2) -> "typer.Exit":
    """Print one clear error line and return the exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def friendly(func: Callable) -> Callable:
    """Turn project errors (and a few OS errors) into one clear line and exit status 2."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Nl2SparqlError as exc:
            raise fail(str(exc))
        except FileNotFoundError as exc:
            raise fail(f"file not found: {exc.filename} (check the path)")
        except PermissionError as exc:
            raise fail(f"permission denied: {exc.filename}")
        except OSError as exc:
            if not no_space(exc):
                raise
            raise fail(f"no space left on the device while writing {exc.filename or 'a file'}; nothing written "
                       f"before was lost: {AGAIN}")
        except KeyboardInterrupt:
            raise fail("interrupted", code=130)
    return wrapper


def warn_if_exposed(host: str, what: str) -> None:
    """Warn on stderr when ``host`` is not a loopback address: anyone who reaches it may ``what`` (no login)."""
    import ipaddress

    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    err_console.print(f"[yellow]warning:[/] listening on {host}: anyone who can reach it may {what} (there is no "
                      "authentication)", highlight=False)


def print_json(obj) -> None:
    """Write JSON to stdout (no rich markup, so machines can read it)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")
