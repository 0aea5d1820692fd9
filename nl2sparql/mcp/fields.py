"""The argument and result types of the MCP tools: their JSON schemas are what a client's LLM reads.

Every bound here but the question's length is enforced by the SDK before a tool runs (a longer string,
a larger ``top_k`` or a wrong type is a tool error naming the argument).
"""

from typing import Annotated, Any, Literal, Optional

from pydantic import Field
from typing_extensions import TypedDict

from ..api import pattern_labels
from ..checks import MAX_QUESTION

#: Longest SPARQL query accepted (characters).
MAX_QUERY = 100_000
#: Most gold items (and predictions) one ``score_predictions`` call may carry.
MAX_SCORE_ITEMS = 200
#: Most examples one ``generate_examples`` call may ask for.
MAX_GENERATE = 20

LABELS = tuple(pattern_labels())
PatternLabel = Literal[LABELS]  # type: ignore[valid-type] - the catalogue's labels as an enum

#: The bound is the API's (:func:`~nl2sparql.checks.check_question`): the schema states it, the API refuses a longer
#: question with the same line as on every other way in.
Question = Annotated[str, Field(
    min_length=1, json_schema_extra={"maxLength": MAX_QUESTION},
    description="The question, in Italian or English, e.g. 'Quali sostantivi esprimono paura?' or "
                "'Which nouns express fear?'.")]
Sparql = Annotated[str, Field(
    min_length=1, max_length=MAX_QUERY,
    description="A SPARQL 1.1 query (SELECT, ASK, CONSTRUCT or DESCRIBE). Standard LiITA PREFIX lines may be "
                "omitted: they are added.")]
TopK = Annotated[int, Field(ge=1, le=50, description="How many results to return (1 to 50).")]
Patterns = Annotated[list[PatternLabel], Field(
    max_length=len(LABELS),
    description="Pattern labels of the catalogue (as infer_patterns returns them), e.g. ['EMOTION_LEXICON', "
                "'TRANSLATION']. Empty: none.")]


class Constraints(TypedDict):
    """The rules a LiITA query must keep."""

    patterns: Annotated[list[str], Field(description="The pattern labels the rules were asked for.")]
    prefixes: Annotated[dict[str, str], Field(description="Prefix name to its exact IRI.")]
    prologue: Annotated[str, Field(description="The PREFIX lines to paste at the top of a query.")]
    rules: Annotated[list[str], Field(description="Every rule a LiITA query must keep (the validator checks them).")]
    pattern_guides: Annotated[list[str], Field(
        description="For each asked pattern: how to use it and its canonical SPARQL block.")]
    system_prompt: Annotated[str, Field(description="The whole constraint prompt the LLM translator uses.")]


class GoldPair(TypedDict):
    """One gold item: an id and the SPARQL whose answer is correct."""

    id: Annotated[str, Field(min_length=1, max_length=200, description="The item's id.")]
    sparql: Annotated[str, Field(min_length=1, max_length=MAX_QUERY, description="The gold SPARQL.")]


class Prediction(TypedDict):
    """One predicted query for a gold id (``null`` sparql: no prediction)."""

    id: Annotated[str, Field(min_length=1, max_length=200, description="The gold item's id.")]
    sparql: Annotated[Optional[str], Field(max_length=MAX_QUERY, description="The predicted SPARQL, or null.")]


class GeneratedExamples(TypedDict):
    """A small generation run: the examples kept and why candidates were rejected."""

    kept: Annotated[int, Field(description="Examples kept.")]
    target: Annotated[int, Field(description="Examples asked for.")]
    seconds: Annotated[float, Field(description="Wall time of the run.")]
    rejected: Annotated[dict[str, int], Field(description="Rejected candidates by reason.")]
    items: Annotated[list[dict[str, Any]], Field(
        description="Pool items: id, nl (Italian question), nl_en, sparql, patterns, difficulty, and more.")]
