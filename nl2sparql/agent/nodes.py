"""The nodes: plain functions ``(state, runtime) -> update`` over the plain-data state.

``analyze → plan → retrieve → generate → execute → verify``; ``analyze`` ends
the run at once (``output``) for a question that is not about LiITA. ``verify``
sets ``route`` to ``output`` (the answer agrees with the question), ``refine``
(an error or an answer the checks reject; then ``retrieve``), ``explore`` (no
rows, or a "no" about a word; then ``generate``) or ``output`` again when the
attempts are used up. ``generate`` with nothing left to try also goes to
``output``, which returns the best verified attempt, or says plainly that none
could be verified and what was tried.

The question is read once, by the translator (its reading, its choice of
query, its other plans); :mod:`.checks` says what the answer must be. Without an
LLM every node works from the catalogue, the retrieved examples and the KB; with
one (``runtime.context.llm``) ``plan`` asks the fast tier and ``generate`` the
default tier, and each goes on offline when the LLM fails. Each node adds one
record to ``trace``.
"""

from __future__ import annotations

import time

from . import candidates as cands
from . import checks, fixes, llm_steps
from .confidence import confidence
from .state import answered, attempt_ok, normalise_query
from .tools import probe_word, search_schema, word_summary

#: Probe at most this many named words when exploring.
MAX_WORDS = 3


def _trace(node: str, start: float, summary: str) -> list[dict]:
    return [{"node": node, "ms": round((time.perf_counter() - start) * 1000, 2), "summary": summary}]


def analyze(state, runtime) -> dict:
    """Read the question with the translator: its slots, its plan and query, what the answer must be; or
    say that it is not about LiITA (then nothing is run)."""
    from ..patterns import detect_patterns
    from ..service.topic import off_topic

    start, ctx = time.perf_counter(), runtime.context
    question = state["question"]
    reason = off_topic(question)
    if reason is not None:
        return {"analysis": {"off_topic": reason}, "route": "output", "trace": _trace("analyze", start, reason)}
    result = ctx.translator.translate(question)
    reading = result.to_dict()
    steps = (result.slots.get("plan") or [])
    analysis = {"language": result.slots.get("lang", "it"), "patterns": detect_patterns(question),
                "slots": result.slots,
                "shape": result.shape,
                "complexity": ("simple", "simple", "moderate")[min(2, len(steps))] if len(steps) < 3 else "complex",
                "reading": {k: reading[k] for k in ("sparql", "source", "shape", "confidence", "warnings",
                                                     "alternatives")},
                "expects": checks.expectations(question, reading)}
    examples = [{"id": e.id, "score": round(e.score, 4), "question": e.question, "patterns": list(e.patterns),
                 "shape": e.shape, "sparql": e.sparql} for e in result.examples]
    expects = analysis["expects"]
    summary = (f"{analysis['language']}, {expects['form']}, read as {result.shape} "
               f"({', '.join(s.get('pattern', '?') for s in steps) or 'no pattern'})")
    if expects["gaps"]:
        summary += "; " + "; ".join(expects["gaps"])
    update: dict = {"examples": examples}
    if ctx.ontology:
        schema = search_schema(question, None, ctx.kb)
        analysis["schema_hits"] = [{"curie": h["curie"], "score": h["score"], "kind": h.get("kind"),
                                    "count": h.get("count")} for h in schema["hits"]]
        if schema["note"]:
            analysis["schema_note"] = schema["note"]
        update["schema"] = schema["text"]
        summary += "; ontology: " + (", ".join(h["curie"] for h in schema["hits"][:3]) or schema["note"] or "-")
    return {"analysis": analysis, "route": "plan", **update, "trace": _trace("analyze", start, summary)}


def plan(state, runtime) -> dict:
    """Sub-tasks the query must carry out, in order (from the translator's plan; the fast tier with an LLM)."""
    start, ctx = time.perf_counter(), runtime.context
    analysis = state["analysis"]
    subtasks = offline_subtasks(analysis)
    source, note = "catalogue", f"{len(subtasks)} sub-task(s) from the translator's plan"
    if ctx.llm is not None:
        written, note = llm_steps.plan_subtasks(ctx.llm, state["question"], analysis, subtasks)
        if written is not None:
            subtasks, source = written, "llm"
    return {"plan": {"subtasks": subtasks, "source": source}, "trace": _trace("plan", start, note)}


def offline_subtasks(analysis: dict) -> list[dict]:
    """One sub-task per step of the translator's plan, then the answer form."""
    slots = analysis.get("slots") or {}
    expects = analysis.get("expects") or {}
    steps = []
    if slots.get("word"):
        steps.append({"pattern": None, "do": f"find the lemma written {slots['word']!r}"})
    for step in slots.get("plan") or []:
        values = ", ".join(f"{k}={v}" for k, v in step.items() if k != "pattern")
        label = step.get("pattern")
        steps.append({"pattern": label, "do": f"{label}" + (f" ({values})" if values else "")})
    answer = {"ask": "answer yes or no (ASK)", "count": "answer with one number (COUNT)"}.get(
        expects.get("form"), "show the written forms and values asked for")
    steps.append({"pattern": None, "do": answer})
    return [{"step": n, **s} for n, s in enumerate(steps, 1)]


def retrieve(state, runtime) -> dict:
    """The pool examples closest to the question (those the translator retrieved when it read the question)."""
    start, ctx = time.perf_counter(), runtime.context
    if state.get("examples") or state.get("attempts"):
        return {"trace": _trace("retrieve", start, f"kept the {len(state.get('examples') or [])} example(s) "
                                                   "retrieved")}
    examples = [{"id": e.id, "score": round(e.score, 4), "question": e.question, "patterns": list(e.patterns),
                 "shape": e.shape, "sparql": e.sparql} for e in ctx.translator.examples(state["question"])]
    summary = f"{len(examples)} example(s)" + (f", best {examples[0]['id']} ({examples[0]['score']:.2f})"
                                               if examples else " (no pool)")
    return {"examples": examples, "trace": _trace("retrieve", start, summary)}


def _first_candidates(state, ctx) -> tuple[list[dict], list[str]]:
    """The offline queue: the translator's query, its other readings, then the adapted examples."""
    from ..translate.offline import Example

    analysis = state["analysis"]
    reading = analysis.get("reading") or {}
    examples = state.get("examples") or []
    # the plans ranked as the translator ranks them (same examples): the first is its own query, unless it
    # borrowed a similar example's reading or query, which then goes first
    queue = cands.from_readings(ctx.translator, state["question"], [Example(**e) for e in examples],
                                source="reading")
    if queue and reading.get("source", "catalogue") == "catalogue":
        queue[0].update(source="catalogue", why="the translator's reading: " + queue[0]["why"])
    elif reading.get("sparql"):
        queue.insert(0, {"sparql": reading["sparql"], "source": reading["source"], "shape": reading.get("shape"),
                         "why": f"the translator's reading, borrowed from a similar example ({reading['source']})"})
    seen = {normalise_query(c["sparql"]) for c in queue}
    adapted, notes = cands.from_examples(examples, analysis.get("slots") or {}, seen)
    return cands.unique(queue + adapted), notes


def generate(state, runtime) -> dict:
    """The next query to try: the LLM's (with an LLM), else the queued candidate that leaves the least of the
    question out (ties: queue order), put in the form the question asks for."""
    start, ctx = time.perf_counter(), runtime.context
    queue = list(state.get("candidates") or [])
    notes = []
    if not state.get("attempts") and not queue and not state.get("tried"):
        queue, notes = _first_candidates(state, ctx)
    tried = list(state.get("tried") or [])
    expects = state["analysis"].get("expects") or {}
    chosen = None
    if ctx.llm is not None and not (queue and queue[0].get("fix")):
        sparql, note = llm_steps.write_query(ctx.llm, state)
        if sparql is not None and normalise_query(sparql) in tried:
            note = "the LLM wrote a query already tried; using the offline candidates"
        elif sparql is not None:
            chosen = {"sparql": sparql, "source": "llm", "why": note, "patterns": []}
        notes.append(note)
    queue = [c for c in queue if normalise_query(cands.shape_to(c["sparql"], expects)[0]) not in tried]
    if chosen is None and queue:
        for c in queue:
            if "problems" not in c:
                c["problems"] = checks.query_problems(expects, cands.shape_to(c["sparql"], expects)[0])
        # a fix queued after a failure first; then a reading that leaves nothing of the question out, in the
        # translator's order; a similar example's query only when no reading is left that does
        best = min(range(len(queue)), key=lambda i: (not queue[i].get("fix"), bool(queue[i]["problems"]),
                                                     queue[i]["source"].startswith("example:"), i))
        chosen = queue.pop(best)
    if chosen is None:
        return {"candidates": queue, "current": None, "route": "output",
                "trace": _trace("generate", start, "nothing left to try" + _join(notes))}
    generated = chosen["sparql"]
    sparql, shaped = cands.shape_to(generated, expects)
    tried.append(normalise_query(sparql))
    current = {"n": len(state.get("attempts") or []) + 1, "sparql": sparql, "generated": generated,
               "source": chosen["source"], "why": chosen["why"], "shape": chosen.get("shape"),
               "shaped": shaped, "problems": checks.query_problems(expects, sparql)}
    summary = f"attempt {current['n']}: {chosen['source']} ({chosen['why']})" + _join(shaped + notes)
    if current["problems"]:
        summary += " [leaves out: " + "; ".join(current["problems"]) + "]"
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
    """Judge the attempt against the question (:mod:`.checks`): error, empty, mismatch (a word, a value or a
    pattern of the question left out, an answer of another type, every lemma, a "yes" its positive query does
    not back, a "no" about a word the KB does not have, a relation or property asked and not used) or ok."""
    start, ctx = time.perf_counter(), runtime.context
    current = dict(state["current"])
    analysis = state["analysis"]
    expects = analysis.get("expects") or {}
    update: dict = {}
    suggest: list[dict] = []
    if current.get("error"):
        verdict, problems = "error", [current["error"]]
    elif current.get("form") != "ask" and not current.get("rows"):
        verdict, problems = "empty", ["the query returns no rows"]
    else:
        problems = checks.query_problems(expects, current["sparql"])
        problems += checks.answer_problems(expects, current, *_sizes(ctx, current))
        if current.get("form") == "ask":
            found, fix = _yes_no(state, current, ctx, update)
            problems += found
            suggest += fix
        if not problems and ctx.ontology:  # (what the reading could not read is a problem of its own, below)
            from .explore import asked_relation
            problem, proposed, findings = asked_relation(state, current, ctx)
            if findings:
                update["exploration"] = findings
            if problem:
                problems.append(problem)
                suggest += proposed
        if current.get("source") in READING_SOURCES:
            problems = list(expects.get("gaps") or []) + problems
            found, fix = _mapped_words(state, current, ctx, update)
            problems += found
            suggest += fix
        verdict = "mismatch" if problems else "ok"
        if verdict == "mismatch" and current.get("form") == "ask" and current.get("boolean") is False \
                and not suggest and any("not in the KB" in p for p in problems):
            verdict = "empty"  # a "no" about a word nowhere in the KB: explore where it is written
    current.update(verdict=verdict, problems=problems)
    if suggest:
        current["suggest"] = suggest
    done = len(state.get("attempts") or []) + 1
    if verdict == "ok" or done >= ctx.max_attempts:
        route = "output"
    else:
        route = {"error": "refine", "mismatch": "refine", "empty": "explore"}[verdict]
    summary = f"attempt {current['n']}: {verdict}" + (f" ({'; '.join(problems)})" if problems else "") + f" → {route}"
    if route == "output" and verdict != "ok":
        summary += f" (attempts used: {done}/{ctx.max_attempts})"
    return {"attempts": [current], "current": None, "route": route, **update,
            "trace": _trace("verify", start, summary)}


#: Where the translator's own reading came from: what it could not read is a problem of these attempts.
READING_SOURCES = ("catalogue", "adapted", "example", "reading")
#: An answer with at least this many rows is compared with the number of lemmas of the KB.
MANY_ROWS = 100


def _sizes(ctx, current: dict) -> tuple[int | None, int | None]:
    """``(lemmas of the KB, rows of the whole answer)`` when the answer is large enough to list every lemma
    (``(None, None)`` otherwise); an answer cut at the row cap is counted."""
    from . import rewrite

    if (current.get("rows") or 0) < MANY_ROWS and not current.get("truncated"):
        return None, None
    total = current.get("rows")
    if current.get("truncated"):
        counted = rewrite.to_count(current["sparql"])
        total = _number(ctx.run_query(counted)) if counted else None
    return (ctx.lemma_total(), total) if total and total >= MANY_ROWS else (None, None)


def _number(run: dict) -> int | None:
    """The number a one-cell answer holds (``None`` when it holds none)."""
    try:
        return int(run["preview"][0][0])
    except (IndexError, KeyError, TypeError, ValueError):
        return None


def _yes_no(state, current: dict, ctx, update: dict) -> tuple[list[str], list[dict]]:
    """Check a yes/no answer by the positive query it stands for: a "yes" needs a row where the fact asked is
    bound; a "no" needs the named word to exist. Returns the problems and the queries that would fix them."""
    from . import rewrite

    positive = checks.positive_query(current["sparql"])
    if positive is None:
        return [], []
    if current.get("boolean"):
        run = ctx.run_query(positive)
        table = ctx.rows_of(positive)
        rows = table.values() if table is not None else []
        problems = checks.yes_problems(current["sparql"], {**run, "preview": rows})
        if not problems:
            return [], []
        required = rewrite.required_optionals(current["sparql"])
        fix = [{"sparql": required, "source": "required", "why": "the fact asked made required (not OPTIONAL)",
                "patterns": []}] if required else []
        return problems, fix
    words = [w["word"] for w in (state["analysis"].get("expects") or {}).get("words") or []][:MAX_WORDS]
    problems = []
    for word in words:
        probe = _probe(state, ctx, update, word)
        if not probe["found"]:
            problems.append(f"{word!r} is not in the KB: a no about it says nothing")
    return problems, []


#: A concept mapping at least this similar is taken as read; below it, the word as written is probed.
MAPPED_SURE = 0.85


def _mapped_words(state, current: dict, ctx, update: dict) -> tuple[list[str], list[dict]]:
    """Check the words the concept model mapped to other lemmas: a mapping it is not sure of stands only when
    the word as written is nowhere in the KB and the model is at least fairly sure; when the KB has the word
    as written (a dialect word, a hypolemma, …), the question is re-read with it and explored from there."""
    from .explore import proposals

    problems, fix = [], []
    for mapped in (state["analysis"].get("slots") or {}).get("concepts") or []:
        if mapped.get("score", 0) >= MAPPED_SURE or not checks.uses_value(current.get("generated")
                                                                          or current["sparql"], mapped["lemma"]):
            continue
        written = mapped["written"]
        probe = _probe(state, ctx, update, written)
        if not probe["found"]:
            problems.append(f"{written!r} is nowhere in the KB; {mapped['lemma']!r} is only the concept model's "
                            f"guess (similarity {mapped['score']:.2f})")
            continue
        if set(probe["where"]) <= {"form"}:
            continue  # an inflected form: its lemma is what the question is about
        problems.append(f"the KB has {written!r} ({', '.join(probe['where'])}), but the reading asked about "
                        f"{mapped['lemma']!r} (similarity {mapped['score']:.2f})")
        again = cands.from_readings(ctx.translator, state["question"], [], {mapped["slot"]: written},
                                    source="written")
        found, _ = proposals(state, current, [probe], [], ctx, base=[c["sparql"] for c in again[:1]])
        fix += found + [{**c, "why": f"{written!r} as written: " + c["why"]} for c in again[:1]]
    return problems, fix


def _probe(state, ctx, update: dict, word: str) -> dict:
    """Where ``word`` lives in the KB: the finding already made, else a probe (recorded in ``exploration``)."""
    for finding in (state.get("exploration") or []) + (update.get("exploration") or []):
        if finding.get("kind") == "word" and finding.get("word") == word:
            return finding
    probe = probe_word(ctx, word)
    update.setdefault("exploration", []).append({"kind": "word", **probe, "summary": word_summary(probe)})
    return probe


def refine(state, runtime) -> dict:
    """After an error or an answer the checks reject: queue what the checks proposed (the fact made required,
    the relation asked), and record what was wrong; the next candidate is the one that leaves the least out."""
    start = time.perf_counter()
    last = state["attempts"][-1]
    actions, queued = [], []
    for suggestion in last.get("suggest") or []:
        queued.append({**suggestion, "fix": True})
        actions.append(f"queued {suggestion['source']}: {suggestion['why']}")
    if not queued:
        actions.append("no repair for this query: the next reading is tried")
    record = {"after_attempt": last["n"], "node": "refine", "reason": last["verdict"], "problems": last["problems"],
              "actions": actions, "queued": len(queued)}
    update = {"candidates": queued + list(state.get("candidates") or []), "refinements": [record]}
    return {**update, "trace": _trace("refine", start, f"after attempt {last['n']} ({last['verdict']}): "
                                      + "; ".join(actions))}


def explore(state, runtime) -> dict:
    """After an empty answer: search the ontology, probe the named words, and queue what they suggest (the
    other graph that holds a word, its spelling in the KB, the concept model's other lemmas, a relation).

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
    words = [w["word"] for w in (analysis.get("expects") or {}).get("words") or []][:MAX_WORDS]
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
    update: dict = {"exploration": findings}
    _, remapped = _mapped_words({**state, "exploration": every}, last, ctx, update)
    queued, actions = proposals(state, last, [f for f in every if f["word"] in words], hits, ctx)
    queued = cands.unique([{**c, "fix": True} for c in remapped] + queued)
    if remapped:
        actions.insert(0, f"a mapped word is in the KB as written: {len(remapped)} reading(s) with it queued")
    findings = update["exploration"]
    record = {"after_attempt": last["n"], "node": "explore", "reason": "empty", "problems": last["problems"],
              "actions": actions or ["nothing found to change: the next reading is tried"],
              "queued": len(queued)}
    summary = f"after attempt {last['n']} (empty): " + "; ".join(f["summary"] for f in findings) \
              + f"; queued {len(queued)}"
    return {"exploration": findings, "schema": schema, "refinements": [record],
            "candidates": queued + list(state.get("candidates") or []), "trace": _trace("explore", start, summary)}


def output(state, runtime) -> dict:
    """The answer: the first verified attempt; else the best unverified one (it ran, it answered, it left the
    least out), said plainly to be unverified with what was tried; a confidence that is a probability."""
    start, ctx = time.perf_counter(), runtime.context
    analysis = state.get("analysis") or {}
    if analysis.get("off_topic"):
        final = {"sparql": "", "source": "none", "attempt": None, "fallback": False, "confidence": 0.0,
                 "rows": None, "verdict": "off_topic", "verified": False, "reason": analysis["off_topic"]}
        return {"final": final, "trace": _trace("output", start, "not a question about LiITA: no query run")}
    attempts = state.get("attempts") or []
    ok = [a for a in attempts if a.get("verdict") == "ok"]
    tried = "; ".join(f"{a['n']}. {a['source']}: {a['verdict']}"
                      + (f" ({a['problems'][0]})" if a.get("problems") else "") for a in attempts)
    if ok:
        chosen, fallback = ok[0], False
    else:
        valid = [a for a in attempts if attempt_ok(a)]
        chosen = min(valid, key=lambda a: (not answered(a), len(a.get("problems") or []), a["n"])) if valid else None
        fallback = True
    if chosen is None:
        final = {"sparql": attempts[0]["sparql"] if attempts else "", "source": None, "attempt": None,
                 "fallback": True, "confidence": 0.0, "rows": None, "verdict": "none", "verified": False,
                 "reason": "no reading could be verified: no query ran without an error"
                           + (f" (tried {tried})" if tried else "")}
        return {"final": final, "trace": _trace("output", start, final["reason"])}
    rows = ctx.rows_of(chosen["sparql"])
    reason = ("verified" if not fallback else
              f"no reading could be verified in {len(attempts)} attempt(s); showing attempt {chosen['n']} "
              f"({chosen['verdict']}); tried {tried}")
    final = {"sparql": chosen["sparql"], "source": chosen["source"], "attempt": chosen["n"], "fallback": fallback,
             "confidence": confidence(chosen, analysis, not fallback), "rows": rows.to_dict() if rows is not None
             else None, "verdict": chosen["verdict"], "verified": not fallback, "reason": reason}
    summary = f"attempt {chosen['n']} ({'verified' if not fallback else 'unverified'}), " \
              f"confidence {final['confidence']:.2f}"
    return {"final": final, "trace": _trace("output", start, summary)}
