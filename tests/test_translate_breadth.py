"""Translator breadth (issue 14): English concept words, relation questions beyond a lookup, and which way was taken.

Each class is translated and executed on the sample and compared with a gold query written by hand. The
English→Italian mapping runs the real multilingual encoder over the sample's own lexicon.
"""

from __future__ import annotations

import numpy as np
import pytest

from nl2sparql.translate.concepts import ConceptMapper, Lexicon
from nl2sparql.translate.offline import OfflineTranslator
from nl2sparql.translate.slots import extract_slots
from nl2sparql.translate.translator import Translator
from translate_helpers import answer, written_rows

P = """PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>
PREFIX vartrans: <http://www.w3.org/ns/lemon/vartrans#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX complit: <http://klab/lexicon/vocabulary/compl-it#>
"""
C = "SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>"
ANT = "lexinfo:antonym|complit:antonymGrad|complit:antonymComp"


def named(v: str, word: str) -> str:
    return f'?{v} ontolex:canonicalForm ?{v}F . ?{v}F ontolex:writtenRep ?{v}W . FILTER(STR(?{v}W) = "{word}")'


def related(word: str, prop: str, inverse: bool = False) -> str:
    """The written forms of the senses related to ``word``'s senses by ``prop`` (``?o prop ?g``, or inverse)."""
    link = f"?gs {prop} ?os" if inverse else f"?os {prop} ?gs"
    return P + (f"SELECT DISTINCT ?x WHERE {{ {C} {{ {named('g', word)} ?g ontolex:sense ?gs . {link} . "
                f"?o ontolex:sense ?os ; ontolex:canonicalForm ?of . ?of ontolex:writtenRep ?x }} }}")


def count(query: str) -> str:
    return query.replace("SELECT DISTINCT ?x", "SELECT (COUNT(DISTINCT ?x) AS ?n)")


def sicilian(word: str) -> str:
    return P + (f"SELECT DISTINCT ?t WHERE {{ ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; "
                f"ontolex:writtenRep ?w . FILTER(STR(?w) = \"{word}\") ?i ontolex:canonicalForm ?l ; "
                "vartrans:translatableAs ?d . ?d ontolex:canonicalForm ?dl . "
                "?dl dcterms:isPartOf <http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank> ; "
                "ontolex:writtenRep ?t }")


def definitions(word: str) -> str:
    return P + (f"SELECT DISTINCT ?d WHERE {{ ?w ontolex:canonicalForm ?l . ?l ontolex:writtenRep ?lw . "
                f"FILTER(STR(?lw) = \"{word}\") {C} {{ ?w ontolex:sense ?s . ?s skos:definition ?d }} }}")


SYN_DEFINITIONS = P + f"""SELECT DISTINCT ?x ?d WHERE {{ {C} {{ {named('g', 'gioia')} ?g ontolex:sense ?gs .
  ?os lexinfo:approximateSynonym ?gs . ?o ontolex:sense ?os ; ontolex:canonicalForm ?of . ?of ontolex:writtenRep ?x .
  ?os skos:definition ?d }} }}"""

#: (class, question, gold)
QUESTIONS = [
    # counts over relations
    ("relation_count", "Quanti iponimi ha «uccello»?", count(related("uccello", "lexinfo:hyponym"))),
    ("relation_count", "How many kinds of «pesce» are there?", count(related("pesce", "lexinfo:hyponym"))),
    ("relation_count", "How many synonyms does «gioia» have?", count(related("gioia", "lexinfo:approximateSynonym"))),
    ("relation_count", "Quante parti ha la «mano»?", count(related("mano", "lexinfo:partMeronym"))),
    # symmetric relations from either member of the pair
    ("relation_symmetric", "Di quale parola è sinonimo «collera»?", related("collera", "lexinfo:approximateSynonym")),
    ("relation_symmetric", "What are the synonyms of «rabbia»?", related("rabbia", "lexinfo:approximateSynonym")),
    ("relation_symmetric", "Which word is an antonym of «nemico»?", related("nemico", ANT)),
    ("relation_symmetric", "Qual è il contrario di «amico»?", related("amico", ANT)),
    # "what is X a kind / a part of" against "the kinds / parts of X"
    ("relation_direction", "What is «passero» a kind of?", related("passero", "lexinfo:hyponym", inverse=True)),
    ("relation_direction", "Quali sono i tipi di «pesce»?", related("pesce", "lexinfo:hyponym")),
    ("relation_direction", "Di che cosa fa parte il «gomito»?", related("gomito", "lexinfo:partMeronym", inverse=True)),
    ("relation_direction", "What are the parts of «albero»?", related("albero", "lexinfo:partMeronym")),
    # words to use instead of X
    ("relation_synonym_use", "Che parola posso usare al posto di «veloce»?", related("veloce", "lexinfo:approximateSynonym")),
    ("relation_synonym_use", "What can I say instead of «iniziare»?", related("iniziare", "lexinfo:approximateSynonym")),
    ("relation_synonym_use", "Give me another word for «strada».", related("strada", "lexinfo:approximateSynonym")),
    # the opposite over every antonym property (antonym, antonymGrad, antonymComp)
    ("relation_opposite", "Qual è l'opposto di «caldo»?", related("caldo", ANT)),
    ("relation_opposite", "What is the opposite of «vero»?", related("vero", ANT)),
    ("relation_opposite", "Dammi il contrario di «pace».", related("pace", ANT)),
    # a relation followed by a definition or a translation
    ("relation_chain", "Quali sono le definizioni dei sinonimi di «gioia»?", SYN_DEFINITIONS),
    ("relation_chain", "What are the definitions of the synonyms of «gioia»?", SYN_DEFINITIONS),
    # English content words
    ("english_concept", "List the kinds of fruit.", related("frutto", "lexinfo:hyponym")),
    ("english_concept", "What is the Sicilian word for fear?", sicilian("paura")),
    ("english_concept", "Come si dice «bread» in siciliano?", sicilian("pane")),
    ("english_concept", "What does the Italian word for tree mean?", definitions("albero")),
    ("english_concept", "Give me the synonyms of anger.", related("rabbia", "lexinfo:approximateSynonym")),
]


@pytest.fixture(scope="module")
def translator(sample_kb, tmp_path_factory):
    mapper = ConceptMapper(sample_kb, cache_root=tmp_path_factory.mktemp("concepts"))
    return OfflineTranslator(concepts=mapper)


@pytest.mark.parametrize("cls, question, gold", QUESTIONS)
def test_every_breadth_class_translates_to_the_gold_answer(cls, question, gold, translator, sample_kb):
    result = translator.translate(question)
    got, want = answer(sample_kb, result.sparql, False), answer(sample_kb, gold, False)
    assert want, "the gold answers on the sample"
    assert written_rows(got) == written_rows(want), (question, result.slots.get("plan"), result.sparql, got, want)


def test_the_chosen_lemma_is_in_the_slots_with_its_alternatives(translator):
    result = translator.translate("List the kinds of fruit.")
    mapped = result.slots["concepts"]
    assert mapped[0]["slot"] == "relation_target" and mapped[0]["written"] == "fruit"
    assert mapped[0]["lemma"] == "frutto" and 0 < mapped[0]["score"] <= 1 and mapped[0]["alternatives"]
    assert "«fruit» read as the Italian lemma «frutto»" in result.warnings[0]


def test_italian_words_and_words_of_the_kb_are_never_mapped(translator):
    for question in ("Quali sono i tipi di «pesce»?", "Quali sono i tipi di «bassotto»?",  # bassotto: CompL-it only
                     "What are the synonyms of «rabbia»?"):
        assert translator.translate(question).slots.get("concepts") is None, question


def test_the_facade_maps_with_its_kb(sample_kb):
    result = Translator(kb=sample_kb).translate("How do you say cheese in the dialect of Parma?", execute=True)
    assert result.slots["concepts"][0]["lemma"] == "formaggio"
    assert [row[0].value for row in result.rows.rows] == ["formàj"]


def test_the_lexicon_embeddings_are_cached_per_kb_content(sample_kb, tmp_path):
    first = ConceptMapper(sample_kb, cache_root=tmp_path)
    assert first.candidates("dog")[0][0] == "cane"
    files = list(tmp_path.glob("usem3-*.npy"))
    assert len(files) == 1 and np.load(files[0]).shape[0] == len(first.lexicon().forms)
    stamp = files[0].stat().st_mtime_ns
    again = ConceptMapper(sample_kb, cache_root=tmp_path)
    assert again.candidates("cat")[0][0] == "gatto" and files[0].stat().st_mtime_ns == stamp  # read, not rebuilt


def test_a_kb_that_cannot_list_its_lemmas_switches_mapping_off_with_one_warning(tmp_path):
    from nl2sparql.errors import QueryError
    from nl2sparql.kb.base import KnowledgeBase

    class Broken(KnowledgeBase):
        def _run(self, query, form, timeout, max_rows, reduce=None):
            raise QueryError("execution", "the store is gone")

    mapper = ConceptMapper(Broken(), cache_root=tmp_path)
    slots = extract_slots("List the kinds of fruit.")
    assert mapper.map_slots(slots) == [] and slots.relation_target == "fruit"
    assert len(mapper.warnings) == 1 and "not mapped" in mapper.warnings[0]


def test_nearest_respects_the_part_of_speech(sample_kb, tmp_path):
    lexicon = Lexicon.from_kb(sample_kb, ConceptMapper(sample_kb).lexicon().embedder, tmp_path)
    assert lexicon.nearest("happy", "adjective")[0][0] == "felice"
    assert all(lexicon.pos[lexicon.forms.index(w)] == "verb" for w, _ in lexicon.nearest("to sleep", "verb"))


class FixedRetriever:
    """A retriever that always returns the same pool items (score, item)."""

    def __init__(self, hits):
        self.hits = hits

    def retrieve(self, question, k=5):
        from nl2sparql.translate.retrieval import Hit
        return [Hit(item, score, {}, item["nl"]) for score, item in self.hits][:k]


def test_a_question_the_cues_cannot_read_borrows_the_closest_examples_reading(sample_kb):
    example = {"id": "ex1", "nl": "Qual è la traduzione in siciliano della parola «gatto»?",
               "sparql": "SELECT ?x WHERE { ?x ?p ?o }", "patterns": {"TRANSLATION": 0.9},
               "provenance": {"shape": "word"}}
    translator = OfflineTranslator(FixedRetriever([(0.8, example)]))
    result = translator.translate("«cane»: e sull'isola, invece?")
    assert result.source == "adapted" and result.shape == "word", (result.source, result.warnings)
    assert [row[0].value for row in sample_kb.execute(result.sparql).rows] == ["cani"]
    assert "ex1" in result.warnings[-1]
    plain = OfflineTranslator(FixedRetriever([(0.3, example)])).translate("«cane»: e sull'isola, invece?")
    assert plain.source == "catalogue"  # a distant example lends nothing


def test_the_source_says_which_way_was_taken(sample_kb):
    translator = OfflineTranslator()
    assert translator.translate("Quali sostantivi esprimono paura?").source == "catalogue"
    example = {"id": "ex2", "nl": "Elenca i lemmi", "sparql": "SELECT ?l WHERE { ?l a <http://lila-erc.eu/ontologies/lila/Lemma> }",
               "patterns": {}, "provenance": {"shape": "list"}}
    fallback = OfflineTranslator(FixedRetriever([(0.9, example)])).translate("Boh?")
    assert fallback.source == "example"


def test_the_translator_requests_the_lemma_iri_only_when_the_question_asks_for_it():
    """Answer columns: the request reaches the catalogue's frame; without one, the catalogue's default columns."""
    import random

    from nl2sparql.patterns import CATALOGUE
    from nl2sparql.patterns.compose import finish_query, start_frame
    from nl2sparql.sparql.model import render
    from nl2sparql.translate.plans import plans_for
    asked = extract_slots("Give me the IRIs of the lemmas that express fear")
    plain = extract_slots("Which words express fear?")
    assert asked.answer == {"lemma_iri": True} and plain.answer == {}
    assert plans_for(asked)[0].answer == {"lemma_iri": True} and plans_for(plain)[0].answer == {}
    frame = start_frame("list")
    CATALOGUE["EMOTION_LEXICON"].build(frame, {"mode": "constraint", "emotion": "Paura"}, random.Random(0))
    frame.answer = {"lemma_iri": False}
    assert "SELECT DISTINCT ?wr WHERE" in render(finish_query(frame))
