"""The nine tools of the reference LiITA MCP server, with the same names, over :mod:`nl2sparql.api`.

Each tool is a thin call into the API with the server's KB and limits. The
docstrings and the argument descriptions are what the client's LLM reads.
A project error raised by the API becomes a tool error with its one-line
message (see :mod:`.server`). No ``from __future__ import annotations`` here:
the SDK reads the tools' annotations at run time, and they use the server's limits.
"""

from typing import Annotated, Literal, Optional

from pydantic import Field

from .. import api
from ..api import (Analysis, FixResult, OntologySearchResult, RetrievalResult, Rows, TranslationResult,
                         ValidationResult)
from .config import ServerConfig
from .fields import MAX_QUESTION, Constraints, Patterns, Question, Sparql, TopK

#: Tool behaviour hints: nothing the tools do changes the KB or the user's files.
READ_ONLY = {"read_only_hint": True, "open_world_hint": False}


def register(server, config: ServerConfig) -> None:
    """Add the reference's nine tools to ``server`` (an :class:`~mcp.server.mcpserver.MCPServer`)."""
    from mcp.types import ToolAnnotations

    hints = ToolAnnotations(**READ_ONLY)
    kb = config.kb

    @server.tool(title="Translate a question to SPARQL", annotations=hints)
    def translate(
        question: Question,
        mode: Annotated[Optional[Literal["offline", "llm"]], Field(
            description="offline: compose from the pattern catalogue (milliseconds, no LLM); llm: ask the "
                        "server's LLM with validation and repair rounds (falls back to offline). Default: "
                        f"the server's ({config.mode}).")] = None,
        execute: Annotated[bool, Field(
            description=f"Also run the query and attach up to {config.answer_rows} rows (use execute_sparql "
                        "for more).")] = False,
        top_k: Annotated[int, Field(ge=1, le=20, description="Similar pool examples to retrieve and return "
                                                             "(1 to 20).")] = 5,
        language: Annotated[Optional[Literal["it", "en"]], Field(
            description="Accepted for compatibility; the language is detected from the question.")] = None,
    ) -> TranslationResult:
        """Translate an Italian or English question about LiITA (Linking Italian: lemmas, emotions, polarity,
        dialect translations, CompL-it senses) into a SPARQL query for the LiITA knowledge base.

        Returns the query, how it was built (patterns, slots, shape, confidence), similar pool examples,
        validation issues and fixes, and with execute=true the rows. A question that is not about LiITA gets
        no query: off_topic says so in one line."""
        chosen = mode or config.mode
        return api.translate(question, mode=chosen, execute=execute, kb=kb, k=top_k, embedder=config.embedder,
                             llm=config.llm_settings() if chosen == "llm" else None, max_rows=config.answer_rows)

    @server.tool(title="Detect the query patterns of a question", annotations=hints)
    def infer_patterns(
        question: Question,
        threshold: Annotated[float, Field(ge=0.0, le=1.0, description="Keep patterns whose confidence is at "
                                                                      "least this (0 to 1).")] = 0.3,
    ) -> Analysis:
        """Read a question without writing SPARQL: its language, the LiITA query patterns it needs
        (EMOTION_LEXICON, TRANSLATION, SENSE_DEFINITION, …) with confidences, the slots found (words,
        emotions, dialects, parts of speech), the query shape and a complexity estimate."""
        found = api.analyze(question)
        found.patterns = {k: v for k, v in found.patterns.items() if v >= threshold}
        return found

    @server.tool(title="Retrieve similar question/SPARQL examples", annotations=hints)
    def retrieve_examples(question: Question, top_k: TopK = 5) -> RetrievalResult:
        """The pool examples (question and correct SPARQL) most similar to a question, by dense embeddings,
        BM25 and pattern overlap: few-shot material for writing a new query."""
        return api.retrieve(question, k=top_k, embedder=config.embedder)

    @server.tool(title="Search the LiITA ontology catalogue", annotations=hints)
    def search_ontology(
        query: Annotated[str, Field(min_length=1, json_schema_extra={"maxLength": MAX_QUESTION}, description=(
            "What the term means, in Italian or English, e.g. 'broader meaning', 'part of speech', "
            "'traduzione dialettale'."))],
        top_k: TopK = 5,
    ) -> OntologySearchResult:
        """Find ontology classes and properties (OntoLex, LexInfo, LiLa, ELITA, MARL, CompL-it, …) that match
        a description in Italian or English: their CURIE and IRI, meaning, domain and range, inverse, where
        they live in LiITA (graph, inside SERVICE or not), notes such as the hypernym direction, how often
        they occur in the KB, and a usage query."""
        return api.search_ontology(query, k=top_k, kb=kb, embedder=config.embedder)

    @server.tool(title="Get the rules a LiITA query must keep", annotations=hints)
    def get_constraints(patterns: Patterns = []) -> Constraints:  # noqa: B006 - pydantic copies defaults
        """The exact prefixes, the base rules every LiITA query must keep (graphs, SERVICE for CompL-it,
        language-tagged written forms, the hypernym direction, …) and, for the given patterns, their
        rules and canonical SPARQL blocks. Call it before writing a query by hand."""
        return api.constraints(patterns)

    @server.tool(title="Validate a SPARQL query against the LiITA rules", annotations=hints)
    def validate_sparql(
        sparql: Sparql,
        check_endpoint: Annotated[bool, Field(
            description="Also run the query on the KB: a failure is an error, an empty answer a warning with "
                        "hints.")] = True,
    ) -> ValidationResult:
        """Check a query: syntax, exact prefixes, graph IRIs, SERVICE scope (CompL-it inside, LiITA
        outside), one entry per resource, IRI vs literal use, translation direction, string matching; ok is
        false when an issue is an error. Each issue says what to change."""
        return api.validate(sparql, kb=kb, execute=check_endpoint)

    @server.tool(title="Run a SPARQL query on LiITA", annotations=hints)
    def execute_sparql(
        sparql: Sparql,
        timeout: Annotated[float, Field(gt=0, le=config.timeout, description=(
            f"Time budget in seconds (at most {config.timeout:g}); the query is stopped when it runs out."))]
            = config.timeout,
        limit: Annotated[int, Field(ge=1, le=config.max_rows, description=(
            f"Most rows returned (1 to {config.max_rows}); truncated says when the answer was cut."))]
            = config.answer_rows,
    ) -> Rows:
        """Run a read-only query on the server's LiITA knowledge base and return the answer (SELECT rows in
        the SPARQL JSON cell format, an ASK boolean, or CONSTRUCT triples). SPARQL Update is refused,
        SERVICE is allowed only to the services the KB maps (CompL-it), and missing standard prefixes are
        added."""
        return api.execute(sparql, kb=kb, timeout=timeout, max_rows=limit)

    @server.tool(title="Make label comparisons case-insensitive", annotations=hints)
    def fix_case_sensitivity(sparql: Sparql) -> FixResult:
        """Rewrite case-sensitive label comparisons (emotion names are capitalised, POS labels lower case
        in the data) into LCASE(STR(?label)) = "…" or a REGEX with the "i" flag, and list each change.
        Use it when a query with a label filter returns no rows."""
        return api.fix_case(sparql)

    @server.tool(title="Check a query for variable reuse bugs", annotations=hints)
    def check_variable_reuse(sparql: Sparql) -> ValidationResult:
        """Find variables used for two things: one entry variable shared by two resources (ELITA, Sentix,
        a dialect glossary, CompL-it, the inflected forms: each has its own entry for a lemma), or one
        variable used both as an IRI and as a literal. Either silently returns nothing."""
        return api.check_variable_reuse(sparql)
