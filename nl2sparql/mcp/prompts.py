"""The MCP prompts: the common tasks, which clients offer as commands (e.g. "/ask_liita" in a chat).

Each prompt is one user message that names the tools to call and in which
order; the client's model then does the work with the server's tools.
"""

from typing import Annotated

from pydantic import Field

from .fields import MAX_GENERATE, MAX_QUERY, MAX_QUESTION


def register(server) -> None:
    """Add ``ask_liita``, ``check_query`` and ``build_dataset`` to ``server``."""

    @server.prompt(title="Ask LiITA a question")
    def ask_liita(question: Annotated[str, Field(max_length=MAX_QUESTION,
                                                  description="The question, in Italian or English.")]) -> str:
        """Answer a question about Italian words from LiITA, with the query that found the answer."""
        return (f"Answer this question from the LiITA knowledge base: {question}\n\n"
                "1. Call translate with the question and execute=true. If its result has off_topic, tell me the "
                "question is not about LiITA and stop.\n"
                "2. If the rows are empty or do not answer the question, call agent_translate, which runs, checks "
                "and retries its queries.\n"
                "3. Answer in the question's language from the rows only (never from your own knowledge), then "
                "show the SPARQL query and say how many rows it returned. If no query answers it, say so.")

    @server.prompt(title="Check a SPARQL query")
    def check_query(sparql: Annotated[str, Field(max_length=MAX_QUERY,
                                                  description="The SPARQL query to check.")]) -> str:
        """Check a SPARQL query against the LiITA rules, fix what can be fixed, and run it."""
        return ("Check this SPARQL query for the LiITA knowledge base:\n\n"
                f"```sparql\n{sparql}\n```\n\n"
                "1. Call validate_sparql (check_endpoint=true) and explain each issue in one sentence.\n"
                "2. Call fix_case_sensitivity and check_variable_reuse; if anything changed, show the corrected "
                "query and validate it again.\n"
                "3. Run the final query with execute_sparql (limit 10) and show the first rows.\n"
                "Use get_constraints or the liita://constraints/base resource for the rules behind an issue.")

    @server.prompt(title="Build a small NL→SPARQL dataset")
    def build_dataset(
        target: Annotated[int, Field(ge=1, le=MAX_GENERATE, description="How many examples to make.")] = 10,
        patterns: Annotated[str, Field(max_length=500, description=(
            "Pattern labels to cover, comma-separated (see liita://patterns); empty: any."))] = "",
    ) -> str:
        """Grow a small validated set of question/SPARQL pairs from the knowledge base and score a baseline on it."""
        which = f" covering the patterns {patterns}" if patterns.strip() else ""
        return (f"Build a small natural-language → SPARQL dataset of {target} examples{which} from LiITA.\n\n"
                f"1. Call generate_examples with target={target}"
                + (f" and patterns={[p.strip() for p in patterns.split(',') if p.strip()]}" if which else "")
                + "; every query it returns was executed on the knowledge base.\n"
                "2. Show the examples as a table: id, Italian question, English question, patterns, rows.\n"
                "3. Translate each Italian question with translate and score the translations against the "
                "examples with score_predictions; report the strict and relaxed accuracy and the items it got "
                "wrong.")
