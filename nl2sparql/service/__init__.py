"""The service layer: the plain functions that :mod:`nl2sparql.api` publishes, without the agent.

The agent (:mod:`nl2sparql.agent`) is built on these functions, and
:mod:`nl2sparql.api` publishes them together with the agent; so the agent
imports this package and never :mod:`nl2sparql.api`. Everyone else (the CLIs,
the MCP server, the web UI, users' code) imports :mod:`nl2sparql.api`.
"""

from __future__ import annotations

from ..errors import ConfigError, DataError, Nl2SparqlError, QueryError
from ..kb.base import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT
from ..score.evaluate import DEFAULT_TRANSLATOR
from .external import ask
from .generation import EXPORT_FORMATS, export_pool, generate, merge_pools, pool_stats
from .kbs import KBChoice, as_choice, close_all
from .llm import llm_config
from .ontology import ontology_catalog, ontology_prompt, ontology_term, search_ontology
from .pools import resolve_pool, resolve_pools, shipped_pools
from .query import execute, fix, kb_info, load_store, serve_kb, validate
from .rules import check_variable_reuse, constraints, fix_case, pattern_catalogue, schema
from .scoring import compare, match_options, score
from .topic import off_topic
from .translation import MODES, analyze, evaluate, retrieve, translate
from .types import (Analysis, AskResult, CompareResult, Example, ExportResult, FixResult, GenerationResult, Issue, KBInfo, LoadResult,
                    MergeResult, OntologySearchResult, Result, RetrievalResult, Rows, ScoreResult, TranslationResult,
                    ValidationResult)
from .views import pattern_labels, pool_items, sparql_tokens

__all__ = [
    # functions
    "translate", "off_topic", "analyze", "retrieve", "validate", "fix", "execute", "generate", "score", "compare",
    "evaluate",
    "search_ontology", "ontology_term", "ontology_catalog", "ontology_prompt",
    "kb_info", "load_store", "serve_kb", "pool_stats", "merge_pools", "export_pool", "shipped_pools", "resolve_pool", "resolve_pools",
    "match_options", "llm_config", "close_all", "as_choice",
    "constraints", "schema", "pattern_catalogue", "fix_case", "check_variable_reuse", "ask",
    "pool_items", "pattern_labels", "sparql_tokens",
    # choices and constants
    "KBChoice", "MODES", "EXPORT_FORMATS", "DEFAULT_TIMEOUT", "DEFAULT_MAX_ROWS", "DEFAULT_TRANSLATOR",
    # results
    "Result", "Rows", "Issue", "ValidationResult", "FixResult", "Analysis", "Example", "RetrievalResult",
    "TranslationResult", "OntologySearchResult", "AskResult", "KBInfo", "LoadResult", "GenerationResult",
    "MergeResult", "ExportResult", "ScoreResult", "CompareResult",
    # errors
    "Nl2SparqlError", "ConfigError", "DataError", "QueryError",
]
