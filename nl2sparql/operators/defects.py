"""Defects of a generated item: in its questions (every persona, both languages) and in its gold query.

The classes are those of the question audit (``bench/audit/PROTOCOL.md``):

* questions: ``repeated_gloss``, ``ungrammatical``, ``filler``, ``asks_twice``, ``agreement``,
  ``raw_iri`` (an IRI or a prefixed name outside the linked-data expert's persona) and ``other``
  (a string test called a suffix or prefix, SPARQL outside the linked-data persona, a linked-data
  question without a single RDF term);
* gold queries: ``facet_filters`` (a column shown next to the lemmas that is not ``OPTIONAL``, so it
  drops the lemmas that lack it), ``extra_column`` (a column the question does not ask for),
  ``cross_product`` (two multi-valued columns not aggregated), ``idle_graph``, ``unused_triples``,
  ``empty_column`` (``GROUP_CONCAT`` over a number, always unbound), ``wrong_tag`` (among them a
  resource's label for a resource read only inside ``MINUS`` / ``NOT EXISTS``), ``broken_rule`` (an error of
  the one rule registry, :data:`~nl2sparql.patterns.RULES`, keyed by the rule's id: the validator's and the
  translator's rules hold for golds too, e.g. no ASK tests a fact inside OPTIONAL).

Each defect is ``(class, key)``: the key names the template or the rule (the audit's ``pattern``).
The checks read the text and the query only, so they also check items written by hand or by an LLM.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from ..patterns.catalogue import CATALOGUE
from ..patterns.morpho_regex import PREFIXES, SUFFIXES
from ..patterns.rules import RULES
from ..patterns.vocab import EMOTION
from ..rules import parse
from ..sparql.features import analyze, without_negations
from ..sparql.lexer import tokenize

TECH_PERSONA = "linked_data_expert"

#: ``(class, key, languages, regex)``; checked on every persona.
_TEXT_RULES: list[tuple[str, str, str, re.Pattern]] = [(c, k, langs, re.compile(r)) for c, k, langs, r in (
    ("repeated_gloss", "gloss_head", "it en",
     r"\b(\w+) \((?:\1|lemmi|parole|termini|lemmas|words|terms)\)"),
    ("repeated_gloss", "repeated_word", "it en", r"(?i)\b(\w{2,}) \1\b"),
    ("filler", "ped_filler_sentence", "it en",
     r"Per rispondere si collegano|Answering it links|alle risorse che li descrivono"),
    ("asks_twice", "ped_count_twice", "it en", r"(?i)quant[ie]\b[^?]*: quanti sono in tutto|how many\b[^?]*: how many"),
    # a value named on its own and again in «sia X sia Y» / "both X and Y" (any value, not only the known emotions;
    # a quoted lemma or a prefixed name is another thing)
    ("asks_twice", "repeated_in_pair", "it en",
     # (the lookahead first: without "sia"/"both" in the text the rule fails at once, 5x faster)
     r"(?i)\A(?=(?s:.*)\b(?:sia|both) )(?s:.*?)(?<![:\w«\"])(\w{3,})\b[^.?!]*\b(?:sia|both) (?:\w+ (?:sia|and) )?\1\b"),
    ("asks_twice", "order_twice", "it en", r"ordine alfabetico.*ordine alfabetico|alphabetical order.*alphabetical order"),
    ("ungrammatical", "stacked_parentheses", "it en", r"\)\s*\("),
    ("ungrammatical", "ld_verb_without_relative", "it en",
     r"lila:Lemma(?: resources)?\)?\s+(?:hanno|sono|contengono|esprimono|have|are|contain|express)\b"),
    ("ungrammatical", "fact_clause_of", "it en",
     r"\b(?:quanti sensi ha|emozioni associate|emozioni che esprime|di cui fa parte|how many senses it has|"
     r"it conveys|it is part of)\s+(?:di|of|della parola|of the word)\b"),
    ("ungrammatical", "punctuation", "it en", r"[,;:]\s*[.?!]|[.?!]\s*[,;:]|\?\s*\.|\.\s*\?|\.\.(?!\.)"),
    ("ungrammatical", "spacing", "it en", r"\S {2,}\S| [,.?!;:](?=\s|$)"),
    ("ungrammatical", "unfilled_template", "it en", r"\{[A-Za-z_]*\}|\bNone\b"),
    ("agreement", "quanti_parole", "it",
     r"(?i)\bquanti (?:parole|voci|interiezioni|preposizioni|traduzioni|definizioni|emozioni|forme)\b"),
    ("agreement", "quante_lemmi", "it",
     r"(?i)\bquante (?:lemmi|termini|sostantivi|verbi|aggettivi|avverbi|nomi|pronomi|numerali|sensi|sinonimi)\b"),
    ("agreement", "fem_noun_masc_participle", "it",
     r"\b(?:parole|voci|interiezioni|preposizioni)\b[^.?!]*?\b(?:sono|siano) \w+(?:at|it|ut)i\b"),
    ("agreement", "masc_noun_fem_participle", "it",
     r"\b(?:lemmi|termini|sostantivi|verbi|aggettivi|avverbi|pronomi)\b[^.?!]*?\b(?:sono|siano) \w+(?:at|it|ut)e\b"),
    # a plural copula is right before coordinated facts («Quali sono la polarità e le emozioni»)
    ("agreement", "plural_copula_singular_fact", "it",
     r"(?i)\bquali sono (?:il|lo|la|l')\b(?![^?]*\b(?:e|ed) (?:tutt[ieoa] )?(?:il|lo|la|l'|i|gli|le)\b)"),
    ("agreement", "singular_copula_plural_fact", "it", r"(?i)\bqual è (?:i|gli|le)\b"),
    ("agreement", "plural_copula_singular_fact", "en",
     r"(?i)\bwhat are the (?:number|definition|meaning|translation|equivalent|polarity|part of speech|plural)\b"
     r"(?![^?]*\band (?:all )?the\b)"),
    ("agreement", "singular_copula_plural_fact", "en",
     r"(?i)\bwhat is the (?:synonyms|antonyms|definitions|forms|emotions|hypernyms|holonyms|translations|"
     r"equivalents|inflected forms|opposites|broader terms)\b"),
    ("agreement", "dialect_adjective", "it",
     r"\b(?:voce|traduzione|voci|traduzioni|Lemma Bank) (?:siciliano|parmigiano|siciliani|parmigiani)\b|"
     r"\b(?:equivalente|equivalenti) (?:siciliana|parmigiana|siciliane|parmigiane)\b"),
    # «Per ciascuno … la loro traduzione», "For each one … their translation": one subject, a plural possessive
    ("agreement", "each_their", "it en", r"\bPer ciascun[oa]? [^.?!]*\bloro\b|\bFor each one\b[^.?!]*\btheir\b"),
    ("other", "untranslated_fact_key", "it",
     r"\((?:synonyms|antonyms|hypernyms|definitions|values|(?:Sicilian|Parmigiano) translations)\)"),
    ("agreement", "object_pronoun", "it",
     r"\b(?:parole|voci)\b[^?]*: me li\b|\b(?:lemmi|termini|sostantivi|verbi|aggettivi|avverbi)\b[^?]*: me le\b"),
)]
_RULES_BY_LANG = {lang: [(c, k, r) for c, k, langs, r in _TEXT_RULES if lang in langs.split()] for lang in ("it", "en")}
#: Only the linked-data expert writes IRIs, prefixed names and SPARQL.
_IRI = re.compile(r"<https?://|\bhttps?://")
_PREFIXED = re.compile(r"\b(?:lila|ontolex|lexinfo|elita|marl|vartrans|skos|dcterms|rdfs|rdf|lime):[A-Za-z]")
_SPARQL = re.compile(r"\b(?:OPTIONAL|GROUP_CONCAT|GROUP BY|ORDER BY|FILTER|STRENDS|STRSTARTS|REGEX|LIMIT)\b|\?\w")
#: A sentence opened as a question.
_INTERROGATIVE = re.compile(
    r"^(?:Quali|Quale|Qual|Quanti|Quante|Che|Come|Cosa|Dove|Perché|Mi elenchi|Mi dici|Mi mostri|Which|What|How|"
    r"Who|Where|Can you|Could you|Do you|Does|Is|Are)\b")
#: A list question that asks to show something next to the lemmas (for items without their fragments).
_ASKS_COLUMNS = re.compile(r"Mostra anche|Also show|, con |, with |\bcon (?:la|le|il|i|gli|l')\b|\bwith (?:their|the)\b")
#: The content values a question names: an emotion (not a prefixed name's ``elita:Paura``) or a quoted value;
#: naming one twice asks for it twice.
_VALUES = {lang: re.compile(rf"(?i)\b(?:emozione|emotion) «(?P<e1>{names})»|(?<![:\w])(?P<e2>{names})\b"
                            r"|«(?P<q1>[^»]+)»|\"(?P<q2>[^\"]+)\"")
           for lang, names in (("it", "|".join(w for w, _ in EMOTION.values())),
                               ("en", "|".join(w for _, w in EMOTION.values())))}
_AFFIX_WORDING = re.compile(r"(?P<kind>suffisso|suffix|prefisso|prefix)\s+[«\"]-?(?P<affix>[^»\"]+?)-?[»\"]")


def question_defects(text: str, lang: str, persona: str) -> list[tuple[str, str]]:
    """The defects of one question (``lang``: ``it``/``en``; ``persona``: one of the four)."""
    found = [(cls, key) for cls, key, regex in _RULES_BY_LANG.get(lang, ()) if regex.search(text)]
    for sentence in re.split(r"(?<=[.?!])(?<!i\.e\.)(?<!e\.g\.)\s+", text.strip()):
        if _INTERROGATIVE.match(sentence) and sentence.endswith("."):
            found.append(("ungrammatical", "question_as_statement"))
    # the lemma «gioia» and the emotion joy are two things with one string
    values = Counter(("emotion" if m["e1"] or m["e2"] else "quoted", next(v for v in m.groups() if v).lower())
                     for m in _VALUES[lang].finditer(text))
    if any(n > 1 for n in values.values()):
        found.append(("asks_twice", "repeated_value"))
    if text.count("?") > 1 and persona != TECH_PERSONA:
        found.append(("asks_twice", "two_questions"))
    for m in _AFFIX_WORDING.finditer(text):
        table = SUFFIXES if m.group("kind").startswith("suff") else PREFIXES
        if not table.get(m.group("affix").lower()):
            found.append(("other", f"{m.group('kind')[:3].replace('suf', 'suffix').replace('pre', 'prefix')}_for_string"))
    if persona == TECH_PERSONA:
        if not (_PREFIXED.search(text) or _IRI.search(text) or _SPARQL.search(text)):
            found.append(("other", "ld_without_terms"))
    else:
        if _IRI.search(text):
            found.append(("raw_iri", "iri_in_prose"))
        if _PREFIXED.search(text):
            found.append(("raw_iri", "prefixed_name_in_prose"))
        if _SPARQL.search(text):
            found.append(("other", "sparql_in_prose"))
    return found


def item_question_defects(row: dict) -> list[tuple[str, str, str, str]]:
    """``(class, key, persona, lang)`` for every defect of every question of a pool row."""
    out = []
    for lang, key in (("it", "nl_variants"), ("en", "nl_en_variants")):
        for persona, text in (row.get(key) or {}).items():
            out += [(cls, k, persona, lang) for cls, k in question_defects(text, lang, persona)]
    return out


# -- gold queries --------------------------------------------------------------------------------
def _select_clause(tokens) -> tuple[list, int]:
    """The tokens of the outer SELECT clause and the index of its WHERE (or first ``{``)."""
    start = next((i for i, t in enumerate(tokens) if t.kind == "word" and t.upper == "SELECT"), None)
    if start is None:
        return [], 0
    end = next((i for i in range(start, len(tokens)) if tokens[i].upper == "WHERE" or tokens[i].text == "{"),
               len(tokens))
    return tokens[start + 1:end], end


def projected_names(sparql: str) -> list[str]:
    """The column names the outer SELECT projects (``AS`` names for expressions)."""
    select, _ = _select_clause(tokenize(sparql))
    names, depth = [], 0
    for i, t in enumerate(select):
        depth += (t.text == "(") - (t.text == ")")
        if t.kind == "var" and (depth == 0 or (i and select[i - 1].upper == "AS")):
            names.append(t.text[1:])
    return names


def _columns(select: list) -> tuple[list[str], list[str], set[str]]:
    """Plain projected variables, ``GROUP_CONCAT`` sources, and variables inside other aggregates."""
    plain, concat, other = [], [], set()
    depth, function = 0, None
    for i, t in enumerate(select):
        if t.text == "(":
            depth += 1
            if i > 0 and select[i - 1].kind == "word" and depth == 2:
                function = select[i - 1].upper
        elif t.text == ")":
            depth -= 1
            if depth < 2:
                function = None
        elif t.kind == "var":
            previous = select[i - 1].upper if i else ""
            if depth == 0:
                plain.append(t.text[1:])
            elif function == "GROUP_CONCAT":
                concat.append(t.text[1:])
            elif previous != "AS":
                other.add(t.text[1:])
    return plain, concat, other


def _optional_only(tokens, where: int) -> dict[str, bool]:
    """For each variable of the WHERE clause: True when every occurrence is inside an ``OPTIONAL``."""
    stack: list[bool] = []
    pending = False
    seen: dict[str, bool] = {}
    for t in tokens[where:]:
        if t.kind == "word" and t.upper == "OPTIONAL":
            pending = True
        elif t.text == "{":
            stack.append(pending or (bool(stack) and stack[-1]))
            pending = False
        elif t.text == "}":
            if stack:
                stack.pop()
            if not stack:
                break
        elif t.kind == "var":
            inside = bool(stack) and stack[-1]
            seen[t.text[1:]] = seen.get(t.text[1:], True) and inside
    return seen


def _evidence(tokens, where: int) -> set[str]:
    """Variables a list shows because a constraint tests them: the definition a FILTER searched, the label of an
    emotion a VALUES block allows ("paura o rabbia": which one). The question asked for them by naming the test."""
    text = " ".join(t.text for t in tokens[where:])
    tested = {v for block in re.findall(r"FILTER\s*\((.*?)\)\s*(?:\?|FILTER|}|OPTIONAL|VALUES|$)", text)
              for v in re.findall(r"\?(\w+)", block)}
    allowed = set(re.findall(r"VALUES \?(\w+)", text))
    labelled = {label for subject, label in re.findall(r"\?(\w+) \S*label \?(\w+)", text) if subject in allowed}
    return (tested - {"wr", "lemma"}) | labelled


#: The registry's rules a gold must keep: its errors (a gold ran, so it parses and its prefixes are declared).
_GOLD_RULES = tuple(r for r in RULES if r.severity == "error" and r.id not in ("syntax", "unknown_prefix"))

#: ``GROUP_CONCAT`` straight over a variable (no ``STR()``): an error, so an unbound column, for a number.
_BARE_CONCAT = re.compile(r"(?i)\bGROUP_CONCAT\s*\(\s*(?:DISTINCT\s+)?\?(\w+)")
_NUMERIC_PROPERTIES = {"http://www.gsi.upm.es/ontologies/marl/ns#hasPolarityValue"}


def gold_defects(sparql: str, shape: str | None, fragment_kinds: Iterable[str] = (),
                 patterns: dict | None = None) -> list[tuple[str, str]]:
    """The defects of a gold query, given the item's shape, its fragment kinds and its pattern tags."""
    kinds = list(fragment_kinds)
    tokens = tokenize(sparql)
    select, where = _select_clause(tokens)
    plain, concat, counted = _columns(select)
    optional = _optional_only(tokens, where)
    found: list[tuple[str, str]] = []
    if shape == "list":
        evidence = _evidence(tokens, where)
        columns = [v for v in plain if v not in ("wr", "lemma") and v not in evidence] + concat
        facets, pairs = "projection" in kinds, "pair" in kinds
        for var in columns:
            if pairs and not optional.get(var, True):
                continue  # each row a pair: the fact is required
            if not optional.get(var, True):
                found.append(("facet_filters", "facet_inner_join") if facets else ("extra_column", "column_not_asked"))
            elif not facets:
                found.append(("extra_column", "column_not_asked"))
        if not pairs and len([v for v in plain if v not in ("wr", "lemma") and v not in evidence]) > 1:
            found.append(("cross_product", "facets_not_aggregated"))
    elif shape == "word" and kinds.count("word_fact") > 1:
        facts = [v for v in plain + concat if v != "wr"]  # ?wr: the word asked about, on every row
        if any(not optional.get(v, True) for v in facts):
            found.append(("facet_filters", "fact_inner_join"))
        if len([v for v in plain if v != "wr"]) > 1:
            found.append(("cross_product", "facts_not_aggregated"))
    f = analyze(sparql)
    if "http://liita.it/data" in f.graphs and any(p.endswith("#canonicalForm") and o == "?lemma"
                                                  for _, p, o in analyze(without_negations(sparql)).triple_list):
        found.append(("idle_graph", "graph_around_confined_lemmas"))
    if shape == "count":
        names = [t.text[1:] for t in tokens if t.kind == "var"]
        for _, p, o in f.triple_list:
            if o.startswith("?") and names.count(o[1:]) == 1 and (p.endswith("#writtenRep") or
                                                                  p.endswith("#hasPolarityValue")):
                found.append(("unused_triples", "unused_" + p.rsplit("#", 1)[-1]))
    for var in _BARE_CONCAT.findall(sparql):
        if f.object_of.get(var, set()) & _NUMERIC_PROPERTIES:
            found.append(("empty_column", "group_concat_of_a_number"))
    found += _tag_defects(f, patterns or {}, sparql)
    parsed = parse(sparql)
    found += [("broken_rule", rule.id) for rule in _GOLD_RULES if next(iter(rule.check(sparql, parsed)), None)]
    if f.limit and not f.order_by:
        found.append(("other", "limit_without_order"))
    return found


def _tag_defects(f, patterns: dict, sparql: str) -> list[tuple[str, str]]:
    strong = {k for k, v in patterns.items() if isinstance(v, (int, float)) and v >= 0.5}
    out = []
    # a resource read only inside MINUS / NOT EXISTS is an absence (PRESENCE), not a use of that resource
    positive = analyze(without_negations(sparql)) if {"MINUS", "EXISTS"} & f.words else f
    if any(label in CATALOGUE and CATALOGUE[label].sparql_weight(f) >= 0.5
           and not CATALOGUE[label].sparql_weight(positive) for label in strong):
        out.append(("wrong_tag", "label_for_a_negated_resource"))
    sense = "http://www.w3.org/ns/lemon/ontolex#sense"
    if "SENSE_COUNT" in strong and not any(sense in f.object_of.get(v, set())
                                           for v in f.aggregate_vars.get("COUNT", ())):
        out.append(("wrong_tag", "sense_count_without_sense_count"))
    # the LiITA part of speech or gender (a filter, or what a count is grouped by), or a CompL-it one as a filter;
    # a CompL-it part of speech shown as a column is no POS filter
    lila_pos = f.uses_any("lila:hasPOS", "lila:hasGender")
    complit_filter = any(p.endswith("#partOfSpeech") and not o.startswith("?") for _, p, o in f.triple_list)
    if "POS_FILTER" in strong and not (lila_pos or complit_filter):
        out.append(("wrong_tag", "pos_filter_on_a_projected_pos"))
    return out


def item_defects(row: dict) -> list[tuple[str, str, str, str]]:
    """``(class, key, persona, lang)`` for a pool row: its questions' defects and its gold's (persona ``gold``)."""
    provenance = row.get("provenance") or {}
    shape = row.get("shape") or provenance.get("shape")
    kinds = [f["kind"] for f in row["fragments"]] if row.get("fragments") else provenance.get("question_parts")
    if kinds is None:  # an item from elsewhere: does its question ask for columns next to the lemmas?
        kinds = ["projection"] if _ASKS_COLUMNS.search(row.get("nl", "") + " " + row.get("nl_en", "")) else []
    gold = gold_defects(row["sparql"], shape, kinds, row.get("patterns"))
    return item_question_defects(row) + [(cls, key, "gold", "") for cls, key in gold]
