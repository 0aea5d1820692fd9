"""What the MCP server was started with, and what a client host needs to start it.

:class:`ServerConfig` holds the KB choice, the per-query limits, the default
translation mode and the LLM settings (flags; the environment and the TOML
file fill in the rest through :func:`nl2sparql.api.llm_config`, exactly as in
the CLI). :meth:`ServerConfig.effective` is the ``liita://config`` resource:
it never holds a secret. :func:`desktop_config` is what ``nl2sparql mcp
config`` prints.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .. import api

#: Upper bounds a client may ask for (the server's own limits may be lower).
MAX_ROWS_CAP = 1000
#: Rows returned when the client does not say.
DEFAULT_ROWS = 50
#: The default port of ``--transport http``.
DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerConfig:
    """The server's settings: the KB, query limits, default translation mode and LLM flags.

    ``kb`` carries the per-query time budget (``kb.timeout``, seconds) that
    caps what a tool call may ask for. ``max_rows`` caps the rows one call
    returns. ``mode`` is the default of ``translate`` (``offline`` or
    ``llm``). ``llm`` holds the explicit LLM flags (``model``, ``base_url``,
    ``config_file``); unset ones come from the environment and config file.
    """

    kb: api.KBChoice = field(default_factory=lambda: api.KBChoice(timeout=api.DEFAULT_TIMEOUT))
    max_rows: int = MAX_ROWS_CAP
    mode: str = "offline"
    llm: dict = field(default_factory=dict)
    embedder: str | None = None

    def __post_init__(self):
        if self.mode not in api.MODES:
            raise api.ConfigError(f"unknown translation mode {self.mode!r} (use offline or llm)")
        if not 1 <= self.max_rows <= MAX_ROWS_CAP:
            raise api.ConfigError(f"max rows must be between 1 and {MAX_ROWS_CAP}, got {self.max_rows}")
        if self.kb.timeout is not None and not self.kb.timeout > 0:
            raise api.ConfigError(f"the query timeout must be positive, got {self.kb.timeout}")

    @property
    def answer_rows(self) -> int:
        """The rows a translation or an agent run returns with its query: the same cap for both."""
        return min(DEFAULT_ROWS, self.max_rows)

    @property
    def timeout(self) -> float:
        """The longest time budget (seconds) one query may get."""
        return self.kb.timeout if self.kb.timeout is not None else api.DEFAULT_TIMEOUT

    def llm_settings(self):
        """The resolved :class:`~nl2sparql.llm.LLMConfig` (a one-line ConfigError when no LLM is configured)."""
        return api.llm_config(**{k: v for k, v in self.llm.items() if v is not None})

    def effective(self) -> dict:
        """The effective configuration as JSON: KB, limits, mode, LLM models and server. Never a secret."""
        try:
            llm = self.llm_settings().to_dict()
            llm = {"configured": True, "model": llm["model"], "fast_model": llm["fast_model"],
                   "base_url": _public_url(llm["base_url"]), "timeout": llm["timeout"], "source": llm["source"]}
        except api.Nl2SparqlError as exc:
            llm = {"configured": False, "reason": str(exc)}
        kb = self.kb.to_dict()
        if kb.get("endpoint"):
            kb["endpoint"] = _public_url(kb["endpoint"])
            kb["kb"] = f"endpoint:{kb['endpoint']}"
        return {"kb": kb, "limits": {"timeout_s": self.timeout, "max_rows": self.max_rows},
                "translate_mode": self.mode, "embedder": self.embedder or "default", "llm": llm,
                "version": package_version()}


def _public_url(url: str | None) -> str | None:
    """``url`` without any user name or password in it."""
    if not url:
        return url
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def package_version() -> str:
    """The installed nl2sparql version."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("nl2sparql")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def executable() -> str:
    """The absolute path of this environment's ``nl2sparql`` command."""
    here = Path(sys.executable).parent / "nl2sparql"
    if here.is_file():
        return str(here)
    found = shutil.which("nl2sparql")
    if found:
        return str(Path(found).resolve())
    raise api.ConfigError("the nl2sparql command is not installed in this environment (pip install -e . first)")


def desktop_config(args: list[str], env: dict[str, str], name: str = "nl2sparql") -> dict:
    """A ``claude_desktop_config.json`` snippet starting ``nl2sparql mcp serve`` with ``args`` and ``env``."""
    entry: dict = {"command": executable(), "args": ["mcp", "serve", *args]}
    if env:
        entry["env"] = dict(env)
    return {"mcpServers": {name: entry}}
