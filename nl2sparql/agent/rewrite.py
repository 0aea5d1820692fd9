"""Rewrites of one query: the answer's shape, and where a named word is anchored.

Every function takes query text and returns new text, or ``None`` when it does
not apply. Shape: :func:`drop_columns`, :func:`to_ask`, :func:`to_count`.
Anchors: :func:`anchor_word` / :func:`anchor_named` (a named word the query
left out), :func:`as_hypolemma` / :func:`lemma_of_hypolemma` (a word that is a
hypolemma), :func:`anchor_in_complit` (a word only CompL-it has). Edits are made
at token offsets (:mod:`.query`), never inside strings or IRIs.
"""

from __future__ import annotations

from ..namespaces import PREFIXES
from ..sparql.lexer import apply_edits, declared_prefixes, tokenize
from .query import (has_aggregate, iri_of_text, is_count, literal, modifiers, outline, projection, select_items,
                    simple_triple, statements, triples)

def drop_columns(sparql: str, names: set[str]) -> str | None:
    """The SELECT without the projected variables ``names`` (``None`` when none of them is projected
    or nothing would be left)."""
    o = outline(sparql)
    if o is None or o.form != "select":
        return None
    items = select_items(o)
    drop = [(lo, hi) for lo, hi in items if lo == hi and o.tokens[lo].text[1:] in names]
    if not drop or len(drop) == len(items):
        return None
    edits = []
    for lo, _ in drop:
        start, end = o.tokens[lo].start, o.tokens[lo].start + len(o.tokens[lo].text)
        edits.append((start, end + 1 if sparql[end:end + 1] == " " else end, ""))
    return apply_edits(sparql, edits)


def to_ask(sparql: str) -> str | None:
    """The yes/no form of a SELECT: ``ASK { … }`` (a sub-select when it groups or aggregates)."""
    o = outline(sparql)
    if o is None or o.form != "select":
        return None
    prologue = sparql[:o.prologue_end]
    if has_aggregate(sparql) or "LIMIT" in modifiers(o) or "OFFSET" in modifiers(o):
        return f"{prologue}ASK {{\n  {{ {sparql[o.prologue_end:].strip()} }}\n}}\n"
    body = sparql[o.tokens[o.where_open].start:o.tokens[o.where_close].start + 1]
    return f"{prologue}ASK WHERE {body}\n"


def to_count(sparql: str) -> str | None:
    """How many answers a SELECT has: the count of its first projected variable, or of its groups
    (``COUNT(*)`` over it as a sub-select) when it groups; ``None`` when it is already a count."""
    o = outline(sparql)
    names = projection(sparql)
    if o is None or o.form != "select" or not names or is_count(sparql):
        return None
    prologue = sparql[:o.prologue_end]
    if has_aggregate(sparql) or {"LIMIT", "OFFSET"} & set(modifiers(o)):
        return f"{prologue}SELECT (COUNT(*) AS ?count) WHERE {{\n  {{ {sparql[o.prologue_end:].strip()} }}\n}}\n"
    body = sparql[o.tokens[o.where_open].start:o.tokens[o.where_close].start + 1]
    return f"{prologue}SELECT (COUNT(DISTINCT ?{names[0]}) AS ?count) WHERE {body}\n"


def anchor_word(sparql: str, var: str, word: str, lang: str = "it") -> str | None:
    """``VALUES ?var { "word"@lang }`` at the start of the WHERE group (``None`` when ``?var`` is not used
    or already has VALUES)."""
    o = outline(sparql)
    if o is None:
        return None
    texts = [t.text for t in o.tokens]
    if f"?{var}" not in texts[o.where_open:o.where_close]:
        return None
    if any(a.upper == "VALUES" and b.text == f"?{var}" for a, b in zip(o.tokens, o.tokens[1:])):
        return None
    at = o.tokens[o.where_open].start + 1
    return sparql[:at] + f"\n  VALUES ?{var} {{ {literal(word)}@{lang} }}" + sparql[at:]


LEMMA_CLASS = PREFIXES["lila"] + "Lemma"
RDF_TYPE = PREFIXES["rdf"] + "type"
#: Language tags a named word may carry (Italian, Sicilian, Parmigiano) and the plain string.
WORD_TAGS = ("it", "scn", "roa", None)


def anchor_named(sparql: str, word: str) -> str | None:
    """The query restricted to the named word: ``VALUES ?wr`` on the lemma's written form when the query
    has one, else a written form of the first ``lila:Lemma`` variable (``None`` when neither exists)."""
    prefixes = {**PREFIXES, **declared_prefixes(sparql)}
    found = triples(sparql)
    written = [o for s, p, o in found if o.startswith("?") and iri_of_text(p, prefixes) == PREFIXES["ontolex"]
               + "writtenRep" and any(s2 == s and _is_lemma_type(p2, o2, prefixes) for s2, p2, o2 in found)]
    if written:
        return anchor_word(sparql, written[0][1:], word)
    tokens = tokenize(sparql)
    for a, b, c in zip(tokens, tokens[1:], tokens[2:]):
        if a.kind == "var" and _is_lemma_type(b.text, c.text, prefixes):
            values = " ".join(f"{literal(word)}@{tag}" if tag else literal(word) for tag in WORD_TAGS)
            var = f"?{a.text[1:]}Named"
            end = c.start + len(c.text)
            rest = sparql[end:].lstrip(" ")
            if rest.startswith("."):
                rest = rest[1:]
            elif rest.startswith(";"):
                rest = f"{a.text} " + rest[1:].lstrip(" ")  # the subject's other predicates go on
            return sparql[:end] + f" ; ontolex:writtenRep {var} .\n    VALUES {var} {{ {values} }} " + rest
    return None


def _is_lemma_type(pred: str, obj: str, prefixes: dict[str, str]) -> bool:
    return (pred == "a" or iri_of_text(pred, prefixes) == RDF_TYPE) and iri_of_text(obj, prefixes) == LEMMA_CLASS


def rename_var(sparql: str, old: str, new: str) -> str:
    """Every ``?old`` written ``?new`` (unchanged when ``?new`` is already used)."""
    tokens = tokenize(sparql)
    if any(t.kind == "var" and t.text[1:] == new for t in tokens):
        return sparql
    return apply_edits(sparql, [(t.start, t.start + len(t.text), "?" + new) for t in tokens
                                if t.kind == "var" and t.text[1:] == old])


def _anchor_parts(sparql: str, word: str):
    """The named-word anchor ``VALUES ?X { "word"@… } ?L ontolex:writtenRep ?X . [?L a lila:Lemma .]``."""
    sts = statements(sparql)
    wanted = word.lower()
    for st in sts:
        if st.kind != "values" or len(st.tokens) < 4 or st.tokens[1].kind != "var":
            continue
        strings = [t.text[1:-1].lower() for t in st.tokens if t.kind == "string"]
        if wanted not in strings:
            continue
        var = st.tokens[1].text
        for wr in sts:
            triple = simple_triple(wr)
            written = ("ontolex:writtenRep", f"<{PREFIXES['ontolex']}writtenRep>")
            if triple and triple[2] == var and triple[1] in written:
                lemma = triple[0]
                typed = next((s for s in sts if simple_triple(s) and simple_triple(s)[0] == lemma
                              and simple_triple(s)[1] in ("a", "rdf:type") and simple_triple(s)[2] == "lila:Lemma"),
                             None)
                return sts, st, wr, typed, lemma, var
    return None


def as_hypolemma(sparql: str, word: str) -> str | None:
    """The named word read as a hypolemma: ``?L a lila:Lemma`` → ``?L a lila:Hypolemma``."""
    parts = _anchor_parts(sparql, word)
    if parts is None or parts[3] is None:
        return None
    typed = parts[3]
    obj = [t for t in typed.tokens if t.text != "."][2]
    return apply_edits(sparql, [(obj.start, obj.start + len(obj.text), "lila:Hypolemma")])


def lemma_of_hypolemma(sparql: str, word: str) -> str | None:
    """The named word read as a hypolemma standing for its lemma: ``?h ontolex:writtenRep ?X ; lila:isHypolemma ?L``."""
    parts = _anchor_parts(sparql, word)
    if parts is None:
        return None
    _, _, wr, _, lemma, var = parts
    start, end = wr.span(sparql)
    hypo = f"{lemma}Hypolemma"
    return apply_edits(sparql, [(start, end, f"{hypo} ontolex:writtenRep {var} ; lila:isHypolemma {lemma} .")])


def anchor_in_complit(sparql: str, word: str, service: str) -> str | None:
    """The named word looked up in CompL-it instead of the Lemma Bank (for words only CompL-it has).

    ``VALUES ?X {…} ?L a lila:Lemma . ?L ontolex:writtenRep ?X . ?W ontolex:canonicalForm ?L .
    SERVICE <s> { ?W … }`` becomes ``SERVICE <s> { VALUES ?X {…} ?W ontolex:canonicalForm ?WForm .
    ?WForm ontolex:writtenRep ?X . ?W … }``; ``None`` when ``?L`` is used anywhere else.
    """
    parts = _anchor_parts(sparql, word)
    if parts is None:
        return None
    sts, values, wr, typed, lemma, var = parts
    link = next((s for s in sts if simple_triple(s) and simple_triple(s)[2] == lemma
                 and simple_triple(s)[1] == "ontolex:canonicalForm"), None)
    if link is None:
        return None
    word_var = simple_triple(link)[0]
    block = next((s for s in sts if s.kind == "service" and any(t.text == f"<{service}>" for t in s.tokens[:3])
                  and any(t.text == word_var for t in s.tokens)), None)
    removed = [s for s in (values, wr, typed, link) if s is not None]
    uses = sum(t.text == lemma for t in tokenize(sparql))
    if block is None or uses != sum(t.text == lemma for s in removed for t in s.tokens):
        return None
    brace = next(t for t in block.tokens if t.text == "{")
    form = f"{word_var}Form"
    values_text = sparql[slice(*values.span(sparql))]
    edits = [(*s.span(sparql), "") for s in removed]
    lookup = (f"\n    {values_text}\n    {word_var} ontolex:canonicalForm {form} .\n"
              f"    {form} ontolex:writtenRep {var} .")
    edits.append((brace.start + 1, brace.start + 1, lookup))
    return "\n".join(line for line in apply_edits(sparql, edits).split("\n") if line.strip())
