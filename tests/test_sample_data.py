"""The embedded LiITA-shaped sample KB (``nl2sparql/data/sample/liita_sample.trig``).

Loaded as the product loads a LiITA store: default graph = union of every named
graph except CompL-it, and ``SERVICE <CompL-it>`` rewritten to ``GRAPH <CompL-it>``.
Every check is a SPARQL query over that setup.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest

from nl2sparql.data.sample import build as sample_build
from nl2sparql.errors import DataError
from nl2sparql.namespaces import (
    COMPLIT_LINKS_GRAPH,
    COMPLIT_SERVICE,
    COMPLIT_VOCAB,
    ELITA_GRAPH,
    EMOTIONS,
    LEMMA_BANK,
    LIITA_GRAPH,
    PARMIGIANO_GRAPH,
    PARMIGIANO_LEMMA_BANK,
    PARMIGIANO_LEXICON,
    SENTIX_GRAPH,
    SICILIANO_GRAPH,
    SICILIANO_LEMMA_BANK,
    SICILIANO_LEXICON,
    prologue,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DIR = ROOT / "nl2sparql" / "data" / "sample"
TRIG = SAMPLE_DIR / "liita_sample.trig"
MORPHOLOGY_GRAPH = "http://liita.it/data/morphology"
COMPLIT = "https://klab.ilc.cnr.it/graphdb-compl-it/"
SERVICE = f"SERVICE <{COMPLIT}>"
_SERVICE_RE = re.compile(
    r"SERVICE\s+(SILENT\s+)?<https://klab\.ilc\.cnr\.it/graphdb-compl-it/>", re.I)

EXPECTED_GRAPHS = {
    LIITA_GRAPH, ELITA_GRAPH, SENTIX_GRAPH, PARMIGIANO_GRAPH, SICILIANO_GRAPH,
    COMPLIT_LINKS_GRAPH, COMPLIT_SERVICE, MORPHOLOGY_GRAPH,
}


@pytest.fixture(scope="module")
def store() -> ox.Store:
    s = ox.Store()
    s.load(path=str(TRIG), format=ox.RdfFormat.TRIG)
    return s


@pytest.fixture(scope="module")
def run(store):
    default = [g for g in store.named_graphs() if g.value != COMPLIT_SERVICE]

    def _run(sparql: str) -> list:
        query = prologue() + _SERVICE_RE.sub(f"GRAPH <{COMPLIT_SERVICE}>", sparql)
        return list(store.query(query, default_graph=default))

    return _run


@pytest.fixture(scope="module")
def count(run):
    def _count(where: str, what: str = "*") -> int:
        rows = run(f"SELECT (COUNT({what}) AS ?n) WHERE {{ {where} }}")
        return int(rows[0]["n"].value)

    return _count


def values(rows, var: str) -> list[str]:
    return [row[var].value for row in rows]


# --- file and graphs ----------------------------------------------------------

def test_graphs_and_size(store):
    graphs = {g.value for g in store.named_graphs()}
    assert graphs == EXPECTED_GRAPHS
    assert 8000 <= len(store) <= 21000
    assert not list(store.quads_for_pattern(None, None, None, ox.DefaultGraph()))


def test_rebuild_is_byte_identical(tmp_path):
    out = tmp_path / "rebuilt.trig"
    subprocess.run([sys.executable, "-m", "nl2sparql.data.sample.build", "--output", str(out)],
                   check=True, cwd=ROOT)
    assert out.read_bytes() == TRIG.read_bytes()


def test_default_graph_excludes_complit(count):
    assert count("?w a ontolex:Word") == 0
    assert count(f"{SERVICE} {{ ?w a ontolex:Word }}") >= 200


# --- Italian lemma bank -------------------------------------------------------

def test_lemma_bank_shape(count, run):
    bank = f"<{LEMMA_BANK}>"
    assert count(f"?l a lila:Lemma ; dcterms:isPartOf {bank} ; rdfs:label ?lab ; "
                 "ontolex:writtenRep ?wr ; lila:hasPOS ?p", "DISTINCT ?l") >= 300
    # every lemma is complete and its label is its first written rep
    assert count(f"?l a lila:Lemma ; dcterms:isPartOf {bank} . "
                 "FILTER NOT EXISTS { ?l rdfs:label ?x ; ontolex:writtenRep ?y ; lila:hasPOS ?z }") == 0
    assert count(f"?l a lila:Lemma ; dcterms:isPartOf {bank} ; ontolex:writtenRep ?wr . "
                 "FILTER(LANG(?wr) != 'it')") == 0
    rows = run(f"SELECT ?t WHERE {{ {bank} a <http://rdfs.org/ns/void#Dataset> ; dcterms:title ?t }}")
    assert len(rows) == 1


def test_lemma_pos_and_gender(run, count):
    rows = run(f"""SELECT ?pos (COUNT(?l) AS ?n) WHERE {{
        ?l a lila:Lemma ; dcterms:isPartOf <{LEMMA_BANK}> ; lila:hasPOS ?pos }} GROUP BY ?pos""")
    by_pos = {r["pos"].value.rsplit("/", 1)[1]: int(r["n"].value) for r in rows}
    for pos, minimum in {"noun": 150, "verb": 40, "adjective": 40, "adverb": 15}.items():
        assert by_pos.get(pos, 0) >= minimum, pos
    for pos in ("proper_noun", "interjection", "pronoun", "numeral", "adposition",
                "determiner", "coordinating_conjunction", "subordinating_conjunction"):
        assert by_pos.get(pos, 0) >= 3, pos
    assert count("?l lila:hasPOS lila:noun ; lila:hasGender lila:masculine") >= 50
    assert count("?l lila:hasPOS lila:noun ; lila:hasGender lila:feminine") >= 50
    assert count("?l lila:hasGender lila:masculine, lila:feminine") >= 5
    # inflection type on verbs (by conjugation), degree on adjectives
    assert count(f"?l lila:hasPOS lila:verb ; dcterms:isPartOf <{LEMMA_BANK}> . "
                 "FILTER NOT EXISTS { ?l lila:hasInflectionType ?t }") == 0
    assert count("?l lila:hasInflectionType <http://liita.it/ontologies/liita/c3>") >= 3
    assert count("?l lila:hasDegree lila:superlative") >= 3
    assert count("?l lila:hasDegree lila:positive") >= 40


def test_variants_and_accents(run, count):
    assert count("?l a lila:Lemma ; ontolex:writtenRep ?a, ?b . FILTER(STR(?a) < STR(?b))",
                 "DISTINCT ?l") >= 5
    rows = run("""SELECT ?wr WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr .
        FILTER(STR(?wr) IN ("città", "perché", "caffè", "felicità", "lunedì", "però")) }""")
    assert len(rows) == 6


def test_hypolemmas(count):
    assert count("?h a lila:Hypolemma ; lila:isHypolemma ?l ; rdfs:label ?lab ; "
                 "ontolex:writtenRep ?wr ; lila:hasPOS ?p . ?l a lila:Lemma") >= 20
    assert count("?h a lila:Hypolemma ; lila:hasPOS lila:adverb ; ontolex:writtenRep ?wr . "
                 "FILTER(STRENDS(STR(?wr), 'mente'))") >= 5
    assert count("?h a lila:Hypolemma ; lila:hasPOS lila:adjective") >= 10


AFFIXES = {  # name -> SPARQL regex over lemma written reps (>= 3 lemmas each)
    "-zione": "zione$", "-mente": "mente$", "-bile": "bile$", "-ino": "ino$",
    "-etto": "etto$", "-ello": "ello$", "-one": "one$", "-ista": "ista$", "-tore": "tore$",
    "-ezza": "ezza$", "-ità": "ità$", "-ismo": "ismo$", "-oso": "oso$", "-are": "are$",
    "-ere": "ere$", "-ire": "ire$", "ri-": "^ri", "dis-": "^dis", "pre-": "^pre",
    "anti-": "^anti", "in-": "^in", "s-": "^s[bcdfglmnprtv]", "auto-": "^auto",
    "capo-": "^capo", "super-": "^super", "tras-": "^tras", "acqua": "acqua", "geo": "geo",
    "casa": "casa", "mare": "mare",
}


@pytest.mark.parametrize("name", sorted(AFFIXES))
def test_affix_groups(count, name):
    where = ("?l a lila:Lemma ; dcterms:isPartOf <%s> ; ontolex:writtenRep ?wr . "
             "FILTER(REGEX(STR(?wr), \"%s\"))") % (LEMMA_BANK, AFFIXES[name])
    assert count(where, "DISTINCT ?l") >= 3


# --- ELITA and Sentix ---------------------------------------------------------

def test_elita_emotions(run, count):
    assert count("elita:Emotion a <http://www.w3.org/2002/07/owl#Class>") == 1
    rows = run("SELECT ?e ?label WHERE { GRAPH <http://w3id.org/elita> { ?e a elita:Emotion ; rdfs:label ?label } }")
    assert sorted(values(rows, "label")) == sorted(EMOTIONS)
    assert all(r["label"].language == "it" for r in rows)
    for emotion in EMOTIONS:
        assert count(f"?x elita:HasEmotion elita:{emotion} ; ontolex:canonicalForm ?l") >= 8, emotion


def test_elita_entries(run, count):
    entries = "?e elita:HasEmotion ?em ; rdfs:label ?lab ; ontolex:canonicalForm ?l ; " \
              "marl:Polarity ?pol ; marl:hasPolarityValue ?v"
    assert count(entries, "DISTINCT ?e") >= 90
    assert count("?e elita:HasEmotion ?a, ?b . FILTER(STR(?a) < STR(?b))", "DISTINCT ?e") >= 20
    assert count(f"{entries} . FILTER(?pol NOT IN ('Positive', 'Negative', 'Neutral'))") == 0
    assert count(f"{entries} . FILTER(DATATYPE(?v) != xsd:float || ?v < -1 || ?v > 1)") == 0
    for polarity in ("Positive", "Negative", "Neutral"):
        assert count(f"?e marl:Polarity '{polarity}'") >= 5
    rows = run("SELECT DISTINCT ?pos WHERE { ?e elita:HasEmotion ?em ; ontolex:canonicalForm ?l . "
               "?l lila:hasPOS ?pos }")
    pos = {v.rsplit("/", 1)[1] for v in values(rows, "pos")}
    assert {"noun", "verb", "adjective", "adverb"} <= pos
    assert count("?e elita:HasEmotion ?em ; ontolex:canonicalForm ?h . ?h a lila:Hypolemma") >= 3


def test_sentix(run, count):
    assert count("?e marl:hasPolarity ?p ; marl:hasPolarityValue ?v ; ontolex:canonicalForm ?l . "
                 "?l a lila:Lemma", "DISTINCT ?l") >= 120
    assert count("?e marl:hasPolarityValue ?v . ?e marl:hasPolarity ?p . "
                 "FILTER(DATATYPE(?v) != xsd:float || ?v < -1 || ?v > 1)") == 0
    rows = run("SELECT ?label WHERE { ?p a marl:Polarity ; rdfs:label ?label }")
    assert sorted(values(rows, "label")) == ["Negative", "Neutral", "Positive"]
    # a lemma with both an ELITA and a Sentix entry: two polarity values
    rows = run("""SELECT ?v WHERE { ?lemma ontolex:writtenRep "paura"@it .
        ?x ontolex:canonicalForm ?lemma ; marl:hasPolarityValue ?v }""")
    assert len(rows) == 2
    assert count("?a elita:HasEmotion ?em ; ontolex:canonicalForm ?l . "
                 "?b marl:hasPolarity ?p ; ontolex:canonicalForm ?l", "DISTINCT ?l") >= 100


# --- dialects -----------------------------------------------------------------

def _translations(graph: str) -> str:
    return f"GRAPH <{graph}> {{ ?it ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?d . " \
           "?d ontolex:canonicalForm ?dl }"


@pytest.mark.parametrize("graph,lexicon,bank,lang", [
    (PARMIGIANO_GRAPH, PARMIGIANO_LEXICON, PARMIGIANO_LEMMA_BANK, "roa"),
    (SICILIANO_GRAPH, SICILIANO_LEXICON, SICILIANO_LEMMA_BANK, "scn"),
])
def test_glossary_shape(count, graph, lexicon, bank, lang):
    assert count(_translations(graph) + " ?lemma a lila:Lemma ; dcterms:isPartOf <%s> . "
                 "?dl a lila:Lemma ; dcterms:isPartOf <%s>" % (LEMMA_BANK, bank)) >= 80
    # lexicon lists both sides; every entry is typed
    assert count(f"<{lexicon}> a lime:Lexicon ; lime:entry ?it, ?d . "
                 "?it vartrans:translatableAs ?d") >= 80
    assert count(f"<{lexicon}> lime:entry ?e . FILTER NOT EXISTS {{ ?e a ontolex:LexicalEntry }}") == 0
    assert count(f"?dl dcterms:isPartOf <{bank}> ; ontolex:writtenRep ?wr ; rdfs:label ?lab ; "
                 f"lila:hasPOS ?pos . FILTER(LANG(?wr) = '{lang}')", "DISTINCT ?dl") >= 80
    assert count(f"?dl dcterms:isPartOf <{bank}> ; ontolex:writtenRep ?wr . "
                 f"FILTER(LANG(?wr) != '{lang}')") == 0
    # Italian lemmas with two translations
    assert count(_translations(graph).replace("?d .", "?d, ?d2 . FILTER(?d != ?d2)"),
                 "DISTINCT ?lemma") >= 2


def test_translation_direction_and_labels(run):
    rows = run("""SELECT ?label ?dwr WHERE { ?lemma ontolex:writtenRep "casa"@it .
        ?it ontolex:canonicalForm ?lemma ; rdfs:label ?label ; vartrans:translatableAs ?d .
        ?d ontolex:canonicalForm ?dl . ?dl ontolex:writtenRep ?dwr } ORDER BY ?dwr""")
    assert {r["label"].value for r in rows} == {"Lexical entry of Italian: casa"}
    assert {r["dwr"].language for r in rows} == {"roa", "scn"}


def test_sicilian_features(count):
    sic = f"?l dcterms:isPartOf <{SICILIANO_LEMMA_BANK}> ; ontolex:writtenRep ?wr"
    assert count(f"{sic} . FILTER(STRSTARTS(STR(?wr), 'z'))", "DISTINCT ?l") >= 3
    assert count(f"{sic} . FILTER(STRENDS(STR(?wr), 'u'))", "DISTINCT ?l") >= 20
    assert count(f"{sic} . FILTER(STRENDS(STR(?wr), 'ìa'))", "DISTINCT ?l") >= 3
    assert count(f"?l dcterms:isPartOf <{SICILIANO_LEMMA_BANK}> ; ontolex:writtenRep ?a, ?b . "
                 "FILTER(STR(?a) < STR(?b))", "DISTINCT ?l") >= 2
    assert count(f"?l dcterms:isPartOf <{SICILIANO_LEMMA_BANK}> ; lila:hasPOS lila:noun . "
                 "FILTER NOT EXISTS { ?l lila:hasGender ?g }") == 0


def test_both_dialects(count):
    assert count(_translations(PARMIGIANO_GRAPH) + " " +
                 _translations(SICILIANO_GRAPH).replace("?it", "?it2").replace("?d", "?e2"),
                 "DISTINCT ?lemma") >= 40


# --- CompL-it -----------------------------------------------------------------

def test_complit_words_and_senses(run, count):
    words = f"{SERVICE} {{ ?w a ontolex:Word ; lexinfo:partOfSpeech ?pos ; " \
            "ontolex:canonicalForm ?f ; ontolex:sense ?s . ?f a ontolex:Form ; ontolex:writtenRep ?wr }"
    assert count(words, "DISTINCT ?w") >= 200
    assert count(f"{SERVICE} {{ ?s a ontolex:LexicalSense ; skos:definition ?d }}", "DISTINCT ?s") >= 150
    rows = run(f"""SELECT ?w (COUNT(?s) AS ?n) WHERE {{ {SERVICE} {{ ?w ontolex:sense ?s }} }}
                  GROUP BY ?w HAVING (COUNT(?s) >= 2)""")
    assert len(rows) >= 20
    assert all(2 <= int(r["n"].value) <= 4 for r in rows)
    assert count(f"{SERVICE} {{ ?s lexinfo:senseExample ?ex }}") >= 10
    rows = run(f"SELECT ?label WHERE {{ {SERVICE} {{ lexinfo:noun a lexinfo:PartOfSpeech ; rdfs:label ?label }} }}")
    assert values(rows, "label") == ["noun"]
    # every word has a POS individual with a label; every sense belongs to a word
    assert count(f"{SERVICE} {{ ?w a ontolex:Word ; lexinfo:partOfSpeech ?p . "
                 "FILTER NOT EXISTS { ?p rdfs:label ?l } }") == 0
    assert count(f"{SERVICE} {{ ?s a ontolex:LexicalSense . FILTER NOT EXISTS {{ ?w ontolex:sense ?s }} }}") == 0


def test_sense_definition_lookup(run):
    rows = run(f"""SELECT ?d WHERE {{ {SERVICE} {{
        ?w ontolex:canonicalForm [ ontolex:writtenRep ?wr ] ; ontolex:sense [ skos:definition ?d ] .
        FILTER(STR(?wr) = "paura") }} }} ORDER BY ?d""")
    assert len(rows) == 2


@pytest.mark.parametrize("forward,inverse", [
    ("lexinfo:hyponym", "lexinfo:hypernym"),
    ("lexinfo:partMeronym", "lexinfo:partHolonym"),
    ("lexinfo:memberMeronym", "lexinfo:memberHolonym"),
])
def test_inverse_relations_materialised(count, forward, inverse):
    assert count(f"{SERVICE} {{ ?a {forward} ?b }}") >= 8
    assert count(f"{SERVICE} {{ ?a {forward} ?b . FILTER NOT EXISTS {{ ?b {inverse} ?a }} }}") == 0
    assert count(f"{SERVICE} {{ ?a {inverse} ?b . FILTER NOT EXISTS {{ ?b {forward} ?a }} }}") == 0


def _word_sense(word: str, var: str) -> str:
    return f"?{var}w ontolex:canonicalForm [ ontolex:writtenRep \"{word}\"@it ] ; ontolex:sense ?{var} ."


def test_hypernym_direction(run):
    # ?specific lexinfo:hyponym ?general ; ?general lexinfo:hypernym ?specific
    rows = run(f"""SELECT ?wr WHERE {{ {SERVICE} {{ {_word_sense("animale", "a")}
        ?x lexinfo:hyponym ?a . ?xw ontolex:sense ?x ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }} }}""")
    assert {"mammifero", "uccello", "rettile"} <= set(values(rows, "wr"))
    rows = run(f"""SELECT ?wr WHERE {{ {SERVICE} {{ {_word_sense("cane", "c")}
        ?g lexinfo:hypernym ?c . ?gw ontolex:sense ?g ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }} }}""")
    assert values(rows, "wr") == ["mammifero"]


def test_hypernym_chains(run, count):
    # depth >= 3 below entità / animale / emozione
    rows = run(f"""SELECT DISTINCT ?wr WHERE {{ {SERVICE} {{ {_word_sense("entità", "top")}
        ?a lexinfo:hyponym ?top . ?b lexinfo:hyponym ?a . ?c lexinfo:hyponym ?b . ?d lexinfo:hyponym ?c .
        ?dw ontolex:sense ?d ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }} }}""")
    assert {"cane", "terrore", "taxi"} <= set(values(rows, "wr"))
    assert count(f"{SERVICE} {{ {_word_sense('animale', 'a')} ?x lexinfo:hyponym+ ?a }}", "DISTINCT ?x") >= 40
    assert count(f"{SERVICE} {{ {_word_sense('emozione', 'e')} ?x lexinfo:hyponym+ ?e }}", "DISTINCT ?x") >= 20
    rows = run(f"""SELECT ?g WHERE {{ {SERVICE} {{ ?x lexinfo:hyponym ?g }} }}
                  GROUP BY ?g HAVING (COUNT(DISTINCT ?x) >= 3)""")
    assert len(rows) >= 12


def test_meronyms(run):
    rows = run(f"""SELECT ?whole WHERE {{ {SERVICE} {{ ?p lexinfo:partMeronym ?whole }} }}
                  GROUP BY ?whole HAVING (COUNT(DISTINCT ?p) >= 3)""")
    assert len(rows) >= 12
    rows = run(f"""SELECT ?wr WHERE {{ {SERVICE} {{ {_word_sense("corpo", "c")}
        ?c lexinfo:partHolonym ?p . ?pw ontolex:sense ?p ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }} }}""")
    assert {"testa", "braccio", "gamba"} <= set(values(rows, "wr"))


@pytest.mark.parametrize("prop,minimum", [
    ("lexinfo:approximateSynonym", 20),
    ("lexinfo:antonym", 10),
    ("<http://klab/lexicon/vocabulary/compl-it#antonymGrad>", 8),
    ("<http://klab/lexicon/vocabulary/compl-it#antonymComp>", 4),
])
def test_symmetric_relations(count, prop, minimum):
    assert count(f"{SERVICE} {{ ?a {prop} ?b . FILTER(STR(?a) < STR(?b)) }}") >= minimum
    # stored both ways, but for the pairs written one-way (as LiITA stores many): one each of synonymy and antonymy
    one_way = {"lexinfo:approximateSynonym": 1, "lexinfo:antonym": 1}.get(prop, 0)
    assert count(f"{SERVICE} {{ ?a {prop} ?b . FILTER NOT EXISTS {{ ?b {prop} ?a }} }}") == one_way


def test_complit_antonyms_and_simple_relations(run, count):
    grad = "<http://klab/lexicon/vocabulary/compl-it#antonymGrad>"
    comp = "<http://klab/lexicon/vocabulary/compl-it#antonymComp>"
    assert count(f"{SERVICE} {{ ?a {grad}|{comp} ?b . FILTER(STR(?a) < STR(?b)) }}") >= 10
    rows = run(f"""SELECT ?wr WHERE {{ {SERVICE} {{ {_word_sense("caldo", "c")}
        ?c {grad} ?o . ?ow ontolex:sense ?o ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }} }}""")
    assert values(rows, "wr") == ["freddo"]
    for rel in ("usedFor", "madeOf"):
        assert count(f"{SERVICE} {{ ?a <http://klab/lexicon/vocabulary/compl-it#{rel}> ?b }}") >= 3


def test_complit_links(count):
    # every CompL-it word whose written rep and POS match a LiITA lemma is linked to it
    pos_map = "VALUES (?lp ?lila) { (lexinfo:noun lila:noun) (lexinfo:verb lila:verb) " \
              "(lexinfo:adjective lila:adjective) (lexinfo:adverb lila:adverb) }"
    unlinked = f"""{SERVICE} {{ ?w a ontolex:Word ; lexinfo:partOfSpeech ?lp ;
            ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }}
        {pos_map}
        ?lemma a lila:Lemma ; ontolex:writtenRep ?wr ; lila:hasPOS ?lila .
        FILTER NOT EXISTS {{ ?w ontolex:canonicalForm ?lemma }}"""
    assert count(unlinked) == 0
    linked = f"""GRAPH <{COMPLIT_LINKS_GRAPH}> {{ ?w ontolex:canonicalForm ?lemma }}
        ?lemma a lila:Lemma ; ontolex:writtenRep ?wr ; lila:hasPOS ?lila .
        {pos_map}
        {SERVICE} {{ ?w lexinfo:partOfSpeech ?lp ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] }}"""
    assert count(linked, "DISTINCT ?w") == count(f"GRAPH <{COMPLIT_LINKS_GRAPH}> {{ ?w ?p ?o }}") >= 200
    # a few CompL-it words deliberately have no LiITA lemma
    assert count(f"{SERVICE} {{ ?w a ontolex:Word }} FILTER NOT EXISTS {{ ?w ontolex:canonicalForm ?l }}") >= 1


# --- cross-layer --------------------------------------------------------------

def test_cross_layer_elita_and_definitions(count):
    assert count(f"""?e elita:HasEmotion ?em ; ontolex:canonicalForm ?lemma .
        ?w ontolex:canonicalForm ?lemma .
        {SERVICE} {{ ?w ontolex:sense ?s . ?s skos:definition ?d }}""", "DISTINCT ?lemma") >= 60


def test_cross_layer_elita_and_dialects(count):
    assert count("?e elita:HasEmotion ?em ; ontolex:canonicalForm ?lemma . "
                 "?it ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?d", "DISTINCT ?lemma") >= 40


def test_cross_layer_hyponyms_with_emotions_or_translations(count):
    assert count(f"""{SERVICE} {{
            ?gw ontolex:canonicalForm [ ontolex:writtenRep ?g ] ; ontolex:sense ?gs .
            FILTER(STR(?g) IN ("emozione", "sentimento", "animale"))
            ?x lexinfo:hyponym+ ?gs . ?w ontolex:sense ?x }}
        ?w ontolex:canonicalForm ?lemma .
        {{ ?e elita:HasEmotion ?em ; ontolex:canonicalForm ?lemma }}
        UNION {{ ?it ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?d }}""",
                 "DISTINCT ?lemma") >= 30


def test_venomous_animals(run):
    rows = run(f"""SELECT DISTINCT ?wr WHERE {{ {SERVICE} {{ {_word_sense("animale", "a")}
        ?x lexinfo:hyponym ?a ; skos:definition ?def .
        ?xw ontolex:sense ?x ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] .
        FILTER(CONTAINS(LCASE(STR(?def)), "velenoso")) }} }} ORDER BY ?wr""")
    assert len(rows) >= 3
    rows = run(f"""SELECT DISTINCT ?wr WHERE {{ {SERVICE} {{ {_word_sense("animale", "a")}
        ?x lexinfo:hyponym+ ?a ; skos:definition ?def .
        ?xw ontolex:sense ?x ; ontolex:canonicalForm [ ontolex:writtenRep ?wr ] .
        FILTER(CONTAINS(LCASE(STR(?def)), "velenoso")) }} }} ORDER BY ?wr""")
    assert {"vipera", "scorpione", "ragno"} <= set(values(rows, "wr"))


def test_core_word_paura_everywhere(run):
    rows = run(f"""SELECT ?emotion ?spol ?parm ?sic ?def WHERE {{
        ?lemma a lila:Lemma ; ontolex:writtenRep "paura"@it ; lila:hasPOS lila:noun .
        ?e elita:HasEmotion ?emotion ; ontolex:canonicalForm ?lemma .
        ?x marl:hasPolarity ?spol ; ontolex:canonicalForm ?lemma .
        ?pi ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?pe . ?pe ontolex:canonicalForm ?pl .
        ?pl dcterms:isPartOf <{PARMIGIANO_LEMMA_BANK}> ; ontolex:writtenRep ?parm .
        ?si ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?se . ?se ontolex:canonicalForm ?sl .
        ?sl dcterms:isPartOf <{SICILIANO_LEMMA_BANK}> ; ontolex:writtenRep ?sic .
        ?w ontolex:canonicalForm ?lemma .
        {SERVICE} {{ ?w ontolex:sense ?s . ?s skos:definition ?def . ?s lexinfo:hyponym ?g }}
    }}""")
    assert rows
    assert {r["emotion"].value.rsplit("/", 1)[1] for r in rows} == {"Paura"}


# --- morphology ---------------------------------------------------------------

def test_morphology_entries(count, run):
    entry = "?e a ontolex:LexicalEntry ; ontolex:canonicalForm ?lemma ; lexinfo:partOfSpeech lexinfo:{} ; " \
            "ontolex:otherForm ?f . ?lemma a lila:Lemma"
    assert count(entry.format("verb"), "DISTINCT ?e") >= 12
    assert count(entry.format("noun"), "DISTINCT ?e") >= 12
    assert count(entry.format("adjective"), "DISTINCT ?e") >= 3
    assert count("?f a ontolex:Form ; ontolex:writtenRep ?wr . FILTER(LANG(?wr) != 'it')") == 0
    rows = run("""SELECT ?wr WHERE { ?lemma a lila:Lemma ; ontolex:writtenRep "essere"@it .
        ?e ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f .
        ?f ontolex:writtenRep ?wr ; lexinfo:tense lexinfo:past ; lexinfo:verbFormMood lexinfo:indicative ;
           lexinfo:person lexinfo:thirdPerson ; lexinfo:number lexinfo:singular }""")
    assert values(rows, "wr") == ["fu"]
    rows = run("""SELECT ?wr WHERE { ?lemma a lila:Lemma ; ontolex:writtenRep "uovo"@it .
        ?e ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f .
        ?f ontolex:writtenRep ?wr ; lexinfo:number lexinfo:plural ; lexinfo:gender lexinfo:feminine }""")
    assert values(rows, "wr") == ["uova"]


def test_morphology_feature_labels(run, count):
    rows = run("SELECT ?label WHERE { lexinfo:thirdPerson rdfs:label ?label }")
    assert values(rows, "label") == ["third person"]
    assert count("?f ontolex:writtenRep ?wr ; ?feature ?v . "
                 "FILTER(?feature IN (lexinfo:tense, lexinfo:verbFormMood, lexinfo:person, "
                 "lexinfo:number, lexinfo:gender)) FILTER NOT EXISTS { ?v rdfs:label ?l }") == 0
    for tense in ("present", "imperfect", "past", "future"):
        assert count(f"?f lexinfo:tense lexinfo:{tense}") >= 12 * 6
    for mood in ("subjunctive", "conditional", "infinitive", "gerundive", "participle"):
        assert count(f"?f lexinfo:verbFormMood lexinfo:{mood}") >= 12


# --- integrity ----------------------------------------------------------------

def test_italian_links_resolve(count):
    """Every Italian canonicalForm outside CompL-it points to a labelled lemma or hypolemma."""
    assert count("""?x ontolex:canonicalForm ?t .
        FILTER(STRSTARTS(STR(?t), "http://liita.it/data/id/lemma/")
               || STRSTARTS(STR(?t), "http://liita.it/data/id/hypolemma/"))
        FILTER NOT EXISTS { ?t a ?type ; rdfs:label ?l ; ontolex:writtenRep ?wr .
                            FILTER(?type IN (lila:Lemma, lila:Hypolemma)) }""") == 0
    assert count(f"""GRAPH <{ELITA_GRAPH}> {{ ?e ontolex:canonicalForm ?t }}
        FILTER NOT EXISTS {{ ?t rdfs:label ?l ; ontolex:writtenRep ?wr }}""") == 0
    for graph in (PARMIGIANO_GRAPH, SICILIANO_GRAPH):
        assert count(f"""GRAPH <{graph}> {{ ?it vartrans:translatableAs ?d ; ontolex:canonicalForm ?t }}
            FILTER NOT EXISTS {{ GRAPH <{LIITA_GRAPH}> {{ ?t a lila:Lemma ; rdfs:label ?l ; ontolex:writtenRep ?wr }} }}""") == 0


def test_no_dangling_iris(count):
    """IRIs of instances (not classes) that appear as objects are described somewhere."""
    assert count("""GRAPH ?g { ?s ?p ?o } FILTER(ISIRI(?o) && ?p != rdf:type)
        FILTER(STRSTARTS(STR(?o), "http://liita.it/data/id/") || STRSTARTS(STR(?o), "http://lexica/")
               || STRSTARTS(STR(?o), "http://w3id.org/elita/")
               || STRSTARTS(STR(?o), "http://www.lexinfo.net/ontology/3.0/lexinfo#"))
        FILTER NOT EXISTS { GRAPH ?g2 { ?o ?p2 ?o2 } }""") == 0


def test_literals_well_formed(count):
    assert count("GRAPH ?g { ?s rdfs:label|ontolex:writtenRep ?l } "
                 r"FILTER(STRLEN(STR(?l)) = 0 || REGEX(STR(?l), '^\\s|\\s$'))") == 0
    assert count(f"{SERVICE} {{ ?s skos:definition ?d . FILTER(LANG(?d) != 'it' || !REGEX(STR(?d), '^[A-ZÈ].*[.]$')) }}") == 0


# --- source tables (nl2sparql/data/sample/source) -----------------------------

SOURCE = SAMPLE_DIR / "source"


def _rows(name: str) -> int:
    return len(sample_build.read_table(SOURCE / name))


def test_every_table_row_is_in_the_graph(count):
    """Each row of each table gives exactly one thing in the shipped file: none dropped, none merged."""
    bank = f"dcterms:isPartOf <{LEMMA_BANK}>"
    assert count(f"?l a lila:Lemma ; {bank}") == _rows("lemmas.tsv")
    assert count("?l a lila:Hypolemma") == _rows("hypolemmas.tsv")
    assert count(f"GRAPH <{ELITA_GRAPH}> {{ ?e ontolex:canonicalForm ?l }}") == _rows("elita.tsv")
    assert count("?e marl:hasPolarity ?p") == _rows("sentix.tsv")
    for name, graph, lemma_bank in (("parmigiano", PARMIGIANO_GRAPH, PARMIGIANO_LEMMA_BANK),
                                    ("siciliano", SICILIANO_GRAPH, SICILIANO_LEMMA_BANK)):
        assert count(f"?l dcterms:isPartOf <{lemma_bank}>") == _rows(f"{name}_lemmas.tsv")
        assert count(f"GRAPH <{graph}> {{ ?i vartrans:translatableAs ?d }}") == _rows(f"{name}_glossary.tsv")
    assert count(f"{SERVICE} {{ ?w a ontolex:Word }}") == _rows("complit_words.tsv")
    assert count(f"{SERVICE} {{ ?s a ontolex:LexicalSense }}") == _rows("complit_senses.tsv")
    rows = sample_build.read_table(SOURCE / "complit_relations.tsv")
    expected = sum(2 if sample_build.RELATIONS[r["relation"]] and r["direction"] != "one-way" else 1 for r in rows)
    predicates = sorted({f"<{COMPLIT_VOCAB}{p[len('complit:'):]}>" if p.startswith("complit:") else p
                         for pair in sample_build.RELATIONS.items() for p in pair if p})
    assert count(f"{SERVICE} {{ ?a ?p ?b . VALUES ?p {{ {' '.join(predicates)} }} }}") == expected
    assert count(f"GRAPH <{MORPHOLOGY_GRAPH}> {{ ?f a ontolex:Form }}") == _rows("morphology.tsv")


def test_source_builds_the_shipped_graph():
    # parsed, not loaded: a store would normalise literals ("0.0"^^xsd:float -> "0")
    assert sample_build.SampleBuilder().build() == set(ox.parse(path=str(TRIG), format=ox.RdfFormat.TRIG))


def _broken_source(tmp_path: Path, table: str, line: str) -> tuple[Path, int]:
    """A copy of the source with ``line`` appended to ``table``; returns it and that line's number."""
    source = tmp_path / "source"
    shutil.copytree(SOURCE, source)
    path = source / table
    text = path.read_text(encoding="utf-8")
    path.write_text(text + line + "\n", encoding="utf-8")
    return source, text.count("\n") + 1


@pytest.mark.parametrize("table,line,problem", [
    ("elita.tsv", "parolafinta\tPaura\t-0.5", "'parolafinta' is not in lemmas.tsv"),
    ("elita.tsv", "casa\tNostalgia\t0.5", "emotion 'Nostalgia' is neither an elita:Emotion"),
    ("elita.tsv", "casa\tGioia\talto", "polarity_value 'alto' is not a number"),
    ("sentix.tsv", "parolafinta\t0.5", "'parolafinta' is not in lemmas.tsv"),
    ("hypolemmas.tsv", "999999\tfintato\tadjective\tfingere", "'fingere' is not in lemmas.tsv"),
    ("lemmas.tsv", "800001\tparolafinta\tnoun\t\t\t\t", "id 800001 is already at"),
    ("lemmas.tsv", "899999\tparolafinta\tnome\t\t\t\t", "pos 'nome' is not one of"),
    ("lemmas.tsv", "899999\tparolafare\tverb\t\tc 1\t\t", "is not a valid IRI"),
    ("parmigiano_glossary.tsv", "999\tparolafinta\tcà", "'parolafinta' is not in lemmas.tsv"),
    ("siciliano_glossary.tsv", "1\tcasa\tparolafinta", "'parolafinta' is not in siciliano_lemmas.tsv"),
    ("siciliano_glossary.tsv", "1\tcane\tcani", "one entry number per Italian lemma"),
    ("parmigiano_lemmas.tsv", "889999\tparolafinta\t\tnoun\t\t", "is in no row of parmigiano_glossary.tsv"),
    ("complit_words.tsv", "parolafinta\tnoun\tyes", "'parolafinta:noun' is not in lemmas.tsv"),
    ("complit_words.tsv", "bracchetto\tnoun\tno", "'bracchetto' has no sense"),
    ("complit_senses.tsv", "99999\tparolafinta\tUna definizione.\t", "not in complit_words.tsv"),
    ("complit_relations.tsv", "cane\tlexinfo:hypernym\tparolafinta", "not in complit_words.tsv"),
    ("complit_relations.tsv", "cane\tlexinfo:hypernym\tcane#9", "'cane#9': 'cane' has 2 sense(s)"),
    ("complit_relations.tsv", "cane\tlexinfo:hyperonym\tgatto", "relation 'lexinfo:hyperonym' is not one of"),
    ("morphology.tsv", "parolafinta\tsg\tparolafinta\t\t\t\tsingular\t", "'parolafinta' is not in lemmas.tsv"),
    ("morphology.tsv", "casa\tdu\tcase\t\t\t\tdual\t", "lexinfo:dual has no label"),
])
def test_bad_row_names_file_and_line(tmp_path, table, line, problem):
    source, number = _broken_source(tmp_path, table, line)
    with pytest.raises(DataError) as err:
        sample_build.SampleBuilder(source).build()
    message = str(err.value)
    assert f"{table}:{number}: " in message and problem in message, message
    assert "\n" not in message


def test_bad_header_names_the_columns(tmp_path):
    source, _ = _broken_source(tmp_path, "sentix.tsv", "")
    path = source / "sentix.tsv"
    path.write_text("parola\tvalore\n" + path.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    with pytest.raises(DataError, match=r"sentix\.tsv:1: the header must be .*word polarity_value"):
        sample_build.SampleBuilder(source).build()


def test_command_line_error_is_one_line(tmp_path):
    source, number = _broken_source(tmp_path, "sentix.tsv", "parolafinta\t0.5")
    out = tmp_path / "out.trig"
    done = subprocess.run([sys.executable, "-m", "nl2sparql.data.sample.build", "--source", str(source),
                           "--output", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert f"sentix.tsv:{number}: 'parolafinta' is not in lemmas.tsv" in done.stderr
    assert not out.exists()
