"""Gold you can trust (issue 26): every defect class of the blind audit, on the sample and on the mirror.

Each test builds its queries with the catalogue's own blocks (``start_frame``, ``Pattern.build``,
``finish_query``), which the generator's golds and the translator share, and checks what they return
against an independent query on the same KB. The mirror tests use the session's mirror store and skip
without it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nl2sparql.operators.defects import gold_defects
from nl2sparql.patterns import CATALOGUE, Facts, fact_queries
from nl2sparql.patterns.compose import Composer, finish_query, start_frame
from nl2sparql.sparql.model import render

P = ("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nPREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
     "PREFIX dcterms: <http://purl.org/dc/terms/>\nPREFIX elita: <http://w3id.org/elita/>\n"
     "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n")
BANK = "<http://liita.it/data/id/lemma/LemmaBank>"


def built(shape: str, steps, word=None, limit=None) -> str:
    """The catalogue's query for ``steps`` (``(label, build slots)`` pairs) on a ``shape`` frame."""
    frame = start_frame(shape, word)
    for label, slots in steps:
        CATALOGUE[label].build(frame, dict(slots), random.Random(0))
    return render(finish_query(frame, limit))


def standalone(label: str, slots: dict) -> str:
    query, *_ = CATALOGUE[label].build(slots, random.Random(0))
    return render(query)


def column(kb, query: str) -> list[str]:
    return sorted("" if row[0] is None else row[0].value for row in kb.execute(query).rows)


@pytest.fixture(scope="module")
def mirror_kb(mirror_store):
    from nl2sparql.kb import open_kb

    with open_kb(store=mirror_store, timeout=120) as kb:
        yield kb


@pytest.fixture(scope="module")
def sample_composer(sample_kb):
    rows = {name: [tuple("" if t is None else t.value for t in row)
                   for row in sample_kb.select(query, timeout=60, max_rows=1_000_000).rows]
            for name, query in fact_queries().items()}
    return Composer(Facts(rows), seed=26)


# -- 1. symmetric relations are read in both directions ------------------------------------------
@pytest.mark.parametrize("relation,stored,other", [("synonym", "caro", "amabile"), ("antonym", "certezza", "sospetto")])
def test_a_pair_stored_one_way_is_found_from_both_sides(sample_kb, relation, stored, other):
    """The sample stores these two pairs one way only (as LiITA stores many): both members find each other."""
    for word, partner in ((stored, other), (other, stored)):
        assert partner in column(sample_kb, built("word", [("LEXICAL_RELATION", {"relation": relation})], word))
        listed = built("list", [("LEXICAL_RELATION", {"relation": relation, "target": word})])
        assert partner in column(sample_kb, listed)


@pytest.mark.mirror
def test_the_opposite_of_straniero_on_the_mirror(mirror_kb):
    assert {"nativo", "indigeno"} <= set(column(mirror_kb, built("word", [("LEXICAL_RELATION",
                                                                              {"relation": "antonym"})], "straniero")))
    listed = built("list", [("LEXICAL_RELATION", {"relation": "antonym", "target": "nativo"})])
    assert "straniero" in column(mirror_kb, listed)


# -- 2. a list shows each lemma once, by its own written form; rankings rank lemmas -----------------
def _labels(kb, where: str) -> set[str]:
    """The rdfs:label of the Lemma Bank's lemmas and hypolemmas that match ``where``."""
    query = (P + f"SELECT DISTINCT ?label WHERE {{ {where} ?lemma (dcterms:isPartOf|lila:isHypolemma/dcterms:isPartOf) "
             f"{BANK} ; rdfs:label ?label }}")
    return set(column(kb, query))


def test_a_list_shows_every_written_form_and_a_count_counts_lemmas(sample_kb):
    """«a.» (of *anno* and *altezza*), «h», «dott.» are written reps of sample nouns: a list shows them next to
    the lemmas' own forms, as people's queries do; a count counts each lemma once."""
    answer = column(sample_kb, built("list", [("POS_FILTER", {"pos": "noun"})]))
    labels = _labels(sample_kb, "?lemma lila:hasPOS lila:noun .")
    assert {"anno", "altezza", "dottore"} <= set(answer) and {"a.", "h", "dott."} <= set(answer)
    assert labels <= set(answer)
    count = sample_kb.execute(built("count", [("POS_FILTER", {"pos": "noun"})])).rows[0][0].value
    assert int(count) == len(labels)


@pytest.mark.mirror
def test_a_mirror_list_gives_every_lemma(mirror_kb):
    answer = column(mirror_kb, built("list", [("EMOTION_LEXICON", {"mode": "constraint", "emotion": "Fiducia"}),
                                              ("POS_FILTER", {"pos": "noun"})]))
    assert _labels(mirror_kb, "?e ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Fiducia . "
                              "?lemma lila:hasPOS lila:noun .") <= set(answer)


@pytest.mark.mirror
def test_no_abbreviation_wins_a_mirror_ranking(mirror_kb):
    """«a.» abbreviates many lemmas (*anno*, *altezza*, *autore* …): grouped by written form, it had all their senses."""
    query = standalone("RANKING", {"by": "senses", "direction": "desc", "n": 3,
                                   "steps": [("MORPHO_REGEX", {"kind": "prefix", "affix": "a"})]})
    winners = column(mirror_kb, query)
    assert len(winners) == 3 and all(w.isalpha() and len(w) > 2 for w in winners), winners


def test_slot_words_are_the_lemmas_own_written_forms(sample_kb, sample_composer):
    """The sampler names a lemma by its label: *uguale*, not its variant «eguale»."""
    rows = sample_kb.execute(P + f"SELECT ?lemma ?label WHERE {{ ?lemma dcterms:isPartOf {BANK} ; rdfs:label ?label }}")
    labels = {r[0].value: r[1].value for r in rows.rows}
    names = sample_composer.facts.labels
    assert names["http://liita.it/data/id/lemma/804091"] == "uguale"
    assert all(names[lemma] == label for lemma, label in labels.items() if lemma in names)


# -- 3. "words" counts hypolemmas ---------------------------------------------------------------------
def _count(kb, query: str) -> int:
    return int(kb.execute(query).rows[0][0].value)


def test_words_expressing_sadness_count_hypolemmas(sample_kb):
    count = built("count", [("EMOTION_LEXICON", {"mode": "constraint", "emotion": "Tristezza"})])
    lemmas = _count(sample_kb, P + "SELECT (COUNT(DISTINCT ?l) AS ?n) WHERE { ?e ontolex:canonicalForm ?l ; "
                                   f"elita:HasEmotion elita:Tristezza . ?l dcterms:isPartOf {BANK} }}")
    words = _count(sample_kb, P + "SELECT (COUNT(DISTINCT ?l) AS ?n) WHERE { ?e ontolex:canonicalForm ?l ; "
                                  "elita:HasEmotion elita:Tristezza . "
                                  f"?l (dcterms:isPartOf|lila:isHypolemma/dcterms:isPartOf) {BANK} }}")
    assert words > lemmas and _count(sample_kb, count) == words
    assert "tristemente" in column(sample_kb, built("list", [("EMOTION_LEXICON", {"mode": "constraint",
                                                                                  "emotion": "Tristezza"})]))


@pytest.mark.mirror
def test_words_expressing_sadness_on_the_mirror(mirror_kb):
    count = built("count", [("EMOTION_LEXICON", {"mode": "constraint", "emotion": "Tristezza"})])
    assert _count(mirror_kb, count) == 700  # 645 lemmas and 55 hypolemmas


# -- 4. aggregated facets show every value a lemma has -----------------------------------------------
PARMIGIANO = ("?it ontolex:canonicalForm ?lemma ; <http://www.w3.org/ns/lemon/vartrans#translatableAs> ?d . "
              "?d ontolex:canonicalForm ?dl . "
              "?dl dcterms:isPartOf <http://liita.it/data/id/DialettoParmigiano/lemma/LemmaBank> .")


def _every_value_shows(kb, affix: str) -> None:
    """Words ending in ``affix`` with their Parmigiano translations and their emotions (two aggregated facets):
    each written form shows as many translation cells as it has lemmas with a translation."""
    query = built("list", [("MORPHO_REGEX", {"kind": "suffix", "affix": affix}),
                           ("TRANSLATION", {"dialect": "parmigiano"}), ("EMOTION_LEXICON", {"mode": "project"})])
    assert "GROUP_CONCAT" in query
    rows = kb.execute(query).rows
    shown = Counter(row[0].value for row in rows if row[1] is not None)
    for word in {row[0].value for row in rows}:
        lemmas = _count(kb, P + "SELECT (COUNT(DISTINCT ?lemma) AS ?n) WHERE { ?lemma rdfs:label ?label ; "
                                f"(dcterms:isPartOf|lila:isHypolemma/dcterms:isPartOf) {BANK} . "
                                f'FILTER(STR(?label) = "{word}") {PARMIGIANO} }}')
        assert shown[word] == lemmas, (word, query)


def test_aggregated_facets_never_hide_a_value(sample_kb):
    """*bere* is a verb (with Parmigiano and Sicilian translations) and a noun (il bere, with none)."""
    _every_value_shows(sample_kb, "ere")


@pytest.mark.mirror
def test_homographs_keep_their_own_translations_on_the_mirror(mirror_kb):
    """«matto» is the written form of several lemmas of the mirror: two have a Parmigiano translation."""
    _every_value_shows(mirror_kb, "matto")


# -- 5. no yes/no question tests a fact through OPTIONAL ----------------------------------------------
def _ask_translation(word: str) -> str:
    return standalone("YES_NO", {"word": word, "steps": [("TRANSLATION", {"dialect": "siciliano"})]})


def test_a_yes_no_question_tests_its_fact(sample_kb):
    without = next(w for w in ("tavolo", "sedia", "bicchiere", "libro", "finestra")
                   if not kb_has_sicilian(sample_kb, w))
    assert sample_kb.execute(_ask_translation(without)).boolean is False
    assert sample_kb.execute(_ask_translation("casa")).boolean is True
    assert "OPTIONAL" not in _ask_translation("casa")


def kb_has_sicilian(kb, word: str) -> bool:
    return kb.execute(P + 'ASK { ?l ontolex:writtenRep ?wr . FILTER(STR(?wr) = "%s") ?e ontolex:canonicalForm ?l ; '
                          '<http://www.w3.org/ns/lemon/vartrans#translatableAs> ?d . ?d ontolex:canonicalForm ?dl . '
                          '?dl dcterms:isPartOf <http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank> }'
                      % word).boolean


def test_the_quality_check_and_the_translator_refuse_an_optional_ask():
    from nl2sparql.translate.translator import Translator

    broken = ('PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nASK { VALUES ?wr { "animale"@it } '
              "?l ontolex:writtenRep ?wr . OPTIONAL { ?e ontolex:canonicalForm ?l } }")
    assert ("broken_rule", "ask_through_optional") in gold_defects(broken, "standalone")
    translation = Translator(pools=[]).translate('Does "animale" have a Sicilian translation?')
    assert "ASK" in translation.sparql and "OPTIONAL" not in translation.sparql
    assert not [i for i in translation.issues if i.rule == "ask_through_optional"]


@pytest.mark.mirror
def test_animale_has_no_sicilian_translation_on_the_mirror(mirror_kb):
    assert mirror_kb.execute(_ask_translation("animale")).boolean is False


# -- 6. every vocabulary slot is of the class it claims ------------------------------------------------
def test_valenza_is_no_emotion_to_ask_about(sample_kb, sample_composer):
    """The sample gives *divertimento* ELITA's dimension Valenza, as ELITA gives some entries."""
    assert not any("Valenza" in row[1] for row in sample_composer.facts.rows["emotion"])
    drawn = [sample_composer.draw(i) for i in range(1500)]
    slots = [c.slots for c in drawn if not isinstance(c, str)]
    assert len(slots) > 500 and not any(s.get("emotion") == "Valenza" for s in slots)
    for label, slots in (("COUNT_ENTITIES", {"kind": "by", "by": "emotion"}), ("VALUE_SET", {"kind": "emotion"})):
        groups = column(sample_kb, standalone(label, slots))
        assert "http://w3id.org/elita/Valenza" not in groups and len(groups) == 9, label


@pytest.mark.mirror
def test_mirror_emotion_groups_are_the_nine_emotions(mirror_kb):
    for label, slots in (("COUNT_ENTITIES", {"kind": "by", "by": "emotion"}), ("VALUE_SET", {"kind": "emotion"})):
        groups = column(mirror_kb, standalone(label, slots))
        assert len(groups) == 9 and not any(g.endswith(("Valenza", "Dominanza")) for g in groups), label
