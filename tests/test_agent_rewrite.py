"""The agent's query reading, rewrites and safe fixes, each run on the embedded sample.

Words come from the sample's own tables at run time (``nl2sparql/data/sample/source``).
"""

from __future__ import annotations

import csv

import pytest

from nl2sparql import api
from nl2sparql.agent import fixes, rewrite
from nl2sparql.agent.query import is_count, projection
from nl2sparql.namespaces import COMPLIT_SERVICE
from nl2sparql.paths import data_dir
from nl2sparql.sparql.lexer import tokenize
from nl2sparql.sparql.syntax import parses

P = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"
     "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX elita: <http://w3id.org/elita/>\n"
     "PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>\n"
     "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n")


def table(name: str) -> list[dict]:
    with open(data_dir() / "sample" / "source" / name, encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def rows(kb, query) -> list:
    return api.execute(query, kb=kb).values()


# -- the case fix (the reference escaped strings as regexes, which SPARQL rejects) ---------------------------
def test_case_fix_makes_a_capitalised_label_match(sample_kb):
    query = P + ('SELECT ?word WHERE {\n  ?emotion a elita:Emotion ; rdfs:label ?label .\n'
                 '  FILTER(STR(?label) = "tristezza")\n  ?e elita:HasEmotion ?emotion ; ontolex:canonicalForm ?l .\n'
                 '  ?l ontolex:writtenRep ?word .\n}')
    assert rows(sample_kb, query) == []
    fixed, notes = fixes.case_insensitive(query)
    assert 'LCASE(STR(?label)) = "tristezza"' in fixed and notes
    assert len(rows(sample_kb, fixed)) == sum("Tristezza" in r["emotions"] for r in table("elita.tsv"))


@pytest.mark.parametrize("value", ["c'è un (cane) [a.b]*?", "A+B \\ x", "Perché? $1 ^ |x|"])
def test_case_fix_never_escapes_strings_as_regexes(value):
    literal = '"' + value.replace("\\", "\\\\") + '"'
    query = P + (f"SELECT ?d WHERE {{ ?s skos:definition ?d . FILTER(CONTAINS(?d, {literal}) || "
                 f"REGEX(STR(?d), {literal}) || STR(?d) = {literal}) }}")
    fixed, notes = fixes.case_insensitive(query)
    assert len(notes) == 3 and parses(fixed)
    strings = {t.text for t in tokenize(fixed) if t.kind == "string"}
    assert strings == {literal, literal.lower(), "\"i\""}  # lower-cased at most, never escaped
    assert ', "i")' in fixed and fixed.count("LCASE(STR(?d))") == 2


def test_case_fix_finds_a_definition_written_with_a_capital(sample_kb):
    sense = next(r for r in table("complit_senses.tsv") if r["definition"][:1].isupper())
    start = sense["definition"].split()[0]  # "Cane", "Persona"… as the sample writes it
    query = P + ('SELECT DISTINCT ?d WHERE {\n  SERVICE <' + COMPLIT_SERVICE + '> { ?s skos:definition ?d .\n'
                 f'  FILTER(STRSTARTS(STR(?d), "{start.lower()}")) }}\n}}')
    assert rows(sample_kb, query) == []
    fixed, _ = fixes.case_insensitive(query)
    assert [sense["definition"]] in rows(sample_kb, fixed)


def test_case_fix_adds_spellings_to_a_tagged_values_block(sample_kb):
    query = P + 'SELECT ?l WHERE {\n  VALUES ?wr { "Cane"@it }\n  ?l a lila:Lemma ; ontolex:writtenRep ?wr .\n}'
    fixed, notes = fixes.case_insensitive(query)
    assert '"Cane"@it "cane"@it' in fixed and len(rows(sample_kb, fixed)) == 1


# -- symmetric relations and directions ---------------------------------------------------------------------
def _pair(relation: str) -> tuple[str, str]:
    row = next(r for r in table("complit_relations.tsv") if r["relation"] == relation)
    return row["subject"], row["object"]


def _related(word: str, prop: str) -> str:
    return P + (f'SELECT DISTINCT ?other WHERE {{\n  SERVICE <{COMPLIT_SERVICE}> {{\n'
                f'    ?f ontolex:writtenRep "{word}"@it . ?w ontolex:canonicalForm ?f ; ontolex:sense ?s .\n'
                f'    ?s {prop} ?os . ?ow ontolex:sense ?os ; ontolex:canonicalForm ?of .\n'
                '    ?of ontolex:writtenRep ?other .\n'
                "  }\n}")


ONE_WAY = """@prefix ontolex: <http://www.w3.org/ns/lemon/ontolex#> .
@prefix lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#> .
@prefix x: <http://example.org/> .
<%s> {
  x:w1 ontolex:canonicalForm x:f1 ; ontolex:sense x:s1 . x:f1 ontolex:writtenRep "paura"@it .
  x:w2 ontolex:canonicalForm x:f2 ; ontolex:sense x:s2 . x:f2 ontolex:writtenRep "timore"@it .
  x:s1 lexinfo:approximateSynonym x:s2 .
}
""" % COMPLIT_SERVICE


def test_a_symmetric_relation_is_read_both_ways(tmp_path):
    # the sample stores both directions; real data may hold a pair one way only
    from nl2sparql.kb.embedded import EmbeddedKB

    (tmp_path / "one_way.trig").write_text(ONE_WAY, encoding="utf-8")
    with EmbeddedKB.in_memory([tmp_path / "one_way.trig"]) as kb:
        query = _related("timore", "lexinfo:approximateSynonym")
        assert rows(kb, query) == []
        fixed, notes = fixes.both_directions(query)
        assert "(lexinfo:approximateSynonym|^lexinfo:approximateSynonym)" in fixed and notes
        assert rows(kb, fixed) == [["paura"]]
        assert fixes.both_directions(fixed) == (fixed, [])  # already two-way


def test_a_direction_flip_swaps_each_relation_for_its_inverse(sample_kb):
    whole, part = _pair("lexinfo:partHolonym")
    query = _related(whole, "lexinfo:partMeronym")
    assert rows(sample_kb, query) == []
    fixed, notes = fixes.flip_relations(query)
    assert notes == ["lexinfo:partMeronym → lexinfo:partHolonym"] and [part] in rows(sample_kb, fixed)
    full = query.replace("lexinfo:partMeronym", "<http://www.lexinfo.net/ontology/3.0/lexinfo#partMeronym>")
    assert "lexinfo#partHolonym>" in fixes.flip_relations(full)[0]


# -- shape -----------------------------------------------------------------------------------------------
LIST = P + ('SELECT DISTINCT ?lemma ?wr WHERE {\n  ?e elita:HasEmotion elita:Paura ; ontolex:canonicalForm ?lemma .\n'
            '  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n}\nORDER BY ?wr ?lemma\n')


def test_projection():
    assert projection(LIST) == ["lemma", "wr"]
    assert projection(LIST.replace("SELECT DISTINCT ?lemma ?wr", "SELECT (COUNT(*) AS ?n)")) == ["n"]


def test_ask_and_count_keep_the_meaning(sample_kb):
    n = len(rows(sample_kb, LIST))
    assert api.execute(rewrite.to_ask(LIST), kb=sample_kb).boolean is True
    assert rows(sample_kb, rewrite.to_count(LIST)) == [[str(n)]]
    grouped = LIST.replace("SELECT DISTINCT ?lemma ?wr", "SELECT ?wr (COUNT(?e) AS ?n)").replace(
        "ORDER BY ?wr ?lemma", "GROUP BY ?wr")
    assert is_count(rewrite.to_count(grouped)) and rewrite.to_count(rewrite.to_count(grouped)) is None


# -- anchors explore moves ------------------------------------------------------------------------------------
WORD_FACT = P + ('SELECT DISTINCT ?definition WHERE {\n  VALUES ?wr { "%s"@it }\n  ?lemma a lila:Lemma .\n'
                 '  ?lemma ontolex:writtenRep ?wr .\n  ?word ontolex:canonicalForm ?lemma .\n'
                 '  SERVICE <' + COMPLIT_SERVICE + '> {\n    ?word ontolex:sense ?sense .\n'
                 '    ?sense skos:definition ?definition .\n  }\n}\n')


def test_a_word_only_compl_it_has_is_looked_up_inside_service(sample_kb):
    word = next(r["word"] for r in table("complit_words.tsv") if r["linked"] == "no")
    query = WORD_FACT % word
    assert rows(sample_kb, query) == []
    moved = rewrite.anchor_in_complit(query, word, COMPLIT_SERVICE)
    senses = [r for r in table("complit_senses.tsv") if r["word"] == word]
    assert sorted(rows(sample_kb, moved)) == sorted([s["definition"]] for s in senses)
    assert rewrite.anchor_in_complit(query.replace("?definition WHERE", "?definition ?lemma WHERE"), word,
                                     COMPLIT_SERVICE) is None  # ?lemma is still needed


def test_a_hypolemma_anchor(sample_kb):
    elita = {r["word"]: r for r in table("elita.tsv")}
    hypo = next(r for r in table("hypolemmas.tsv") if r["hypolemma"] in elita)
    query = P + ('SELECT DISTINCT ?emotion WHERE {\n  VALUES ?wr { "%s"@it }\n  ?lemma a lila:Lemma .\n'
                 '  ?lemma ontolex:writtenRep ?wr .\n  ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion ?emotion .\n'
                 '}\n') % hypo["hypolemma"]
    assert rows(sample_kb, query) == []
    as_hypo = rewrite.as_hypolemma(query, hypo["hypolemma"])
    assert len(rows(sample_kb, as_hypo)) == len(elita[hypo["hypolemma"]]["emotions"].split("|"))
    via_lemma = rewrite.lemma_of_hypolemma(query, hypo["hypolemma"])
    assert "lila:isHypolemma ?lemma" in via_lemma and parses(via_lemma)
