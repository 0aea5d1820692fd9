"""The one entry point to nl2sparql: plain functions with typed, JSON-serialisable results.

The CLIs, the agent, the MCP server and the web UI all call these functions;
nothing below them is meant for those layers.

>>> from nl2sparql import api
>>> t = api.translate("Quali sostantivi esprimono paura?", execute=True)
>>> t.sparql, t.patterns, t.rows.count
>>> api.execute("SELECT ?e WHERE { ?e a elita:Emotion }").values()
>>> api.validate("SELECT * WHERE { ?s lexinfo:hypernym ?o }", execute=False).issues
>>> api.agent("Qual è la definizione di «bassotto»?").sparql     # runs, checks and retries its queries

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
from ._agent import AgentResult, AgentStep, agent, agent_stream
from ._ask import ask
from ._ontology import ontology_catalog, ontology_prompt, ontology_term, search_ontology
from ._generation import EXPORT_FORMATS, export_pool, generate, pool_stats
from ._query import execute, fix, kb_info, load_store, serve_kb, validate
from ._rules import check_variable_reuse, constraints, fix_case, pattern_catalogue, schema
from ._scoring import match_options, score
from ._translation import MODES, analyze, evaluate, retrieve, translate
from ._ui_support import pattern_labels, pool_items, sparql_tokens
from .llm import llm_config
from .pools import resolve_pool, resolve_pools, shipped_pools
from .kbs import KBChoice, as_choice, close_all
from .types import (Analysis, AskResult, Example, ExportResult, FixResult, GenerationResult, Issue, KBInfo, LoadResult,
                    OntologySearchResult, Result, RetrievalResult, Rows, ScoreResult, TranslationResult,
                    ValidationResult)

__all__ = [
    # functions
    "translate", "analyze", "retrieve", "validate", "fix", "execute", "generate", "score", "evaluate",
    "search_ontology", "ontology_term", "ontology_catalog", "ontology_prompt",
    "kb_info", "load_store", "serve_kb", "pool_stats", "export_pool", "shipped_pools", "resolve_pool", "resolve_pools",
    "match_options", "llm_config", "close_all", "as_choice", "agent", "agent_stream",
    "constraints", "schema", "pattern_catalogue", "fix_case", "check_variable_reuse", "ask",
    "pool_items", "pattern_labels", "sparql_tokens",
    # choices and constants
    "KBChoice", "MODES", "EXPORT_FORMATS", "DEFAULT_TIMEOUT", "DEFAULT_MAX_ROWS", "DEFAULT_TRANSLATOR",
    # results
    "Result", "Rows", "Issue", "ValidationResult", "FixResult", "Analysis", "Example", "RetrievalResult",
    "TranslationResult", "OntologySearchResult", "AskResult", "KBInfo", "LoadResult", "GenerationResult",
    "ExportResult", "ScoreResult", "AgentResult", "AgentStep",
    # errors
    "Nl2SparqlError", "ConfigError", "DataError", "QueryError",
]
