"""Offline candidates: the translator's ranked readings and retrieved examples adapted to the question.

A candidate is plain data: ``{"sparql", "source", "why", "patterns", "covers"}``.

* :func:`from_readings` renders every reading of the question
  (:meth:`~nl2sparql.translate.offline.OfflineTranslator.ranked`), best first;
  ``changes`` re-reads the question with some slots replaced (what
  ``explore`` learnt, e.g. the word is a Sicilian one).
* :func:`adapt_example` takes a pool example's query and replaces its anchor
  values (the named word, affixes, the emotion, the part of speech, the
  polarity class, the dialect) with the question's; an example whose anchors
  cannot all be replaced is not used.
* :func:`shape_to` makes a candidate answer in the form asked: the named word
  anchored when the query left it out, ASK for a yes/no question, a count for
  "how many", written forms rather than IRI columns nobody asked for, and no
  column that only echoes a condition.
"""

from __future__ import annotations

import re

from ..namespaces import EMOTIONS, PARMIGIANO_LEMMA_BANK, PREFIXES, SICILIANO_LEMMA_BANK
from ..sparql.lexer import apply_edits, declared_prefixes, tokenize
from . import query, rewrite
from .state import normalise_query

DIALECT_BANKS = {"parmigiano": PARMIGIANO_LEMMA_BANK, "siciliano": SICILIANO_LEMMA_BANK}
DIALECT_TAGS = {"parmigiano": "roa", "siciliano": "scn"}
POS_NAMES = ("noun", "verb", "adjective", "adverb", "pronoun", "numeral", "interjection", "adposition",
             "determiner", "proper_noun")
AFFIX_FUNCTIONS = {"STRSTARTS": "prefix", "STRENDS": "suffix", "CONTAINS": "contains", "REGEX": "regex"}


def from_readings(translator, question: str, examples: list, changes: dict | None = None,
                  source: str = "catalogue") -> list[dict]:
    """Every reading of ``question`` rendered as a candidate, best first."""
    out = []
    for n, reading in enumerate(translator.ranked(question, examples=examples, changes=changes), 1):
        labels = list(reading["patterns"])
        why = f"reading {n} ({reading['shape']}, score {reading['score']:.2f})"
        if changes:
            why += " with " + ", ".join(f"{k}={v}" for k, v in changes.items())
        out.append({"sparql": reading["sparql"], "source": source, "why": why, "patterns": labels,
                    "covers": [], "shape": reading["shape"]})
    return out


def vocabulary_reading(word: str) -> dict | None:
    """Slot changes reading a named word as the closed-vocabulary value it names (an emotion, a polarity
    class, a part of speech): «tristezza» → ``emotions=["Tristezza"]``; ``None`` for an ordinary word."""
    from ..patterns.vocab import EMOTION, POLARITY, POS

    folded = word.strip().lower()
    for name, names in EMOTION.items():
        if folded in (name.lower(), *names):
            return {"word": None, "quoted": [], "emotions": [name], "emotion_project": False}
    for name, (it, en) in POLARITY.items():
        if folded in (name.lower(), it, en, it[:-1] + "o", it[:-1] + "e"):
            return {"word": None, "quoted": [], "polarity": name, "polarity_project": False}
    for name, (it, en, _) in POS.items():
        if folded in (name, it, en, it[:-1] + "o", en[:-1]):
            return {"word": None, "quoted": [], "pos": name}
    return None


def from_vocabulary(translator, question: str, examples: list, words: list[str]) -> list[dict]:
    """Readings of the question with each named word that names a vocabulary value read as that value."""
    out = []
    for word in words:
        changes = vocabulary_reading(word)
        if changes is not None:
            for c in from_readings(translator, question, examples, changes, source="vocabulary"):
                c["why"] = f"{word!r} read as a vocabulary value: " + c["why"]
                out.append(c)
    return out


def _anchors(sparql: str) -> list[tuple[str, object, object]]:
    """The example's anchor values: ``(kind, token, value)`` for strings and vocabulary IRIs."""
    prefixes = {**PREFIXES, **declared_prefixes(sparql)}
    tokens = tokenize(sparql)
    out = []
    for i, tok in enumerate(tokens):
        if i and tokens[i - 1].upper == "PREFIX":
            continue
        if tok.kind == "string":
            func = query.call_of(tokens, i)
            if func in AFFIX_FUNCTIONS:
                out.append(("affix", tok, AFFIX_FUNCTIONS[func]))
            else:
                out.append(("word", tok, None))
            continue
        iri = query.token_iri(tok, prefixes)
        if iri is None:
            continue
        if iri.startswith(PREFIXES["elita"]) and iri[len(PREFIXES["elita"]):] in EMOTIONS:
            out.append(("emotion", tok, iri[len(PREFIXES["elita"]):]))
        elif iri.startswith(PREFIXES["lila"]) and iri[len(PREFIXES["lila"]):] in POS_NAMES:
            out.append(("pos", tok, iri[len(PREFIXES["lila"]):]))
        elif iri.startswith(PREFIXES["lila"]) and iri[len(PREFIXES["lila"]):] in ("masculine", "feminine"):
            out.append(("gender", tok, iri[len(PREFIXES["lila"]):]))
        elif iri.startswith(PREFIXES["marl"]) and iri[len(PREFIXES["marl"]):] in ("Positive", "Negative", "Neutral"):
            out.append(("polarity", tok, iri[len(PREFIXES["marl"]):]))
        elif iri in DIALECT_BANKS.values():
            out.append(("dialect", tok, next(d for d, b in DIALECT_BANKS.items() if b == iri)))
    return out


def _question_values(slots: dict) -> dict[str, list]:
    """The question's values per anchor kind."""
    words = [slots[k] for k in ("word", "relation_target", "translation_target") if slots.get(k)]
    words += [q for q in slots.get("quoted") or [] if q not in words and q not in
              [a for _, a in slots.get("affixes") or []]]
    affixes = [tuple(a) for a in slots.get("affixes") or []]
    if slots.get("definition_contains"):
        affixes.append(("contains", slots["definition_contains"]))
    return {"word": words, "affix": affixes, "emotion": list(slots.get("emotions") or []),
            "pos": [slots["pos"]] if slots.get("pos") else [],
            "gender": [slots["gender"]] if slots.get("gender") else [],
            "polarity": [slots["polarity"]] if slots.get("polarity") else [],
            "dialect": list(slots.get("dialects") or [])}


def adapt_example(example: dict, slots: dict) -> tuple[str | None, str]:
    """The example's query with its anchors replaced by the question's values, and what was done.

    ``None`` when the example's anchors and the question's values do not pair up one to one
    (another kind, another number), so the query would answer about the example's word.
    """
    sparql = example.get("sparql") or ""
    anchors = _anchors(sparql)
    wanted = _question_values(slots)
    edits, done = [], []
    by_kind: dict[str, list] = {}
    for kind, tok, value in anchors:
        by_kind.setdefault(kind, []).append((tok, value))
    for kind in set(by_kind) | {k for k, v in wanted.items() if v and k in ("word", "emotion", "affix")}:
        theirs, ours = by_kind.get(kind, []), wanted.get(kind, [])
        distinct = _distinct(theirs, kind)
        if len(distinct) != len(ours):
            return None, f"{kind}: the example has {len(distinct)}, the question {len(ours)}"
        mapping = dict(zip(distinct, ours))
        for tok, value in theirs:
            key = _key(tok, value, kind)
            new = mapping[key]
            text = _replace(tok, kind, value, new)
            if text is None:
                return None, f"{kind}: cannot put {new!r} in place of {tok.text}"
            if text != tok.text:
                edits.append((tok.start, tok.start + len(tok.text), text))
                done.append(f"{tok.text} → {text}")
    adapted = apply_edits(sparql, edits)
    if "dialect" in by_kind:
        adapted = _retag_dialect(adapted, by_kind["dialect"], wanted["dialect"])
    return adapted, "; ".join(done) or "used as is"


def _key(tok, value, kind: str):
    """What identifies one anchor value (a string's text without tag, an IRI's local name)."""
    if kind == "word":
        return tok.text[1:-1].lower()
    if kind == "affix":
        return (value, tok.text[1:-1].strip("^$").lower())
    return value


def _distinct(theirs: list, kind: str) -> list:
    seen = []
    for tok, value in theirs:
        key = _key(tok, value, kind)
        if key not in seen:
            seen.append(key)
    return seen


def _replace(tok, kind: str, old, new) -> str | None:
    """The text that replaces one anchor token."""
    if kind == "word":
        quote = tok.text[0]
        return f"{quote}{new}{quote}" if quote not in str(new) else None
    if kind == "affix":
        want_kind, affix = new
        if old == "regex":
            body = tok.text[1:-1]
            core = re.escape(affix) if re.escape(affix) == affix else None
            if core is None:
                return None
            return tok.text[0] + ("^" + core if want_kind == "prefix" else core + "$" if want_kind == "suffix"
                                  else core) + tok.text[0] if body else None
        if want_kind != old:
            return None
        return f'{tok.text[0]}{affix}{tok.text[0]}'
    if tok.kind == "pname":
        return tok.text.split(":", 1)[0] + ":" + str(new)
    if kind == "dialect":
        return f"<{DIALECT_BANKS[new]}>"
    base = tok.text[1:-1]
    return f"<{base[:base.rfind(str(old))]}{new}>"


def _retag_dialect(sparql: str, theirs: list, ours: list) -> str:
    """Language tags of dialect literals follow the dialect that replaced the example's."""
    old = [v for _, v in theirs]
    if len(old) != 1 or len(ours) != 1 or old[0] == ours[0]:
        return sparql
    return sparql.replace(f"@{DIALECT_TAGS[old[0]]}", f"@{DIALECT_TAGS[ours[0]]}")


def from_examples(examples: list[dict], slots: dict, seen: set[str]) -> tuple[list[dict], list[str]]:
    """Candidates from the retrieved examples (adapted), skipping queries already in ``seen``."""
    out, notes = [], []
    for e in examples:
        adapted, how = adapt_example(e, slots)
        if adapted is None:
            notes.append(f"example {e.get('id')}: not adaptable ({how})")
            continue
        key = normalise_query(adapted)
        if key in seen:
            continue
        seen.add(key)
        out.append({"sparql": adapted, "source": f"example:{e.get('id')}", "why": f"adapted example ({how})",
                    "patterns": list(e.get("patterns") or []), "covers": []})
    return out, notes


def shape_to(sparql: str, expects: dict, shape: str | None = None) -> tuple[str, list[str]]:
    """``sparql`` made to answer in the expected form (see the module docstring), with what changed.

    ``shape`` is the candidate's own (``list`` for a reading that lists entities), when known.
    """
    notes = []
    form = expects.get("form")
    words = [w for w in expects.get("words") or [] if vocabulary_reading(w) is None]
    if words and not any(query.uses_word(sparql, w) for w in words):
        anchored = rewrite.anchor_named(sparql, words[0])
        if anchored is not None:
            sparql = anchored
            notes.append(f"anchored the named word {words[0]!r}")
    if form == "ask" and query.outline(sparql) and query.outline(sparql).form == "select":
        asked = rewrite.to_ask(sparql)
        if asked is not None:
            return asked, notes + ["yes/no question: ASK"]
        return sparql, notes
    if form == "count":
        counted = rewrite.to_count(sparql)
        if counted is not None:
            return counted, notes + ["how-many question: COUNT"]
    if not expects.get("wants_iri"):
        iris = query.subject_vars(sparql) & set(query.projection(sparql))
        dropped = rewrite.drop_columns(sparql, iris) if iris else None
        if dropped is not None:
            sparql = dropped
            notes.append("dropped IRI column(s) " + ", ".join(f"?{v}" for v in sorted(iris)))
    if (shape or form) == "list" and not expects.get("shows_more") and not query.has_aggregate(sparql):
        echoes = query.evidence_columns(sparql)
        dropped = rewrite.drop_columns(sparql, echoes) if echoes else None
        if dropped is not None:
            sparql = dropped
            notes.append("dropped column(s) that only echo a condition: " + ", ".join(f"?{v}" for v in sorted(echoes)))
    return sparql, notes
