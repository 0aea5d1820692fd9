"""The LiITA rules behind :mod:`nl2sparql.translate.validate`, and their safe fixes.

Each ``*_issues`` function reads a :class:`~nl2sparql.translate.triples.Parsed`
query and returns :class:`~nl2sparql.translate.validate.Issue` objects; each
``fix_*`` function takes query text and returns the fixed text with one line
per fix. Edits are made at token offsets, so strings and comments are never
touched by accident.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..namespaces import (COMPLIT_SERVICE, COMPLIT_VOCAB, ELITA_GRAPH, EMOTIONS, HYPOLEMMA_BASE, LEMMA_BANK, LEMMA_BASE,
                          PARMIGIANO_LEMMA_BANK, PARMIGIANO_LEMMA_BASE, PREFIXES, SICILIANO_LEMMA_BANK,
                          SICILIANO_LEMMA_BASE)
from ..sparql.lexer import declared_prefixes, tokenize
from .triples import RDF_TYPE, Parsed, Term

LEX, ONTO, LILA = PREFIXES["lexinfo"], PREFIXES["ontolex"], PREFIXES["lila"]
COMPLIT_PROPS = {ONTO + "sense", PREFIXES["skos"] + "definition", LEX + "senseExample"} | {
    LEX + r for r in ("hypernym", "hyponym", "partMeronym", "partHolonym", "memberMeronym", "memberHolonym",
                      "approximateSynonym", "antonym")}
COMPLIT_CLASSES = {ONTO + "LexicalSense", ONTO + "Word"}
LIITA_NAMESPACES = (LILA, PREFIXES["elita"], PREFIXES["marl"], PREFIXES["vartrans"], "http://liita.it/data/id/")
LIITA_PROPS = {PREFIXES["dcterms"] + "isPartOf", PREFIXES["lime"] + "entry"}
FAMILIES = {
    PREFIXES["elita"] + "HasEmotion": "ELITA", PREFIXES["marl"] + "Polarity": "ELITA",
    PREFIXES["marl"] + "hasPolarity": "Sentix", PREFIXES["vartrans"] + "translatableAs": "a dialect glossary",
    ONTO + "sense": "CompL-it", ONTO + "otherForm": "the inflected forms", ONTO + "lexicalForm": "the inflected forms",
}
LITERAL_PROPS = {ONTO + "writtenRep", PREFIXES["rdfs"] + "label", PREFIXES["skos"] + "definition",
                 PREFIXES["marl"] + "hasPolarityValue", PREFIXES["marl"] + "Polarity", PREFIXES["rdfs"] + "comment",
                 LEX + "senseExample", PREFIXES["skos"] + "example"}
TAGGED_PROPS = {ONTO + "writtenRep", PREFIXES["skos"] + "definition"}
LABEL = PREFIXES["rdfs"] + "label"
TRANSLATABLE = PREFIXES["vartrans"] + "translatableAs"
STRING_FUNCTIONS = {"STRSTARTS", "STRENDS", "CONTAINS", "REGEX", "LCASE", "UCASE", "STRLEN", "SUBSTR", "LANG",
                    "STRBEFORE", "STRAFTER", "REPLACE"}
GRAPH_SLASH = {ELITA_GRAPH + "/": ELITA_GRAPH}
DIALECT_BANKS = {SICILIANO_LEMMA_BANK: "dialect", PARMIGIANO_LEMMA_BANK: "dialect", LEMMA_BANK: "italian"}
#: Labels of LiITA's closed vocabularies as the data spells them (folded → exact).
KNOWN_LABELS = {name.lower(): name for name in EMOTIONS + ("Positive", "Negative", "Neutral")}
KNOWN_LABELS.update({w: w for w in ("noun", "verb", "adjective", "adverb", "pronoun", "numeral", "interjection",
                                    "adposition", "determiner", "proper noun", "past", "present", "future",
                                    "imperfect", "plural", "singular", "masculine", "feminine", "indicative",
                                    "subjunctive", "conditional", "infinitive", "participle", "gerundive",
                                    "first person", "second person", "third person")})


def _issue(rule, severity, message, fix=None):
    from .validate import Issue
    return Issue(rule, severity, message, fix)


def _stem(iri: str) -> str:
    return iri.rstrip("#/")


# -- prefixes and IRIs ----------------------------------------------------------------------------
def prefix_issues(query: str, parsed: Parsed) -> list:
    """Standard prefix names bound to another IRI, and IRIs that nearly match a LiITA namespace."""
    out = []
    declared = declared_prefixes(query)
    for name, iri in declared.items():
        if name in PREFIXES and iri != PREFIXES[name]:
            out.append(_issue("unknown_prefix", "error", f"PREFIX {name}: <{iri}> is not the LiITA namespace "
                              f"<{PREFIXES[name]}> (a wrong prefix IRI silently returns nothing)",
                              f"use <{PREFIXES[name]}>"))
    reported = {iri for name, iri in declared.items()}
    seen = set()
    for tok in tokenize(query):
        if tok.kind == "pname":
            prefix = tok.text.split(":", 1)[0]
            if prefix not in declared and prefix not in PREFIXES and prefix not in seen:
                seen.add(prefix)
                out.append(_issue("unknown_prefix", "error", f"prefix {prefix}: is neither declared nor a LiITA prefix"))
        elif tok.kind == "iri":
            iri = tok.text[1:-1]
            near = _near_namespace(iri)
            if near and iri not in reported and near not in seen:
                seen.add(near)
                out.append(_issue("unknown_prefix", "error",
                                  f"<{iri}> looks like the namespace <{near}> but does not match it exactly"))
    return out


def _near_namespace(iri: str) -> str | None:
    if iri in GRAPH_SLASH or iri == ELITA_GRAPH or any(iri.startswith(ns) for ns in PREFIXES.values()):
        return None
    for ns in PREFIXES.values():
        if _stem(iri).startswith(_stem(ns)) and len(_stem(iri)) > len(_stem(ns)) and \
                iri[len(_stem(ns))] in "#/" and ns[len(_stem(ns)):] != iri[len(_stem(ns))]:
            return ns
        if iri == _stem(ns) and ns != ELITA_GRAPH + "/":
            return ns
    if "lexinfo.net/ontology/" in iri and not iri.startswith(PREFIXES["lexinfo"]):
        return PREFIXES["lexinfo"]
    return None


def graph_issues(parsed: Parsed) -> list:
    """``GRAPH <http://w3id.org/elita/>``: the ELITA graph IRI has no slash."""
    out = []
    for g in {t.graph.value for t in parsed.triples if t.graph is not None and t.graph.kind == "iri"}:
        if g in GRAPH_SLASH:
            out.append(_issue("graph_iri", "error", f"GRAPH <{g}> is empty: the ELITA graph is <{GRAPH_SLASH[g]}> "
                              "(the namespace has the slash, the graph IRI has none)", f"use GRAPH <{GRAPH_SLASH[g]}>"))
    return out


# -- SERVICE --------------------------------------------------------------------------------------
def service_issues(parsed: Parsed) -> list:
    """CompL-it data outside SERVICE, LiITA data inside it, FILTERs on variables bound outside."""
    out, seen = [], set()
    for t in parsed.triples:
        iris = set(t.p_iris) | ({t.o.value} if t.o.kind == "iri" and RDF_TYPE in t.p_iris else set())
        complit = sorted(i for i in iris if i in COMPLIT_PROPS or i in COMPLIT_CLASSES or i.startswith(COMPLIT_VOCAB))
        if t.service is None and complit and complit[0] not in seen:
            seen.add(complit[0])
            out.append(_issue("service_missing", "error", f"{_short(complit[0])} is CompL-it data: put it inside "
                              f"SERVICE <{COMPLIT_SERVICE}> (outside it matches nothing)"))
        if t.service is not None:
            liita = sorted(i for i in iris | {t.s.value, t.o.value}
                           if i.startswith(LIITA_NAMESPACES) or i in LIITA_PROPS)
            if liita and liita[0] not in seen:
                seen.add(liita[0])
                out.append(_issue("service_scope", "error", f"{_short(liita[0])} is LiITA data, not CompL-it: move it "
                                  "outside the SERVICE block (only senses, definitions and relations are behind it)"))
    for svc in {t.service for t in parsed.triples if t.service} | {e.service for e in parsed.expressions if e.service}:
        if svc != COMPLIT_SERVICE and svc not in seen:
            seen.add(svc)
            out.append(_issue("service_scope", "warning", f"SERVICE <{svc}> is not the CompL-it service "
                              f"<{COMPLIT_SERVICE}>"))
    out += _link_inside_service(parsed) + _filters_out_of_scope(parsed)
    return out


def _link_inside_service(parsed: Parsed) -> list:
    lemmas_outside = {t.s.value for t in parsed.triples if t.service is None and t.s.kind == "var" and
                      any(i.startswith(LILA) for i in t.p_iris + ((t.o.value,) if t.o.kind == "iri" else ()))}
    for t in parsed.triples:
        if t.service and t.predicate == ONTO + "canonicalForm" and t.o.kind == "var" and t.o.value in lemmas_outside:
            return [_issue("service_scope", "error", f"?{t.o.value} is a LiITA lemma: the link "
                           f"?{t.s.value} ontolex:canonicalForm ?{t.o.value} lives outside SERVICE (same word variable "
                           "on both sides)")]
    return []


def _filters_out_of_scope(parsed: Parsed) -> list:
    inside: dict[str, set[str]] = defaultdict(set)
    outside: set[str] = set()
    for t in parsed.triples:
        names = {x.value for x in (t.s, t.o) if x.kind == "var"}
        (inside[t.service] if t.service else outside).update(names)
    out = []
    for e in parsed.expressions:
        if not e.service:
            continue
        for tok in e.tokens:
            name = tok.text[1:] if tok.kind == "var" else None
            if name and name not in inside[e.service] and name in outside:
                out.append(_issue("service_scope", "error", f"the FILTER inside SERVICE uses ?{name}, which is bound "
                                  "outside it (not visible there): join on the word IRI or written form instead"))
                return out
    return out


def _short(iri: str) -> str:
    for name, ns in PREFIXES.items():
        if iri.startswith(ns):
            return f"{name}:{iri[len(ns):]}"
    return f"<{iri}>"


# -- multi-entry and direction ---------------------------------------------------------------------
def entry_reuse_issues(parsed: Parsed) -> list:
    """One subject variable used as the entry of two resources (ELITA, Sentix, glossaries, CompL-it, forms)."""
    families: dict[str, set[str]] = defaultdict(set)
    for t in parsed.triples:
        if t.s.kind in ("var", "bnode") and t.predicate in FAMILIES:
            families[t.s.value].add(FAMILIES[t.predicate])
    out = []
    for var, names in families.items():
        if len(names) >= 2:
            out.append(_issue("entry_reuse", "error", f"?{var} is used as the entry of {' and '.join(sorted(names))}: "
                              "each resource has its own entry for a lemma; join through the lemma with a different "
                              "variable per entry"))
    dialects: dict[str, set[str]] = defaultdict(set)
    for t in parsed.triples:
        if t.predicate == TRANSLATABLE and t.s.kind == "var" and not t.inverse:
            bank = _bank_of_entry(parsed, t.o)
            if bank in (SICILIANO_LEMMA_BANK, PARMIGIANO_LEMMA_BANK):
                dialects[t.s.value].add(bank)
    for var, banks in dialects.items():
        if len(banks) >= 2:
            out.append(_issue("entry_reuse", "error", f"?{var} is used as the Italian entry of both the Parmigiano and "
                              "the Sicilian glossary: each glossary has its own Italian entry"))
    return out


def _bank_of_entry(parsed: Parsed, entry: Term) -> str | None:
    for t in parsed.triples:
        if t.s == entry or (t.s.kind == entry.kind and t.s.value == entry.value):
            if t.predicate == ONTO + "canonicalForm":
                return _bank_of_lemma(parsed, t.o)
    return None


def _bank_of_lemma(parsed: Parsed, lemma: Term) -> str | None:
    if lemma.kind == "iri":
        for base, bank in ((SICILIANO_LEMMA_BASE, SICILIANO_LEMMA_BANK), (PARMIGIANO_LEMMA_BASE, PARMIGIANO_LEMMA_BANK),
                           (LEMMA_BASE, LEMMA_BANK), (HYPOLEMMA_BASE, LEMMA_BANK)):
            if lemma.value.startswith(base):
                return bank
        return None
    for t in parsed.triples:
        if t.s.kind == lemma.kind and t.s.value == lemma.value:
            if t.predicate == PREFIXES["dcterms"] + "isPartOf" and t.o.value in DIALECT_BANKS:
                return t.o.value
            if t.predicate == ONTO + "writtenRep" and t.o.kind == "literal" and t.o.lang:
                return {"scn": SICILIANO_LEMMA_BANK, "roa": PARMIGIANO_LEMMA_BANK, "it": LEMMA_BANK}.get(t.o.lang.lower())
    return None


def _side(parsed: Parsed, entry: Term) -> str | None:
    if entry.kind == "iri":
        if "/LexicalEntry/italian/" in entry.value:
            return "italian"
        if re.search(r"/LexicalEntry/(siciliano|parmigiano)/", entry.value):
            return "dialect"
    bank = _bank_of_entry(parsed, entry)
    return None if bank is None else DIALECT_BANKS[bank]


def direction_issues(parsed: Parsed) -> list:
    """Translations go from the Italian entry to the dialect entry (``vartrans:translatableAs``)."""
    for t in parsed.triples:
        if t.predicate != TRANSLATABLE:
            continue
        source, target = (t.o, t.s) if t.inverse else (t.s, t.o)
        if _side(parsed, source) == "dialect" or _side(parsed, target) == "italian":
            return [_issue("translation_direction", "error", "vartrans:translatableAs goes from the Italian entry to "
                           "the dialect entry: here it starts from a dialect entry (or ends at an Italian one)")]
    return []


# -- IRIs vs literals ------------------------------------------------------------------------------
def iri_literal_issues(parsed: Parsed) -> list:
    """A variable that must be an IRI somewhere and a literal elsewhere never matches."""
    as_iri: dict[str, str] = {}
    as_literal: dict[str, str] = {}
    for t in parsed.triples:
        if t.s.kind == "var":
            as_iri.setdefault(t.s.value, "the subject of a triple")
        if t.o.kind == "var" and t.predicate:
            if t.predicate in LITERAL_PROPS:
                as_literal.setdefault(t.o.value, f"the value of {_short(t.predicate)}")
            elif t.predicate != PREFIXES["rdfs"] + "comment":
                as_iri.setdefault(t.o.value, f"the object of {_short(t.predicate)}")
        if t.graph is not None and t.graph.kind == "var":
            as_iri.setdefault(t.graph.value, "a GRAPH name")
    for e in parsed.expressions:
        for name, how in _literal_uses(e.tokens):
            as_literal.setdefault(name, how)
    out = []
    for name in sorted(set(as_iri) & set(as_literal)):
        if as_iri[name].startswith("the object of") and as_literal[name].startswith("compared"):
            continue  # IRIs compared with strings are reported by string_compare when they matter
        out.append(_issue("iri_literal", "error", f"?{name} is {as_iri[name]} (an IRI) and {as_literal[name]} "
                          "(a literal): no value is both; use a separate variable"))
    return out


def _literal_uses(tokens) -> list[tuple[str, str]]:
    out = []
    for i, tok in enumerate(tokens):
        if tok.kind != "var":
            continue
        prev = tokens[i - 1] if i else None
        prev2 = tokens[i - 2] if i > 1 else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if prev is not None and prev.text == "(" and prev2 is not None and prev2.upper in STRING_FUNCTIONS:
            out.append((tok.text[1:], f"used directly in {prev2.upper}()"))
        elif nxt is not None and nxt.text in ("<", ">", "<=", ">=") and i + 2 < len(tokens) and \
                tokens[i + 2].kind == "number":
            out.append((tok.text[1:], "compared with a number"))
    return out


# -- strings ---------------------------------------------------------------------------------------
def _literal_vars(parsed: Parsed) -> dict[str, str]:
    out = {}
    for t in parsed.triples:
        if t.o.kind == "var" and t.predicate in (TAGGED_PROPS | {LABEL}):
            out.setdefault(t.o.value, t.predicate)
    return out


def string_issues(parsed: Parsed) -> list:
    """Plain literals against tagged written forms, ``?x = "…"`` without STR, case-sensitive label matching."""
    out = []
    for t in parsed.triples:
        if t.predicate == ONTO + "writtenRep" and t.o.kind == "literal" and not t.o.lang and not t.o.datatype:
            out.append(_issue("plain_literal", "error", f'ontolex:writtenRep "{t.o.value}" never matches: written '
                              'forms carry a language tag (@it, @scn, @roa)',
                              f'compare with FILTER(STR(?wr) = "{t.o.value}")'))
    for kind, tok, prop in string_compares(parsed):
        out.append(_issue("string_compare", "error" if prop in TAGGED_PROPS else "warning",
                          f"{tok.text} = \"…\" compares a language-tagged value ({_short(prop)}) with a plain string: "
                          "it never matches", f"compare STR({tok.text})"))
    for tok, prop, *_ in case_sensitive_matches(parsed):
        out.append(_issue("case_sensitive", "warning", f"{tok.text} ({_short(prop)}) is matched case-sensitively: "
                          "labels such as emotion names must be compared case-insensitively",
                          f"compare LCASE(STR({tok.text})) with a lower-case string"))
    return out


def string_compares(parsed: Parsed):
    """``?x = "lit"`` / ``"lit" = ?x`` / ``?x != "lit"`` where ?x is a tagged value (not inside STR)."""
    tagged = _literal_vars(parsed)
    for e in parsed.expressions:
        toks = e.tokens
        for i, tok in enumerate(toks):
            if tok.kind != "var" or tok.text[1:] not in tagged:
                continue
            prev = toks[i - 1] if i else None
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is not None and nxt.text in ("=", "!=") and i + 2 < len(toks) and toks[i + 2].kind == "string" \
                    or prev is not None and prev.text in ("=", "!=") and i > 1 and toks[i - 2].kind == "string":
                if not (i > 1 and toks[i - 1].text == "(" and toks[i - 2].upper in ("STR", "LCASE", "UCASE")):
                    yield e, tok, tagged[tok.text[1:]]


def case_sensitive_matches(parsed: Parsed):
    """Vocabulary labels (emotions, polarity classes, POS, features) matched with the wrong case.

    Emotion labels are capitalised ("Paura"@it), polarity labels too
    ("Positive"@en), POS and feature labels are lower case ("noun"@en): a
    comparison without LCASE/UCASE (or a REGEX "i" flag) whose string has
    another case matches nothing.
    """
    labels = {v for v, p in _literal_vars(parsed).items() if p == LABEL}
    for e in parsed.expressions:
        toks = e.tokens
        for i, tok in enumerate(toks):
            if tok.kind != "var" or tok.text[1:] not in labels:
                continue
            lo, hi = _operand(toks, i)
            if lo > 0 and toks[lo - 1].text == "(" and lo > 1 and toks[lo - 2].upper in ("LCASE", "UCASE"):
                continue
            partner = _partner_string(toks, lo, hi)
            value = partner.text.strip("\"'") if partner is not None else ""
            if function_of(toks, lo) == "REGEX":
                value = value.strip("^$")
            if partner is None or value == KNOWN_LABELS.get(value.lower(), value):
                continue  # only labels of the closed vocabularies with the wrong case are reported
            if function_of(toks, lo) == "REGEX" and "i" in (_regex_flags(toks) or ""):
                continue
            yield tok, LABEL, e, lo, hi, partner
            break


def _operand(toks, i: int) -> tuple[int, int]:
    """Token range of ``?x`` or ``STR(?x)`` around the variable at ``i``."""
    if i > 1 and toks[i - 1].text == "(" and toks[i - 2].upper == "STR" and i + 1 < len(toks) and toks[i + 1].text == ")":
        return i - 2, i + 1
    return i, i


def function_of(toks, lo: int) -> str | None:
    """The function whose first argument starts at ``lo`` (``None`` if none)."""
    if lo > 1 and toks[lo - 1].text == "(" and toks[lo - 2].kind == "word":
        return toks[lo - 2].upper
    return None


def _partner_string(toks, lo: int, hi: int):
    """The string literal the operand is compared with (``=``/``!=``) or matched against (2nd argument)."""
    if hi + 2 < len(toks) and toks[hi + 1].text in ("=", "!=") and toks[hi + 2].kind == "string":
        return toks[hi + 2]
    if lo > 1 and toks[lo - 1].text in ("=", "!=") and toks[lo - 2].kind == "string":
        return toks[lo - 2]
    if function_of(toks, lo) in ("STRSTARTS", "STRENDS", "CONTAINS", "REGEX") and hi + 2 < len(toks) and \
            toks[hi + 1].text == "," and toks[hi + 2].kind == "string":
        return toks[hi + 2]
    return None


def _regex_flags(toks) -> str | None:
    """The flags argument of the REGEX call in ``toks`` (``None`` when absent)."""
    close = regex_close(toks, flags=True)
    return close


# -- hints for empty results -----------------------------------------------------------------------
def empty_hints(parsed: Parsed, kb, limit: int = 12) -> list[str]:
    """Cheap probes on the KB naming the parts of an empty query that match nothing on their own."""
    probes: list[tuple[str, str]] = []
    for e in parsed.expressions:
        toks = e.tokens
        for i, tok in enumerate(toks):
            if tok.kind == "string" and i > 1 and toks[i - 1].text == "=" and toks[i - 2].text == ")":
                value = tok.text[1:-1]
                where = f"SERVICE <{e.service}> {{ ?x ontolex:writtenRep ?w . FILTER(STR(?w) = {tok.text}) }}" \
                    if e.service else f"?x ontolex:writtenRep ?w . FILTER(STR(?w) = {tok.text})"
                probes.append((f"ASK {{ {where} }}", f'no written form "{value}" exists'
                               + (" in CompL-it" if e.service else "")))
    seen = set()
    for t in parsed.triples:
        for iri in t.p_iris:
            if iri not in seen and iri != RDF_TYPE:
                seen.add(iri)
                body = f"?s <{iri}> ?o"
                probes.append((f"ASK {{ {_wrap(body, t.service)} }}", f"{_short(iri)} does not occur"
                               + (" in CompL-it" if t.service else " outside SERVICE")))
        if t.o.kind == "iri" and t.o.value not in seen:
            seen.add(t.o.value)
            probes.append((f"ASK {{ {_wrap(f'?s ?p <{t.o.value}>', t.service)} }}", f"{_short(t.o.value)} does not occur"))
    hints = []
    for query, hint in probes[:limit]:
        try:
            if not kb.ask(query, timeout=5):
                hints.append(hint)
        except Exception:  # noqa: BLE001 - a probe that fails tells nothing
            continue
    if not hints:
        hints.append("every part matches something on its own: the combination is empty (drop one constraint at a "
                     "time to find which one; check language tags and SERVICE joins)")
    return hints


def _wrap(body: str, service: str | None) -> str:
    return f"SERVICE <{service}> {{ {body} }}" if service else body


def regex_close(toks, flags: bool = False):
    """The closing parenthesis of a two-argument REGEX call (where the "i" flag goes).

    With ``flags``: the text of the third (flags) argument, or ``None``.
    """
    for i, t in enumerate(toks):
        if t.upper == "REGEX" and i + 1 < len(toks) and toks[i + 1].text == "(":
            depth, commas = 0, 0
            for j, u in enumerate(toks[i + 1:], start=i + 1):
                if u.text == "(":
                    depth += 1
                elif u.text == ")":
                    depth -= 1
                    if depth == 0:
                        if flags:
                            return None
                        return u if commas == 1 else None
                elif u.text == "," and depth == 1:
                    commas += 1
                    if flags and commas == 2 and j + 1 < len(toks) and toks[j + 1].kind == "string":
                        return toks[j + 1].text.strip("\"'")
    return None
