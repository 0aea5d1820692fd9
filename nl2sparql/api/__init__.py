"""The one entry point to nl2sparql: plain functions with typed, JSON-serialisable results.

The CLIs, the agent, the MCP server and the web UI all call these functions;
nothing below them is meant for those layers.

>>> from nl2sparql import api
>>> t = api.translate("Quali sostantivi esprimono paura?", execute=True)
>>> t.sparql, t.patterns, t.rows.count
>>> api.execute("SELECT ?e WHERE { ?e a elita:Emotion }").values()
>>> api.validate("SELECT * WHERE { ?s lexinfo:hypernym ?o }", execute=False).issues

Every function that touches data takes ``kb=``: ``None`` (the environment's
``NL2SPARQL_STORE`` / ``NL2SPARQL_ENDPOINT``, else the embedded sample),
``"sample"``, a store directory, an endpoint URL, a :class:`KBChoice`, or an
open knowledge base. Results have ``to_dict()``. Bad input raises
:class:`~nl2sparql.errors.Nl2SparqlError` subclasses whose message is one
line naming the problem and what to do.
"""

from __future__ import annotations

from ..errors import ConfigError, DataError, Nl2SparqlError, QueryError
from ..kb.base import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT
from ..score.evaluate import DEFAULT_TRANSLATOR
from ._generation import EXPORT_FORMATS, export_pool, generate, pool_stats
from ._query import execute, fix, kb_info, load_store, validate
from ._scoring import match_options, score
from ._translation import (MODES, analyze, evaluate, llm_config, resolve_pool, resolve_pools, retrieve, shipped_pools,
                           translate)
from ._ui_support import pattern_labels, pool_items, sparql_tokens
from .kbs import KBChoice, as_choice, close_all
from .types import (Analysis, Example, ExportResult, FixResult, GenerationResult, Issue, KBInfo, LoadResult,
                    Result, RetrievalResult, Rows, ScoreResult, TranslationResult, ValidationResult)

__all__ = [
    # functions
    "translate", "analyze", "retrieve", "validate", "fix", "execute", "generate", "score", "evaluate",
    "kb_info", "load_store", "pool_stats", "export_pool", "shipped_pools", "resolve_pool", "resolve_pools",
    "match_options", "llm_config", "close_all", "as_choice", "pool_items", "pattern_labels",
    "sparql_tokens",
    # choices and constants
    "KBChoice", "MODES", "EXPORT_FORMATS", "DEFAULT_TIMEOUT", "DEFAULT_MAX_ROWS", "DEFAULT_TRANSLATOR",
    # results
    "Result", "Rows", "Issue", "ValidationResult", "FixResult", "Analysis", "Example", "RetrievalResult",
    "TranslationResult", "KBInfo", "LoadResult", "GenerationResult", "ExportResult", "ScoreResult",
    # errors
    "Nl2SparqlError", "ConfigError", "DataError", "QueryError",
]
