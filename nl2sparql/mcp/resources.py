"""The MCP resources: read-only JSON documents a client host loads as context, each small enough for a model.

* ``liita://ontology/catalog``: an index of the ontology catalogue (one line a term);
* ``liita://ontology/term/{curie}`` (template): one term in full;
* ``liita://constraints/base``: the base rules and the exact prefixes;
* ``liita://config``: the server's effective configuration, without secrets;
* ``liita://patterns``: an index of the query patterns;
* ``liita://patterns/{name}`` (template): one pattern with its rules, block and an example;
* ``liita://schema``: graphs, prefixes, the CompL-it SERVICE and the rules.
"""

from __future__ import annotations

import difflib
import functools

from .. import api
from .config import ServerConfig

JSON = "application/json"
TERM = "liita://ontology/term/{curie}"
PATTERN = "liita://patterns/{name}"


def _clear_errors(func):
    """Project errors become resource errors with their one-line message (not an opaque failure)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from mcp.server.mcpserver.exceptions import ResourceError
        try:
            return func(*args, **kwargs)
        except api.Nl2SparqlError as exc:
            raise ResourceError(str(exc)) from exc
    return wrapper


def ontology_index() -> dict:
    """Every catalogue term on one line (CURIE, kind, where it lives, English / Italian label), and how to read more."""
    catalog = api.ontology_catalog()
    terms = [f"{e['curie']} ({e['kind']}; {', '.join(e['where'])}): {e['label']['en']} / {e['label']['it']}"
             for e in catalog["entries"]]
    return {"name": catalog["name"], "terms_total": len(terms),
            "read_a_term": TERM + " (e.g. liita://ontology/term/lexinfo:hypernym): meaning, domain and range, "
                                  "inverse, where it lives, LiITA notes and a usage query",
            "search": "the search_ontology tool finds terms from a description in Italian or English",
            "prefixes": catalog["prefixes"], "places": catalog["places"], "terms": terms}


@functools.lru_cache(maxsize=1)
def _patterns() -> dict[str, dict]:
    """:func:`nl2sparql.api.pattern_catalogue` by label, read once (it reads the shipped pools for examples)."""
    return {p["label"]: p for p in api.pattern_catalogue()}


def pattern_index() -> dict:
    """The query patterns, one line each, and how to read one in full."""
    return {"read_a_pattern": PATTERN + " (e.g. liita://patterns/EMOTION_LEXICON): guidance, rules, canonical "
                                        "block and one example",
            "patterns": {label: p["description"] for label, p in _patterns().items()}}


def pattern(name: str) -> dict:
    """One pattern of :func:`nl2sparql.api.pattern_catalogue` by label (a one-line error naming close labels)."""
    patterns = _patterns()
    found = patterns.get(name) or patterns.get(name.upper())
    if found is None:
        close = difflib.get_close_matches(name.upper(), list(patterns), n=3, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise api.DataError(f"unknown pattern {name!r}; {hint}liita://patterns lists them all")
    return found


def register(server, config: ServerConfig) -> None:
    """Add the ``liita://`` resources and resource templates to ``server``."""

    @server.resource("liita://ontology/catalog", title="LiITA ontology index", mime_type=JSON)
    @_clear_errors
    def ontology_catalog() -> dict:
        """Every ontology class and property LiITA queries use, one line each: CURIE, kind, where it lives
        (LiITA graphs or CompL-it) and its English / Italian label. Read liita://ontology/term/{curie} for a
        term in full."""
        return ontology_index()

    @server.resource(TERM, title="One LiITA ontology term", mime_type=JSON)
    @_clear_errors
    def ontology_term(curie: str) -> dict:
        """One ontology class or property by CURIE (lexinfo:hypernym, lila:Lemma, elita:HasEmotion…): IRI,
        labels, meaning, domain and range, inverse, where it lives (graph, inside SERVICE or not), LiITA notes
        such as the hypernym direction, and a usage query."""
        return api.ontology_term(curie)

    @server.resource("liita://constraints/base", title="Base rules and prefixes", mime_type=JSON)
    @_clear_errors
    def base_constraints() -> dict:
        """The rules every LiITA query must keep, the exact prefixes and the base constraint prompt."""
        return api.constraints()

    @server.resource("liita://config", title="Server configuration", mime_type=JSON)
    @_clear_errors
    def server_config() -> dict:
        """The server's effective configuration: KB, per-query limits, translation mode, LLM models and
        base URL (never a key)."""
        return config.effective()

    @server.resource("liita://patterns", title="Query pattern index", mime_type=JSON)
    @_clear_errors
    def patterns() -> dict:
        """The LiITA query patterns, one line each. Read liita://patterns/{name} for one pattern in full."""
        return pattern_index()

    @server.resource(PATTERN, title="One LiITA query pattern", mime_type=JSON)
    @_clear_errors
    def one_pattern(name: str) -> dict:
        """One query pattern by label (EMOTION_LEXICON, TRANSLATION, SENSE_DEFINITION…): what it does, its
        guidance and rules, its canonical SPARQL block and one example question with its query."""
        return pattern(name)

    @server.resource("liita://schema", title="LiITA schema facts", mime_type=JSON)
    @_clear_errors
    def schema() -> dict:
        """LiITA's layout: prefixes, named graphs, the CompL-it SERVICE, the lemma banks, the emotions,
        and the rules queries get wrong."""
        return api.schema()
