"""The LLM side of the nodes (same graph, same state): fast tier to plan, default tier to write.

The question is read by the translator, with or without an LLM (one reading).

* :func:`plan_subtasks` (``plan``, fast tier): the sub-tasks, in order.
* :func:`write_query` (``generate``, default tier): the constraint prompt of
  the question's patterns (:func:`nl2sparql.translate.prompts.system_prompt`),
  the retrieved examples, the ontology context, the plan's sub-tasks, what
  exploration found and the last failed attempts with their error or row count.

Each returns ``(value, note)``; on an LLM failure or an unusable answer the value
is ``None`` and the note says why, and the node goes on offline.
"""

from __future__ import annotations

from ..llm import LLMError, LLMFormatError, extract_sparql, parse_json_verdict, why_no_sparql

#: Failed attempts shown to the generator (the most recent ones).
LAST_FAILURES = 2


def plan_subtasks(client, question: str, analysis: dict, offline: list[dict]) -> tuple[list[dict] | None, str]:
    """Sub-tasks written by the fast tier: ``[{"step", "do"}]``."""
    system = ("You plan SPARQL queries over LiITA (Italian lemmas, ELITA emotions, Sentix polarity, dialect "
              "translations, CompL-it senses and relations behind SERVICE). Answer with one JSON object "
              '{"subtasks": ["...", "..."]}: the steps the query must take, in order, each one short.')
    user = (f"Question: {question}\nAnswer form: {analysis.get('expects', {}).get('form')}\n"
            "Steps a rule-based planner found: " + "; ".join(s["do"] for s in offline))
    try:
        answer = client.chat([{"role": "system", "content": system}, {"role": "user", "content": user}], tier="fast")
        verdict = parse_json_verdict(answer.text, required=("subtasks",))
    except (LLMError, LLMFormatError) as exc:
        return None, f"fast-tier plan failed ({exc}); kept the catalogue's plan"
    steps = [str(s).strip() for s in verdict.get("subtasks") or [] if str(s).strip()]
    if not steps:
        return None, "fast-tier plan was empty; kept the catalogue's plan"
    return [{"step": n, "do": s} for n, s in enumerate(steps, 1)], "planned by the fast tier"


def messages_for(state: dict) -> list[dict]:
    """The generator's chat messages for the current state (see the module docstring)."""
    from ..translate.prompts import system_prompt

    analysis = state.get("analysis") or {}
    labels = list(analysis.get("patterns") or {})
    parts = []
    examples = state.get("examples") or []
    if examples:
        parts.append("Similar questions with their correct queries:")
        parts += [f"Q: {e['question']}\n```sparql\n{e['sparql'].strip()}\n```" for e in examples]
    if state.get("schema"):
        parts.append(state["schema"])
    subtasks = (state.get("plan") or {}).get("subtasks") or []
    if subtasks:
        parts.append("Plan (the query must do every step):\n" + "\n".join(f"{s['step']}. {s['do']}" for s in subtasks))
    findings = [f["summary"] for f in state.get("exploration") or [] if f.get("summary")]
    if findings:
        parts.append("What exploring the knowledge base found:\n" + "\n".join(f"- {f}" for f in findings))
    failed = [a for a in state.get("attempts") or [] if a.get("verdict") != "ok"][-LAST_FAILURES:]
    if failed:
        lines = ["Earlier attempts that did not answer (do not repeat them):"]
        for a in failed:
            outcome = a.get("error") or ("; ".join(a.get("problems") or []) or f"{a.get('rows')} rows")
            lines.append(f"```sparql\n{a['sparql'].strip()}\n```\nOutcome: {outcome}")
        parts.append("\n".join(lines))
    expects = analysis.get("expects") or {}
    form = {"ask": "an ASK query (yes/no)", "count": "one number (COUNT)"}.get(expects.get("form"),
                                                                              "the written forms and values asked for")
    parts.append(f"Answer with {form}; no IRI columns unless the question asks for them.")
    if expects.get("words"):
        parts.append("The query must use the words " + ", ".join(repr(w["word"]) for w in expects["words"]) + ".")
    parts.append(f"Question: {state['question']}")
    return [{"role": "system", "content": system_prompt(labels)}, {"role": "user", "content": "\n\n".join(parts)}]


def write_query(client, state: dict) -> tuple[str | None, str]:
    """A query written by the default tier for the current state."""
    try:
        answer = client.chat(messages_for(state), tier="default")
    except LLMError as exc:
        return None, f"the LLM failed ({exc}); using the offline candidates"
    sparql = extract_sparql(answer.text)
    if sparql is None:
        return None, f"the LLM answer holds no SPARQL query ({why_no_sparql(answer.text)}); using the offline candidates"
    return sparql, "written by the default tier" + (" (cached)" if answer.cached else "")
