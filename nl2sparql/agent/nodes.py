"""The nodes: plain functions ``(state, runtime) -> update`` over the plain-data state.

``analyze → plan → retrieve → generate → execute → verify``; ``verify`` sets
``route`` to ``output`` (the answer agrees with the question), ``refine`` (an
error or an answer of the wrong shape; then ``retrieve``), ``explore`` (no
rows; then ``generate``) or ``output`` again when the attempts are used up.
``generate`` with nothing left to try also goes to ``output``, which falls
back to the first valid attempt.

Without an LLM every node works from the catalogue, the retrieved examples
and the KB; with one (``runtime.context.llm``) ``analyze`` and ``plan`` ask the
fast tier and ``generate`` the default tier, and each goes on offline when the
LLM fails. Each node adds one record to ``trace``.
"""

from __future__ import annotations

import time

from . import candidates as cands
from . import fixes, llm_steps
from .query import subject_vars
from .reading import agreement, expectations
from .state import answered, attempt_ok, normalise_query
from .tools import probe_word, search_schema, word_summary

#: Probe at most this many named words when exploring.
MAX_WORDS = 3


def _trace(node: str, start: float, summary: str) -> list[dict]:
    return [{"node": node, "ms": round((time.perf_counter() - start) * 1000, 2), "summary": summary}]


def analyze(state, runtime) -> dict:
    """Read the question: language, patterns, slots, shape, complexity, readings and what the answer must be."""
    from .. import service

    start, ctx = time.perf_counter(), runtime.context
    found = service.analyze(state["question"]).to_dict()
    analysis = {k: found[k] for k in ("language", "patterns", "slots", "shape", "complexity")}
    analysis["readings"] = found["readings"][:4]
    analysis["expects"] = expectations(state["question"], analysis)
    patterns = ", ".join(analysis["patterns"]) or "-"
    summary = f"{analysis['language']}, {analysis['expects']['form']}, patterns {patterns}"
    update: dict = {}
    if ctx.ontology:
        schema = search_schema(state["question"], None, ctx.kb)
        analysis["schema_hits"] = [{"curie": h["curie"], "score": h["score"]} for h in schema["hits"]]
        if schema["note"]:
            analysis["schema_note"] = schema["note"]
        update["schema"] = schema["text"]
        summary += "; ontology: " + (", ".join(h["curie"] for h in schema["hits"][:3]) or schema["note"] or "-")
    if ctx.llm is not None:
        read, note = llm_steps.read_question(ctx.llm, state["question"], analysis)
        if read is not None:
            analysis["expects"].update({k: v for k, v in read.items() if k != "words" or v})
            analysis["read_by"] = "llm"
        summary += f"; {note}"
    return {"analysis": analysis, **update, "trace": _trace("analyze", start, summary)}


def plan(state, runtime) -> dict:
    """Sub-tasks the query must carry out, in order (from the first reading; the fast tier with an LLM)."""
    start, ctx = time.perf_counter(), runtime.context
    analysis = state["analysis"]
    subtasks = offline_subtasks(analysis)
    source, note = "catalogue", f"{len(subtasks)} sub-task(s) from the first reading"
    if ctx.llm is not None:
        written, note = llm_steps.plan_subtasks(ctx.llm, state["question"], analysis, subtasks)
        if written is not None:
            subtasks, source = written, "llm"
    return {"plan": {"subtasks": subtasks, "source": source}, "trace": _trace("plan", start, note)}


def offline_subtasks(analysis: dict) -> list[dict]:
    """One sub-task per step of the first reading, then the answer form."""
    reading = (analysis.get("readings") or [{}])[0]
    expects = analysis.get("expects") or {}
    steps = []
    if reading.get("word"):
        steps.append({"pattern": None, "do": f"find the lemma written {reading['word']!r}"})
    if reading.get("standalone"):
        steps.append({"pattern": reading["standalone"].get("label"), "do": f"{reading['standalone']}"})
    for step in reading.get("steps") or []:
        slots = ", ".join(f"{k}={v}" for k, v in (step.get("slots") or {}).items())
        steps.append({"pattern": step["pattern"], "do": f"{step['pattern']}" + (f" ({slots})" if slots else "")})
    answer = {"ask": "answer yes or no (ASK)", "count": "answer with one number (COUNT)"}.get(
        expects.get("form"), "show the written forms and values asked for, not IRIs")
    steps.append({"pattern": None, "do": answer})
    return [{"step": n, **s} for n, s in enumerate(steps, 1)]


def retrieve(state, runtime) -> dict:
    """The pool examples closest to the question (kept as they are when nothing new is asked)."""
    start, ctx = time.perf_counter(), runtime.context
    if state.get("examples"):
        return {"trace": _trace("retrieve", start, f"kept the {len(state['examples'])} example(s) retrieved")}
    examples = [{"id": e.id, "score": round(e.score, 4), "question": e.question, "patterns": list(e.patterns),
                 "shape": e.shape, "sparql": e.sparql} for e in ctx.translator.examples(state["question"])]
    summary = f"{len(examples)} example(s)" + (f", best {examples[0]['id']} ({examples[0]['score']:.2f})"
                                               if examples else " (no pool)")
    return {"examples": examples, "trace": _trace("retrieve", start, summary)}


def _example_objects(examples: list[dict]):
    from ..translate.offline import Example
    return [Example(**e) for e in examples]


def _first_candidates(state, ctx) -> tuple[list[dict], list[str]]:
    """The offline queue: every reading, then the adapted examples; sub-task coverage first."""
    examples = state.get("examples") or []
    expects = state["analysis"].get("expects") or {}
    objects = _example_objects(examples)
    queue = cands.from_readings(ctx.translator, state["question"], objects)
    vocabulary = cands.from_vocabulary(ctx.translator, state["question"], objects, expects.get("words") or [])
    # "which words have the emotion «tristezza»" asks for words: the vocabulary reading goes first
    queue = vocabulary + queue if expects.get("asks_words") else queue + vocabulary
    seen = {normalise_query(c["sparql"]) for c in queue}
    adapted, notes = cands.from_examples(examples, state["analysis"].get("slots") or {}, seen)
    queue += adapted
    wanted = {s["pattern"] for s in (state.get("plan") or {}).get("subtasks") or [] if s.get("pattern")}
    for c in queue:
        c["covers"] = sorted(wanted & set(c.get("patterns") or []))
    if wanted:
        queue.sort(key=lambda c: -len(c["covers"]))  # stable: readings keep their order
    return queue, notes


def generate(state, runtime) -> dict:
    """The next query to try: the LLM's (with an LLM), else the next offline candidate, shaped as asked."""
    start, ctx = time.perf_counter(), runtime.context
    queue = list(state.get("candidates") or [])
    notes = []
    if not state.get("attempts") and not queue and not state.get("tried"):
        queue, notes = _first_candidates(state, ctx)
    tried = list(state.get("tried") or [])
    chosen = None
    if ctx.llm is not None and not (queue and queue[0].get("fix")):
        sparql, note = llm_steps.write_query(ctx.llm, state)
        if sparql is not None and normalise_query(sparql) in tried:
            note = "the LLM wrote a query already tried; using the offline candidates"
        elif sparql is not None:
            chosen = {"sparql": sparql, "source": "llm", "why": note, "patterns": [], "covers": []}
        notes.append(note)
    while chosen is None and queue:
        head = queue.pop(0)
        if normalise_query(head["sparql"]) not in tried:
            chosen = head
    if chosen is None:
        return {"candidates": queue, "current": None, "route": "output",
                "trace": _trace("generate", start, "nothing left to try" + _join(notes))}
    expects = state["analysis"].get("expects") or {}
    shaped, shape_notes = cands.shape_to(chosen["sparql"], expects, chosen.get("shape"))
    tried += [normalise_query(chosen["sparql"]), normalise_query(shaped)]
    current = {"n": len(state.get("attempts") or []) + 1, "sparql": shaped, "generated": chosen["sparql"],
               "source": chosen["source"], "why": chosen["why"], "covers": chosen.get("covers", []),
               "shape": chosen.get("shape"), "shaped": shape_notes}
    summary = f"attempt {current['n']}: {chosen['source']} ({chosen['why']})" + _join(shape_notes + notes)
    return {"candidates": queue, "tried": tried, "current": current, "route": "execute",
            "trace": _trace("generate", start, summary)}


def _join(notes: list[str]) -> str:
    return ("; " + "; ".join(notes)) if notes else ""


#: Fixes tried when a query returns nothing: (name, function, also for a false ASK).
EMPTY_FIXES = (("case-insensitive strings", fixes.case_insensitive, True),
               ("symmetric relations both ways", fixes.both_directions, True),
               ("relation direction flipped", fixes.flip_relations, False))


def execute(state, runtime) -> dict:
    """Run the current query with the safe fixes: repairs first, the variable-reuse check, then, when it
    returns nothing, case-insensitive strings, symmetric relations both ways and direction flips."""
    from .. import service

    start, ctx = time.perf_counter(), runtime.context
    current = dict(state["current"])
    repaired = service.fix(current["sparql"], execute=False)
    sparql, applied = repaired.fixed, list(repaired.fixes)
    blocking = [i for i in repaired.issues_after if i.severity == "error" and i.rule in ("iri_literal", "entry_reuse")]
    runs = []
    if blocking:
        run = {"sparql": sparql, "rows": None, "error": "; ".join(f"[{i.rule}] {i.message}" for i in blocking),
               "form": None, "columns": [], "kinds": [], "preview": [], "ms": 0.0, "fix": None}
        runs.append(run)
    else:
        run = {**ctx.run_query(sparql), "fix": None}
        runs.append(run)
        for name, fix, for_ask in EMPTY_FIXES:
            if run["error"] is not None or not _nothing(run, for_ask):
                break
            fixed, done = fix(run["sparql"])
            if not done:
                continue
            trial = {**ctx.run_query(fixed), "fix": name}
            runs.append(trial)
            if trial["error"] is None and not _nothing(trial, for_ask):
                run = trial
                applied += done
    current.update({k: run.get(k) for k in ("sparql", "rows", "error", "form", "columns", "kinds", "preview",
                                            "boolean", "truncated")})
    current["fixes"] = applied
    current["runs"] = [{k: r.get(k) for k in ("sparql", "fix", "rows", "error", "ms")} for r in runs]
    outcome = run["error"] or (f"ASK {run['boolean']}" if run.get("form") == "ask" else f"{run['rows']} row(s)")
    summary = f"attempt {current['n']}: {outcome}; {len(runs)} quer{'y' if len(runs) == 1 else 'ies'} run" \
              + (f"; fixes: {', '.join(applied)}" if applied else "")
    return {"current": current, "trace": _trace("execute", start, summary)}


def _nothing(run: dict, for_ask: bool) -> bool:
    """True when a run answered nothing: no rows, or (``for_ask``) a false ASK."""
    if run.get("form") == "ask":
        return for_ask and run.get("boolean") is False
    return run.get("rows") == 0


def verify(state, runtime) -> dict:
    """Judge the attempt: error, empty, off-shape (count / list / yes-no / IRI columns) or ok; set the route."""
    start, ctx = time.perf_counter(), runtime.context
    current = dict(state["current"])
    expects = state["analysis"].get("expects") or {}
    if current.get("error"):
        verdict, problems = "error", [current["error"]]
    elif current.get("form") != "ask" and not current.get("rows"):
        verdict, problems = "empty", ["the query returns no rows"]
    else:
        problems = agreement(expects, current, subject_vars(current["sparql"]))
        verdict = "mismatch" if problems else "ok"
    update: dict = {}
    if verdict == "ok" and ctx.ontology:
        from .explore import asked_relation
        problem, suggest, findings = asked_relation(state, current, ctx)
        if findings:
            update["exploration"] = findings
        if problem:
            verdict, problems, current["suggest"] = "mismatch", [problem], suggest
    current.update(verdict=verdict, problems=problems)
    done = len(state.get("attempts") or []) + 1
    if verdict == "ok":
        route = "output"
    elif done >= ctx.max_attempts:
        route = "output"
    else:
        route = {"error": "refine", "mismatch": "refine", "empty": "explore"}[verdict]
    summary = f"attempt {current['n']}: {verdict}" + (f" ({'; '.join(problems)})" if problems else "") + f" → {route}"
    if route == "output" and verdict != "ok":
        summary += f" (attempts used: {done}/{ctx.max_attempts})"
    return {"attempts": [current], "current": None, "route": route, **update,
            "trace": _trace("verify", start, summary)}


def refine(state, runtime) -> dict:
    """After an error or an off-shape answer: queue the repaired query (reshaped, or with the safe fixes),
    and record what was wrong; the LLM (when there is one) sees the failure in its next prompt."""
    start = time.perf_counter()
    last = state["attempts"][-1]
    expects = state["analysis"].get("expects") or {}
    actions, queued = [], []
    for suggestion in last.get("suggest") or []:
        queued.append({**suggestion, "fix": True})
        actions.append(f"queued {suggestion['source']}: {suggestion['why']}")
    if last["verdict"] == "mismatch" and not queued:
        reshaped, notes = cands.shape_to(last["generated"], expects, last.get("shape"))
        if notes and normalise_query(reshaped) != normalise_query(last["sparql"]):
            queued.append({"sparql": reshaped, "source": f"refine:{last['n']}", "why": "; ".join(notes),
                           "patterns": [], "covers": last.get("covers", []), "fix": True})
            actions += notes
    if not queued:
        actions.append("no repair for this query: the next candidate is tried")
    record = {"after_attempt": last["n"], "node": "refine", "reason": last["verdict"], "problems": last["problems"],
              "actions": actions, "queued": len(queued)}
    update = {"candidates": queued + list(state.get("candidates") or []), "refinements": [record]}
    return {**update, "trace": _trace("refine", start, f"after attempt {last['n']} ({last['verdict']}): "
                                      + "; ".join(actions))}


def explore(state, runtime) -> dict:
    """After an empty answer: search the ontology, probe the named words, and queue what they suggest.

    Every probe is recorded as a finding, including those that found nothing, and the refinement
    record says what was queued (or that nothing was).
    """
    from .explore import proposals

    start, ctx = time.perf_counter(), runtime.context
    last = state["attempts"][-1]
    analysis = state["analysis"]
    known = {f.get("word") for f in state.get("exploration") or [] if f.get("kind") == "word"}
    findings = []
    schema = state.get("schema") or ""
    if ctx.ontology and not any(f.get("kind") == "ontology" for f in state.get("exploration") or []):
        if "schema_hits" in analysis:  # searched when the question was read
            result = {"available": bool(analysis["schema_hits"]), "hits": analysis["schema_hits"], "text": schema,
                      "note": analysis.get("schema_note") or (None if analysis["schema_hits"]
                                                              else "no ontology term matched")}
        else:
            result = search_schema(state["question"], None, ctx.kb)
        schema = result["text"] or schema
        curies = [h["curie"] for h in result["hits"]]
        findings.append({"kind": "ontology", "available": result["available"], "hits": result["hits"],
                         "summary": (f"ontology terms: {', '.join(curies)}" if curies else result["note"]
                                     or "no ontology term matched")})
    words = [w for w in (analysis.get("expects") or {}).get("words", [])][:MAX_WORDS]
    for word in words:
        if word in known:
            continue
        probe = probe_word(ctx, word)
        findings.append({"kind": "word", **probe, "summary": word_summary(probe)})
    if not words:
        findings.append({"kind": "word", "word": None, "found": False,
                         "summary": "the question names no word to probe"})
    every = [f for f in (state.get("exploration") or []) + findings if f.get("kind") == "word" and f.get("word")]
    hits = [h for f in (state.get("exploration") or []) + findings if f.get("kind") == "ontology"
            for h in f.get("hits") or []]
    queued, actions = proposals(state, last, every, hits, ctx)
    record = {"after_attempt": last["n"], "node": "explore", "reason": "empty", "problems": last["problems"],
              "actions": actions or ["nothing found to change: the next candidate is tried"],
              "queued": len(queued)}
    summary = f"after attempt {last['n']} (empty): " + "; ".join(f["summary"] for f in findings) \
              + f"; queued {len(queued)}"
    return {"exploration": findings, "schema": schema, "refinements": [record],
            "candidates": queued + list(state.get("candidates") or []), "trace": _trace("explore", start, summary)}


def output(state, runtime) -> dict:
    """The answer: the verified attempt, else the first valid one (fallback), with its rows and a confidence."""
    start, ctx = time.perf_counter(), runtime.context
    attempts = state.get("attempts") or []
    chosen, fallback = None, False
    ok = [a for a in attempts if a.get("verdict") == "ok"]
    if ok:
        chosen = ok[-1]
    else:
        valid = [a for a in attempts if answered(a)] or [a for a in attempts if attempt_ok(a)]
        if valid:
            chosen, fallback = valid[0], True
    if chosen is None:
        final = {"sparql": attempts[0]["sparql"] if attempts else "", "source": None, "attempt": None,
                 "fallback": True, "confidence": 0.0, "rows": None, "verdict": "none",
                 "reason": "no attempt ran without an error"}
        return {"final": final, "trace": _trace("output", start, final["reason"])}
    rows = ctx.rows_of(chosen["sparql"])
    final = {"sparql": chosen["sparql"], "source": chosen["source"], "attempt": chosen["n"], "fallback": fallback,
             "confidence": confidence(chosen, fallback), "rows": rows.to_dict() if rows is not None else None,
             "verdict": chosen["verdict"],
             "reason": ("verified" if not fallback else
                        f"no attempt verified in {len(attempts)}: first valid attempt ({chosen['verdict']})")}
    summary = f"attempt {chosen['n']} ({final['reason']}), confidence {final['confidence']:.2f}"
    return {"final": final, "trace": _trace("output", start, summary)}


def confidence(attempt: dict, fallback: bool) -> float:
    """0.9 for a query verified at the first attempt, 0.15 less per later attempt, ×0.8 when it is not the
    catalogue's own reading, ×0.95 when execute had to fix it; a fallback gets 0.3 (0.15 if it is empty)."""
    if fallback:
        return 0.3 if answered(attempt) else 0.15
    value = 0.9 - 0.15 * (attempt["n"] - 1)
    if attempt.get("source") != "catalogue":
        value *= 0.8
    if attempt.get("fixes"):
        value *= 0.95
    return round(max(0.05, value), 2)
