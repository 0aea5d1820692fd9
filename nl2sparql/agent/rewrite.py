"""Rewrites of one query: the answer's form, where a named word is anchored, what an ASK requires.

Every function takes query text and returns new text, or ``None`` when it does
not apply. Form: :func:`to_ask`, :func:`to_count`. Anchors:
:func:`as_hypolemma` / :func:`lemma_of_hypolemma` (a word that is a hypolemma),
:func:`anchor_in_complit` (a word only CompL-it has). :func:`required_optionals`
(the fact an ASK asks about made required). Edits are made at token offsets
(:mod:`.query`), never inside strings or IRIs.
"""

from __future__ import annotations

from ..namespaces import PREFIXES
from ..sparql.lexer import apply_edits, tokenize
from .query import has_aggregate, is_count, modifiers, outline, projection, simple_triple, statements


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


def required_optionals(sparql: str) -> str | None:
    """The query with every ``OPTIONAL`` block made required (``None`` when it has none): what an ASK
    that asks whether a word *has* a fact must say (an optional fact never changes its answer)."""
    edits = [(t.start, t.start + len(t.text) + (sparql[t.start + len(t.text):][:1] == " "), "")
             for t in tokenize(sparql) if t.upper == "OPTIONAL"]
    return apply_edits(sparql, edits) if edits else None
