"""LEXICAL_RELATION: synonyms and antonyms between CompL-it senses."""

from __future__ import annotations

import random
import re

from ..namespaces import COMPLIT_SERVICE, COMPLIT_VOCAB, PREFIXES
from ..rules import Breach, Parsed, Rule, parse, short
from ..sparql.lexer import tokenize
from ..sparql.model import IRI, Path, Triple
from .base import Facts, Frame, frag, pl, quote, related_to_named
from .reading import ARTICLE, NAMED_HEAD, VALUE, RelationKind, Text, ok_word, reads
from .relations import RelationPattern

ANTONYM_PROPS = (PREFIXES["lexinfo"] + "antonym", COMPLIT_VOCAB + "antonymComp", COMPLIT_VOCAB + "antonymGrad")
SYNONYM = PREFIXES["lexinfo"] + "approximateSynonym"
#: Synonymy and antonymy hold both ways, but CompL-it stores many pairs in one direction only (on the mirror,
#: 1,630 of 4,045 synonym links have no link back): every block reads them in both directions, and the
#: ``symmetric_relation`` rule asks the same of any query (validator, repair, prompts).
SYMMETRIC = (SYNONYM, *ANTONYM_PROPS)
#: How questions name one antonym property (folded name ending → IRI); none named: all three.
ANTONYM_NAMES = {"antonymgrad": ANTONYM_PROPS[2], "antonymcomp": ANTONYM_PROPS[1], "lexinfo:antonym": ANTONYM_PROPS[0],
                 "lexinfo#antonym": ANTONYM_PROPS[0]}
#: A word to use in place of another: its synonyms ("al posto di X", "another word for X").
INSTEAD = (r"\b(?:al posto di|invece di|in sostituzione di|in alternativa a|alternativ[ae] (?:a|per)|"
           r"(?:un'|una |un )?altr[ae] parol[ae] per|(?:un )?altro modo (?:di|per) dire|sostituire|"
           r"instead of|in place of|rather than|replace|(?:an)?other words? for|alternatives? (?:to|for)|"
           r"(?:an)?other way (?:of saying|to say))\s+")
#: Synonymy said as "the same meaning": not a request for definitions.
SAME_MEANING = r"stesso significato|same meaning|mean the same|significano lo stesso"
SYNONYM_KIND = RelationKind(
    "synonym", "LEXICAL_RELATION",
    target=(r"(?:sinonim\w*|synonyms?|stesso significato|same meaning|significato simile|similar meaning|"
            r"mean(?:s)? the same(?: thing)?|significa(?:no)? lo stesso|vogliono dire lo stesso|vuol dire lo stesso)"),
    project=r"\b(?:sinonim\w*|synonyms?|stesso significato|same meaning)\b",
    markers=("synonym",), plural=r"sinonimi|synonyms", verb_phrase=r"mean|signific|vogliono|vuol")
ANTONYM_KIND = RelationKind(
    "antonym", "LEXICAL_RELATION",
    target=r"(?:antonim\w*|antonyms?|contrari[oe]?|opposit[oe]s?|oppost[oiae]|il contrario)",
    project=r"\b(?:antonim\w*|antonyms?|contrari\w*|opposit\w*|oppost\w*)\b",
    markers=("antonim", "antonym"), plural=r"antonimi|contrari|antonyms|opposites")


def both_ways(props) -> Path:
    """``(p|^p)``, ``(p1|p2|^p1|^p2)``: symmetric relations read in both directions."""
    iris = tuple(IRI(p) for p in props)
    return Path("alt", iris + tuple(Path("inv", (i,)) for i in iris))


def _one_way(query: str, parsed: Parsed):
    for t in parsed.triples:
        once = [p for p in SYMMETRIC if t.p_iris.count(p) == 1]  # (p|^p) names it twice
        if t.predicate in SYMMETRIC or (t.path and once):
            name = short(t.predicate or once[0])
            yield Breach(f"{name} is read in one direction only; CompL-it stores many of its links one way: "
                         f"read it both ways, ({name}|^{name})", fix=f"({name}|^{name})")


def _fix_one_way(query: str) -> tuple[str, list[str]]:
    """A symmetric property as a plain predicate becomes ``(p|^p)``; an alternative of them, ``(p|q)``,
    becomes ``(p|q|^p|^q)``."""
    parsed = parse(query)
    plain = {t.p.start for t in parsed.triples if t.predicate in SYMMETRIC and not t.inverse}
    tokens = tokenize(query)

    def symmetric(tok) -> bool:
        if tok.kind == "iri":
            return tok.text[1:-1] in SYMMETRIC
        prefix, _, local = tok.text.partition(":")
        return tok.kind == "pname" and parsed.prefixes.get(prefix, "") + local in SYMMETRIC

    edits, i = [], 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.start in plain:
            edits.append((tok.start, tok.start + len(tok.text), f"({tok.text}|^{tok.text})", tok.text))
        elif tok.text == "(" and (i == 0 or tokens[i - 1].text != "^"):
            names, j = [], i + 1
            while j + 1 < len(tokens) and symmetric(tokens[j]) and tokens[j + 1].text in ("|", ")"):
                names.append(tokens[j].text)
                j += 2
                if tokens[j - 1].text == ")":
                    break
            if names and tokens[j - 1].text == ")":
                text = "(" + "|".join(names + ["^" + n for n in names]) + ")"
                edits.append((tok.start, tokens[j - 1].start + 1, text, "|".join(names)))
                i = j
                continue
        i += 1
    for start, end, text, _ in reversed(edits):
        query = query[:start] + text + query[end:]
    return query, [f"{name} read in both directions" for *_, name in edits]


SYMMETRIC_RELATION = Rule(
    "symmetric_relation", "warning",
    "Synonyms and antonyms are symmetric, but CompL-it stores many pairs in one direction only: read "
    "lexinfo:approximateSynonym, lexinfo:antonym and compl-it antonymComp/antonymGrad both ways, "
    "?sense (lexinfo:approximateSynonym|^lexinfo:approximateSynonym) ?otherSense.",
    _one_way,
    broken="PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
           "PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>\n"
           f"SELECT ?s2 WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?w ontolex:sense ?s . "
           "?s lexinfo:approximateSynonym ?s2 } }",
    fix=_fix_one_way)


def _fact(prop_values: str) -> str:
    # both directions, as every block reads them (SYMMETRIC)
    return ("SELECT DISTINCT ?lemma ?o ?rel WHERE { ?word ontolex:canonicalForm ?lemma . ?lemma a lila:Lemma . "
            f"SERVICE <{COMPLIT_SERVICE}> {{ VALUES ?rel {{ {prop_values} }} ?word ontolex:sense ?s . "
            "{ ?s ?rel ?os } UNION { ?os ?rel ?s } "
            "?ow ontolex:sense ?os ; ontolex:canonicalForm ?of . ?of ontolex:writtenRep ?o } }")


class LexicalRelation(RelationPattern):
    """Synonyms (``lexinfo:approximateSynonym``) and antonyms (``lexinfo:antonym``, CompL-it's antonymComp/Grad)."""

    label = "LEXICAL_RELATION"
    rank = 80
    guidance = ("Synonyms: lexinfo:approximateSynonym; antonyms: " + " or ".join(f"<{p}>" for p in ANTONYM_PROPS)
                + " (use all three), between senses, inside SERVICE.")
    example = ("list", None, {"relation": "synonym", "target": "paura"})
    resource = "CompL-it"
    entry_properties = ("ontolex:sense",)
    rules = (SYMMETRIC_RELATION,)
    fact_queries = {
        "synonym": _fact(f"<{SYNONYM}>"),
        "antonym": _fact(" ".join(f"<{p}>" for p in ANTONYM_PROPS)),
    }
    question_cues = [
        (r"\b(sinonim\w*|synonym\w*|stesso significato|same meaning|means? the same|lexinfo:approximatesynonym)\b", 0.9),
        (r"\b(antonim\w*|antonym\w*|contrari\w*|opposit\w*|opposto)\b", 0.9),
    ]

    needs_any = ("synonym", "antonym")
    compose = {"constraint": 6, "word": 7}
    excludes = ("SEMANTIC_RELATION",)
    build_order = 6
    relation_kinds = (SYNONYM_KIND, ANTONYM_KIND)
    fact_nouns = r"sinonim[oi]|contrari[oi]?|antonim[oi]|synonyms?|antonyms?|opposites?"
    requirable = True

    @reads(11)
    def read_property(self, text: Text, slots) -> None:
        """One antonym property named in the question (as an IRI or a prefixed name)."""
        names = [i.lower() for i in slots.iris] + re.findall(r"(?<![a-z-])[a-z-]+[:#]antonym\w*", text.folded)
        for name in names:
            for key, prop in ANTONYM_NAMES.items():
                if name == prop.lower() or name.endswith(key):
                    slots.relation_property = prop

    @reads(59)
    def read_instead(self, text: Text, slots) -> None:
        """"Che parola posso usare al posto di X?", "another word for X": the synonyms of X."""
        m = text.search(INSTEAD + rf"{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}")
        if m and ok_word(text.raw(m)) and not slots.relation:
            slots.relation, slots.relation_mode = "synonym", "project"
            slots.word = text.value(m)
            text.mask(*m.span())

    @reads(111)
    def read_same_meaning(self, text: Text, slots) -> None:
        """Synonyms asked as "the same meaning": that meaning is not a request for definitions."""
        if slots.relation == "synonym":
            text.drop(SAME_MEANING)

    def relation_step(self, slots, target: str | None) -> dict:
        step = super().relation_step(slots, target)
        if slots.relation_property:
            step["property"] = slots.relation_property
        return step

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        kind = rng.choice([k for k in ("synonym", "antonym") if lemma in facts.by_lemma(k)])
        other, _ = rng.choice(facts.by_lemma(kind)[lemma])
        # no property: "the opposite of X" means every antonym property (a question that names none)
        return {"relation": kind, "target": other}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        target = slots.get("target")
        if not target:
            return None  # shown next to the lemmas: it narrows nothing
        return facts.lemmas_related_to(slots["relation"], target)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        kind, other = slots["relation"], slots.get("target")
        rel = slots.get("property") or (SYNONYM if kind == "synonym" else ANTONYM_PROPS[0])
        prop = both_ways([rel])
        is_syn = kind == "synonym"
        named = f"<{rel}>" if slots.get("property") else "lexinfo:antonym"
        if not is_syn and not slots.get("property"):  # no property named: CompL-it uses all three
            prop = both_ways(ANTONYM_PROPS)
            named = "lexinfo:antonym, antonymComp o antonymGrad di CompL-it"
        named_en = named.replace(" o ", " or ").replace(" di CompL-it", " of CompL-it")
        if frame.shape == "word" or not other:
            required = bool(slots.get("required")) and frame.shape == "list"
            self._build_facet(frame, is_syn, prop, named, named_en, required)
            return
        related_to_named(frame, prop, other)
        qi, qe = quote("it", other), quote("en", other)
        if is_syn:
            f = frag("constraint", [f"sono sinonimi di {qi}", f"hanno lo stesso significato di {qi}"],
                     [f"are synonyms of {qe}", f"mean the same as {qe}"],
                     f"con un senso lexinfo:approximateSynonym di un senso di {qi}",
                     f"with a sense that is lexinfo:approximateSynonym of a sense of {qe}")
        else:
            f = frag("constraint", [f"sono antonimi di {qi}", f"sono il contrario di {qi}"],
                     [f"are antonyms of {qe}", f"are the opposite of {qe}"],
                     f"con un senso antonimo ({named}) di un senso di {qi}",
                     f"with a sense that is an antonym ({named_en}) of a sense of {qe}")
        frame.fragments.append(f)
        frame.slot("related_word", other)
        frame.tag(self.label, 0.9)

    def _build_facet(self, frame: Frame, is_syn: bool, prop, named: str, named_en: str,
                     required: bool = False) -> None:
        """The synonyms (or antonyms) of a word's senses, or of each listed lemma, kept optional;
        ``required``: only the lemmas that have one ("which words have a synonym")."""
        word, facet = frame.complit_facet(required)
        sense, other_sense, other_word = frame.fresh("sense"), frame.fresh("relatedSense"), frame.fresh("relatedWord")
        form, other_wr = frame.fresh("relatedForm"), frame.fresh("synonym" if is_syn else "antonym")
        facet.group.add(Triple(word, IRI.of("ontolex:sense"), sense), Triple(sense, prop, other_sense),
                        Triple(other_word, IRI.of("ontolex:sense"), other_sense),
                        Triple(other_word, IRI.of("ontolex:canonicalForm"), form),
                        Triple(form, IRI.of("ontolex:writtenRep"), other_wr))
        frame.show(facet, other_wr, "synonyms" if is_syn else "antonyms")
        listed = frame.shape != "word"
        if is_syn:
            f = frag("projection" if listed else "word_fact",
                     [pl("i loro sinonimi")] if listed else [pl("i sinonimi"), pl("le parole con lo stesso significato")],
                     [pl("their synonyms")] if listed else [pl("the synonyms"), pl("the words with the same meaning")],
                     "i sinonimi (lexinfo:approximateSynonym)", "the synonyms (lexinfo:approximateSynonym)")
        else:
            f = frag("projection" if listed else "word_fact",
                     [pl("i loro contrari")] if listed else [pl("i contrari"), pl("gli antonimi")],
                     [pl("their antonyms")] if listed else [pl("the antonyms"), pl("the opposites")],
                     f"gli antonimi ({named})", f"the antonyms ({named_en})",
                     ask=None if listed else (["Qual è il contrario di {w}?"], ["What is the opposite of {w}?"]))
        frame.fragments.append(f)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses(SYNONYM) or any(f.uses(p) for p in ANTONYM_PROPS) or f.uses_any(COMPLIT_VOCAB + "synonym"):
            return 0.9
        return 0.0


PATTERN = LexicalRelation()
