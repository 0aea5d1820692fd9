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
  related words through that relation;
* an English word the concept model mapped to an Italian lemma → the question
  re-read with each of the model's other candidate lemmas.

:func:`asked_relation` (used by ``verify``) finds the relation or lemma property
the ontology search ranks for the question, that the named word has and the
query leaves out ("the gender of «mano»" → ``lila:hasGender``).

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
#: The concept model's other candidates at least this similar are tried when a mapped word finds nothing.
CONCEPT_SCORE = 0.7
#: Slot changes that leave the relation as the only fact asked about the word.
ONLY_THE_RELATION = {"definition": False, "definition_contains": None, "translation": False, "emotion_project": False,
                     "polarity_project": False, "forms": False, "senses_count": False, "complit_pos": False}


def proposals(state: dict, last: dict, words: list[dict], hits: list[dict], ctx,
              base: list[str] | None = None) -> tuple[list[dict], list[str]]:
    """Candidates suggested by the word findings and the ontology ``hits``, and one action line per idea.

    The anchors are changed in the ``base`` queries (default: the last attempt's and the first reading's).
    """
    queued: list[dict] = []
    actions: list[str] = []
    tried = set(state.get("tried") or [])
    remapped = base is not None  # the question re-read with a word as written: no other concept to try
    if base is None:
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
        queued.append({"sparql": sparql, "source": f"explore:{source}", "why": why, "patterns": [],
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
    for mapped in [] if remapped else (state.get("analysis") or {}).get("slots", {}).get("concepts") or []:
        others = [a["lemma"] for a in mapped.get("alternatives") or [] if a.get("score", 0) >= CONCEPT_SCORE]
        for other in others:
            for c in cands.from_readings(ctx.translator, state["question"], [], {mapped["slot"]: other},
                                         source="concept")[:1]:
                add(c["sparql"], "concept", f"{mapped['written']!r} read as {other!r}, the concept model's next lemma")
        if others:
            actions.append(f"{mapped['written']!r} also read as " + ", ".join(repr(o) for o in others))
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
    """Whether the query leaves out the relation or property the question asks about.

    The one asked is the best of the ontology's first hits that the named word has: a sense relation
    its CompL-it senses have (outgoing), or a property of its Italian lemma ("the gender of «mano»":
    ``lila:hasGender``). When the query uses neither it nor its inverse, returns the problem, the
    candidates through it, and the probe finding (``(None, [], findings)`` when all is well).
    """
    from ..ontology import load_catalog

    catalog = load_catalog()
    hits = [h for h in (state.get("analysis") or {}).get("schema_hits") or []][:ASKED_TOP]
    hits = [h for h in hits if h.get("score", 0) >= ASKED_SCORE and catalog.get(h.get("curie", ""))
            and catalog.get(h["curie"]).kind == "property"]
    words = [w["word"] for w in ((state.get("analysis") or {}).get("expects") or {}).get("words") or []]
    if not hits or len(words) != 1:
        return None, [], []
    iris = {h["curie"]: catalog.get(h["curie"]).iri for h in hits}
    wanted = set(iris.values()) | set(fixes.INVERSE)
    used = {iri for _, iri in predicate_tokens(attempt["sparql"], wanted)}
    if used & set(iris.values()):
        return None, [], []
    known = [f for f in state.get("exploration") or [] if f.get("kind") == "word" and f.get("word") == words[0]]
    findings = [] if known else [_word_finding(probe_word(ctx, words[0]))]
    probe = (known or findings)[0]
    relations = probe["complit"].get("relations") or {}
    properties = probe.get("properties") or {}
    for h in hits:
        iri = iris[h["curie"]]
        if iri in used or fixes.INVERSE.get(iri) in used:
            continue
        if relation_iri(h["curie"]) and relations.get(h["curie"], {}).get("out"):
            problem = f"the question asks about {h['curie']}, which {words[0]!r} has, and the query does not use it"
            return problem, through_relation(ctx, state["question"], words[0], iri), findings
        if properties.get(iri):
            problem = f"the question asks about {h['curie']}, which {words[0]!r} has, and the query does not use it"
            return problem, [property_values(words[0], iri, h["curie"])], findings
    return None, [], findings


def property_values(word: str, iri: str, name: str) -> dict:
    """A candidate: the values of a property of the named word's Italian lemma (``?gender`` for
    ``lila:hasGender``), built with the catalogue's frame for a named word."""
    import re

    from ..patterns.compose import finish_query, start_frame
    from ..sparql.model import IRI, Triple, Var, render

    local = re.sub(r"^(?:has|is)(?=[A-Z])", "", name.split(":", 1)[-1]) or "value"
    frame = start_frame("word", word)
    value = Var(local[:1].lower() + local[1:])
    frame.where.add(Triple(frame.lemma, IRI(iri), value))
    frame.project(value)
    return {"sparql": render(finish_query(frame)), "source": "property", "why": f"{word!r}'s {name}",
            "patterns": []}


def _word_finding(probe: dict) -> dict:
    return {"kind": "word", **probe, "summary": word_summary(probe)}
