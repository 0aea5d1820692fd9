"""What ``explore`` proposes once it knows where the named words live.

For each named word probed (:func:`~nl2sparql.agent.tools.probe_word`):

* written only in a dialect bank → the question re-read with the word as the
  dialect translation it is (``translation_target``), so the Italian lemmas
  translated as it are asked for;
* a hypolemma (and no lemma) → the anchor read as ``lila:Hypolemma``, then as
  the hypolemma's lemma;
* only a CompL-it word (no LiITA lemma) → the word looked up inside SERVICE;
* spelled otherwise in the KB (case) → the spelling the KB has;
* its senses have the asked relation only the other way → the relation flipped
  (``execute`` tries that too; here it also reaches queries whose relation
  returned rows for another word);
* its senses carry a relation the ontology search ranks for the question and the
  query does not use (``complit:usedFor``, ``complit:madeOf``…) → the word's
  related words through that relation.

Each proposal is a candidate for ``generate`` (``source`` ``explore:…``), put at
the front of the queue; nothing found is said in the actions too.
"""

from __future__ import annotations

from ..namespaces import COMPLIT_SERVICE
from . import candidates as cands
from . import fixes, rewrite
from .query import predicate_tokens
from .state import normalise_query
from .tools import curie, probe_word, relation_iri, word_summary

#: An ontology hit names the asked relation when it is among the first ``ASKED_TOP`` with at least this score.
ASKED_SCORE = 0.6
ASKED_TOP = 3
#: Slot changes that leave the relation as the only fact asked about the word.
ONLY_THE_RELATION = {"definition": False, "definition_contains": None, "translation": False, "emotion_project": False,
                     "polarity_project": False, "forms": False, "senses_count": False, "complit_pos": False}


def proposals(state: dict, last: dict, words: list[dict], hits: list[dict], ctx) -> tuple[list[dict], list[str]]:
    """Candidates suggested by the word findings and the ontology ``hits``, and one action line per idea."""
    queued: list[dict] = []
    actions: list[str] = []
    tried = set(state.get("tried") or [])
    base = [last.get("generated") or last["sparql"]]
    first = _first_reading(state)
    if first and normalise_query(first) != normalise_query(base[0]):
        base.append(first)

    def add(sparql: str | None, source: str, why: str) -> None:
        if not sparql:
            return
        key = normalise_query(sparql)
        if key in tried or any(normalise_query(c["sparql"]) == key for c in queued):
            return
        queued.append({"sparql": sparql, "source": f"explore:{source}", "why": why, "patterns": [], "covers": [],
                       "fix": True})

    for finding in words:
        word, where = finding["word"], set(finding.get("where") or [])
        if not finding.get("found"):
            actions.append(f"{word!r} does not exist in the KB: no anchor to change")
            continue
        dialects = where & {"siciliano", "parmigiano"}
        if dialects and "italian" not in where:
            dialect = sorted(dialects)[0]
            changes = {"word": None, "translation_target": word, "dialects": [dialect], "translation": False,
                       "relation": None, "relation_mode": None}
            for c in cands.from_readings(ctx.translator, state["question"], [], changes, source="explore"):
                add(c["sparql"], "dialect", f"{word!r} is a {dialect} word: asked as its Italian translation")
            actions.append(f"{word!r} is only a {dialect} lemma: re-read as the translation of Italian lemmas")
        if "hypolemma" in where and "italian" not in where:
            for query in base:
                add(rewrite.as_hypolemma(query, word), "hypolemma", f"{word!r} is a hypolemma")
                add(rewrite.lemma_of_hypolemma(query, word), "hypolemma-lemma",
                    f"{word!r} is a hypolemma: its lemma")
            actions.append(f"{word!r} is a hypolemma: anchored as lila:Hypolemma, then through its lemma")
        if "complit" in where and "italian" not in where:
            for query in base:
                add(rewrite.anchor_in_complit(query, word, COMPLIT_SERVICE), "complit",
                    f"{word!r} is only in CompL-it: looked up inside SERVICE")
            actions.append(f"{word!r} is only a CompL-it word: looked up inside SERVICE")
        spelled = {f["written"] for f in finding.get("liita") or []} | set(finding["complit"].get("spelled") or [])
        if spelled and word not in spelled:
            right = sorted(spelled)[0]
            for query in base:
                add(_respell(query, word, right), "spelling", f"the KB writes {right!r}")
            actions.append(f"{word!r} is written {right!r} in the KB")
        _relation_proposals(state, finding, hits, base, add, actions, ctx)
    return queued, actions


def _first_reading(state: dict) -> str | None:
    """The query of the first attempt that came from the catalogue (the base for rewrites)."""
    for a in state.get("attempts") or []:
        if a.get("source") == "catalogue":
            return a.get("generated") or a["sparql"]
    return None


def _respell(sparql: str, word: str, right: str) -> str | None:
    """Every string literal equal to ``word`` (any case) written as the KB writes it."""
    from ..sparql.lexer import apply_edits, tokenize
    edits = [(t.start, t.start + len(t.text), f"{t.text[0]}{right}{t.text[0]}") for t in tokenize(sparql)
             if t.kind == "string" and t.text[1:-1].lower() == word.lower() and t.text[1:-1] != right]
    return apply_edits(sparql, edits) if edits else None


def _relation_proposals(state, finding, hits, base, add, actions, ctx) -> None:
    """Flip a relation the word's senses have only the other way; offer a relation the ontology ranks."""
    relations = finding["complit"].get("relations") or {}
    if not relations:
        return
    for query in base:
        used = {iri for _, iri in predicate_tokens(query, fixes.INVERSE)}
        for iri in used:
            name = curie(iri)
            have = relations.get(name, {})
            if not have.get("out") and have.get("in"):
                flipped, done = fixes.flip_relations(query)
                add(flipped, "flip", f"{finding['word']!r} has {name} only incoming: " + ", ".join(done))
                actions.append(f"{finding['word']!r}: {name} only the other way, relation flipped")
    asked = [h["curie"] for h in hits if h.get("curie") in relations and relations[h["curie"]].get("out")]
    for name in asked[:1]:
        iri = relation_iri(name)
        if iri is None or any(iri in q for q in base):
            continue
        for c in through_relation(ctx, state["question"], finding["word"], iri):
            add(c["sparql"], "relation", f"the ontology ranks {name}, which {finding['word']!r}'s senses have")
        actions.append(f"{finding['word']!r}: asked through {name} (ranked by the ontology search)")


def through_relation(ctx, question: str, word: str, iri: str) -> list[dict]:
    """The words related to ``word`` through the sense relation ``iri`` (the catalogue's relation block
    with that property; its answer column is named ``?related``)."""
    changes = {"word": word, "relation": "synonym", "relation_property": iri, "relation_mode": "project",
               **ONLY_THE_RELATION}
    out = []
    for c in cands.from_readings(ctx.translator, question, [], changes, source="relation"):
        c["sparql"] = rewrite.rename_var(c["sparql"], "synonym", "related")
        c["why"] = f"the words {word!r} leads to through {curie(iri)}"
        out.append(c)
    return out


def asked_relation(state: dict, attempt: dict, ctx) -> tuple[str | None, list[dict], list[dict]]:
    """Whether the query leaves out the sense relation the question asks about.

    The relation asked is the best of the ontology's first hits that the named word's senses have
    (outgoing); when the query uses neither it nor its inverse, returns the problem, the candidates
    through that relation, and the probe finding (``(None, [], findings)`` when all is well).
    """
    hits = [h for h in (state.get("analysis") or {}).get("schema_hits") or []][:ASKED_TOP]
    hits = [h for h in hits if h.get("score", 0) >= ASKED_SCORE and relation_iri(h.get("curie", ""))]
    words = ((state.get("analysis") or {}).get("expects") or {}).get("words") or []
    if not hits or not words:
        return None, [], []
    wanted = {relation_iri(h["curie"]) for h in hits} | set(fixes.INVERSE)
    used = {iri for _, iri in predicate_tokens(attempt["sparql"], wanted)}
    if any(relation_iri(h["curie"]) in used for h in hits):
        return None, [], []
    known = [f for f in state.get("exploration") or [] if f.get("kind") == "word" and f.get("word") == words[0]]
    findings = [] if known else [_word_finding(probe_word(ctx, words[0]))]
    relations = (known or findings)[0]["complit"].get("relations") or {}
    for h in hits:
        iri = relation_iri(h["curie"])
        if not relations.get(h["curie"], {}).get("out") or iri in used or fixes.INVERSE.get(iri) in used:
            continue
        problem = f"the question asks about {h['curie']}, which {words[0]!r} has, and the query does not use it"
        return problem, through_relation(ctx, state["question"], words[0], iri), findings
    return None, [], findings


def _word_finding(probe: dict) -> dict:
    return {"kind": "word", **probe, "summary": word_summary(probe)}
