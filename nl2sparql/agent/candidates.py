"""Offline candidates: the translator's ranked readings and retrieved examples adapted to the question.

A candidate is plain data: ``{"sparql", "source", "why", "patterns"}`` (``problems``: what
:func:`~.checks.query_problems` finds it leaves out of the question, once ``generate`` has looked).

* :func:`from_readings` renders every reading of the question
  (:meth:`~nl2sparql.translate.offline.OfflineTranslator.ranked`), best first;
  ``changes`` re-reads the question with some slots replaced (what
  ``explore`` learnt, e.g. the word is a Sicilian one).
* :func:`adapt_example` takes a pool example's query and replaces its anchor
  values (the named word, affixes, the emotion, the part of speech, the
  polarity class, the dialect) with the question's; an example whose anchors
  cannot all be replaced is not used.
* :func:`shape_to` makes a candidate answer in the form asked: ASK for a
  yes/no question, a count for "how many" (the columns are the reading's).
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
                    "shape": reading["shape"]})
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
                    "patterns": list(e.get("patterns") or [])})
    return out, notes


def unique(queue: list[dict]) -> list[dict]:
    """The candidates without repeated queries (the first of each stays)."""
    seen, out = set(), []
    for c in queue:
        key = normalise_query(c["sparql"])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def shape_to(sparql: str, expects: dict) -> tuple[str, list[str]]:
    """``sparql`` in the form the question asks for, with what changed: an ASK for a yes/no question, a
    count for a how-many question. The columns stay as the query has them (the translator's reading
    decides them)."""
    o = query.outline(sparql)
    if o is None:
        return sparql, []
    form = expects.get("form")
    if form == "ask" and o.form == "select":
        asked = rewrite.to_ask(sparql)
        if asked is not None:
            return asked, ["yes/no question: ASK"]
    if form == "count" and o.form == "select":
        counted = rewrite.to_count(sparql)
        if counted is not None:
            return counted, ["how-many question: COUNT"]
    return sparql, []
