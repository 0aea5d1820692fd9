"""The ontology catalogue's integrity: prefixes, coverage of what LiITA and the patterns use, inverses, usages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nl2sparql.errors import DataError
from nl2sparql.namespaces import COMPLIT_VOCAB, EXTRA_PREFIXES, PREFIXES
from nl2sparql.ontology import export_catalog, get
from nl2sparql.ontology.catalog import DATA_DIR, PLACES, load_catalog
from nl2sparql.sparql.features import analyze
from nl2sparql.sparql.lexer import declared_prefixes, used_prefixes
from nl2sparql.sparql.syntax import check_syntax

CATALOG = load_catalog()
PATTERNS_DIR = Path(__file__).resolve().parents[1] / "nl2sparql" / "patterns"
#: Terms whose usage query must return rows on the embedded sample.
MAIN_TERMS = ["lila:Lemma", "lila:Hypolemma", "lila:hasPOS", "lila:hasGender", "lila:isHypolemma", "lila:hasDegree",
              "lila:hasInflectionType", "ontolex:writtenRep", "ontolex:canonicalForm", "ontolex:otherForm",
              "ontolex:sense", "ontolex:LexicalSense", "ontolex:Word", "vartrans:translatableAs", "lime:Lexicon",
              "lime:entry", "skos:definition", "lexinfo:hypernym", "lexinfo:hyponym", "lexinfo:partMeronym",
              "lexinfo:partHolonym", "lexinfo:memberMeronym", "lexinfo:memberHolonym", "lexinfo:antonym",
              "lexinfo:approximateSynonym", "lexinfo:partOfSpeech", "lexinfo:tense", "lexinfo:verbFormMood",
              "lexinfo:person", "lexinfo:number", "elita:HasEmotion", "elita:Emotion", "elita:Paura",
              "marl:hasPolarity", "marl:hasPolarityValue", "marl:Polarity", "marl:Negative",
              "complit:antonymComp", "complit:antonymGrad", "complit:usedFor", "complit:madeOf",
              "dcterms:isPartOf", "rdfs:label", "rdf:type"]


def test_catalogue_is_at_least_as_large_as_the_reference():
    assert len(CATALOG) >= 186
    kinds = {e.kind for e in CATALOG}
    assert kinds == {"class", "property", "individual"}


def test_every_curie_uses_a_prefix_of_namespaces_py():
    known = {**PREFIXES, **EXTRA_PREFIXES}
    for entry in CATALOG:
        prefix, local = entry.curie.split(":", 1)
        assert prefix in known, entry.curie
        assert entry.iri == known[prefix] + local
        for ref in (entry.domain, entry.range, entry.inverse, entry.parent):
            if ref:
                assert ref.split(":", 1)[0] in known, (entry.curie, ref)


def _pattern_catalogue_iris() -> set[str]:
    """Every IRI in the shipped pools' SPARQL, the fact queries and the pattern modules' code."""
    from nl2sparql.paths import pools_dir
    from nl2sparql.patterns import fact_queries

    iris: set[str] = set()
    for pool in pools_dir().glob("*.jsonl"):
        for line in pool.read_text(encoding="utf-8").splitlines():
            if line.strip():
                iris |= analyze(json.loads(line)["sparql"]).iris
    for query in fact_queries().values():
        iris |= analyze(query).iris
    for module in PATTERNS_DIR.glob("*.py"):
        code = module.read_text(encoding="utf-8")
        for prefix, local in re.findall(r'IRI\.of\("(\w+):(\w+)"\)', code):
            iris.add(PREFIXES[prefix] + local)
        iris |= {COMPLIT_VOCAB + name for name in re.findall(r'COMPLIT_VOCAB \+ "(\w+)"', code)}
    return iris


def test_every_term_the_pattern_catalogue_uses_is_in_the_catalogue():
    vocab_namespaces = tuple(ns for p, ns in {**PREFIXES, **EXTRA_PREFIXES}.items() if p != "xsd")
    used = {i for i in _pattern_catalogue_iris() if i.startswith(vocab_namespaces)}
    assert len(used) > 40  # the scan found the vocabulary, not nothing
    missing = sorted(i for i in used if CATALOG.get(i) is None)
    assert not missing


def test_every_term_of_the_sample_data_is_in_the_catalogue(sample_kb):
    query = """SELECT DISTINCT ?t WHERE {
      { ?s ?t ?o } UNION { ?s a ?t } UNION { SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> { { ?s ?t ?o } UNION { ?s a ?t } } }
    }"""
    terms = {row[0].value for row in sample_kb.select(query).rows}
    namespaces = tuple(ns for p, ns in {**PREFIXES, **EXTRA_PREFIXES}.items() if p not in ("xsd",))
    vocabulary = {t for t in terms if t.startswith(namespaces) and "/lexicon/" not in t}
    assert {PREFIXES["lila"] + "Lemma", PREFIXES["elita"] + "HasEmotion"} <= vocabulary
    missing = sorted(t for t in vocabulary if CATALOG.get(t) is None)
    assert not missing


@pytest.mark.mirror
def test_every_predicate_and_class_of_the_mirror_is_in_the_catalogue(mirror_store):
    from nl2sparql.kb import open_kb

    kb = open_kb(store=mirror_store)
    try:
        rows = kb.select("""SELECT DISTINCT ?t WHERE { { ?s ?t ?o } UNION { ?s a ?t }
          UNION { SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> { { ?s ?t ?o } UNION { ?s a ?t } } } }""",
                         timeout=120).rows
    finally:
        kb.close()
    namespaces = tuple(ns for p, ns in {**PREFIXES, **EXTRA_PREFIXES}.items() if p != "xsd")
    vocabulary = {r[0].value for r in rows if r[0].value.startswith(namespaces)}
    assert len(vocabulary) > 130  # every CompL-it relation of the mirror is among them
    assert not sorted(t for t in vocabulary if CATALOG.get(t) is None)


def test_inverses_are_declared_on_both_sides():
    with_inverse = [e for e in CATALOG if e.inverse]
    assert len(with_inverse) >= 20
    for entry in with_inverse:
        other = CATALOG.get(entry.inverse)
        assert other is not None, f"{entry.curie}: inverse {entry.inverse} is not in the catalogue"
        assert other.inverse == entry.curie, (entry.curie, other.curie, other.inverse)
        assert entry.kind == other.kind == "property"
        assert (entry.domain, entry.range) == (other.range, other.domain)


def test_vocabulary_facts_of_the_key_terms():
    hyper, hypo = get("lexinfo:hypernym"), get("lexinfo:hyponym")
    assert (hyper.inverse, hypo.inverse) == ("lexinfo:hyponym", "lexinfo:hypernym")
    assert hyper.domain == hyper.range == "ontolex:LexicalSense"
    assert get("lexinfo:antonym").symmetric and get("lexinfo:approximateSynonym").symmetric
    assert get("ontolex:sense").inverse == "ontolex:isSenseOf"
    assert get("lila:isHypolemma").domain == "lila:Hypolemma" and get("lila:isHypolemma").range == "lila:Lemma"
    assert get("complit:causes").inverse == "complit:causedBy"
    assert get("lime:entry").domain == "lime:Lexicon"


def test_direction_notes_on_hypernymy_and_meronymy():
    for curie, says in [("lexinfo:hypernym", "GENERAL sense ?s to a MORE SPECIFIC"),
                        ("lexinfo:hyponym", "?specific lexinfo:hyponym ?general"),
                        ("lexinfo:partMeronym", "part -> whole"), ("lexinfo:partHolonym", "whole -> part")]:
        notes = " ".join(get(curie).notes)
        assert "LiITA direction" in notes and says in notes, curie


def test_entries_say_where_they_live_and_which_patterns_they_serve():
    assert get("lexinfo:hypernym").where == ("complit",) and get("lexinfo:hypernym").in_service
    assert "SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>" in get("lexinfo:hypernym").placement()
    assert get("elita:HasEmotion").where == ("elita",)
    assert "GRAPH <http://liita.it/data>" in get("lila:Lemma").placement()
    assert "SEMANTIC_RELATION" in get("lexinfo:hyponym").patterns
    assert "EMOTION_LEXICON" in get("elita:HasEmotion").patterns
    assert set(PLACES) >= {w for e in CATALOG for w in e.where}
    for entry in CATALOG:
        assert entry.label["en"] and entry.label["it"] and entry.description["it"], entry.curie


def test_every_usage_parses_and_declares_its_prefixes():
    for entry in CATALOG:
        check_syntax(entry.usage)  # raises with the parser's message
        assert "{" + "curie}" not in entry.usage and "{complit}" not in entry.usage, entry.curie
        assert used_prefixes(entry.usage) <= set(declared_prefixes(entry.usage)), entry.curie


def test_usages_of_compl_it_terms_go_through_service_and_lemma_bank_terms_through_their_graph():
    for entry in CATALOG:
        if entry.where == ("complit",):
            assert "SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>" in entry.usage, entry.curie
        if entry.where == ("elita",) and entry.kind != "class":
            assert "GRAPH <http://w3id.org/elita>" in entry.usage, entry.curie


@pytest.mark.parametrize("curie", MAIN_TERMS)
def test_main_usage_queries_return_rows_on_the_sample(sample_kb, curie):
    table = sample_kb.execute(get(curie).usage)
    assert table.rows, curie
    first = table.rows[0][0]
    assert not (len(table.rows) == 1 and first is not None and first.value == "0"), curie


def test_get_accepts_curie_iri_and_bracketed_iri():
    entry = get("lexinfo:hypernym")
    assert get(entry.iri) is entry and get(f"<{entry.iri}>") is entry and get(" lexinfo:hypernym ") is entry
    assert get("lexinfo:nothing") is None


def test_export_is_json_with_every_entry():
    resource = export_catalog()
    text = json.dumps(resource, ensure_ascii=False)
    back = json.loads(text)
    assert back["entries_total"] == len(back["entries"]) == len(CATALOG)
    assert back["prefixes"]["complit"] == COMPLIT_VOCAB and back["counts_kb"] is None
    first = back["entries"][0]
    for key in ("curie", "iri", "kind", "label", "description", "domain", "range", "inverse", "usage", "notes",
                "patterns", "where", "placement"):
        assert key in first


def _write_catalogue(folder: Path, entry: dict) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "one.json").write_text(json.dumps({"entries": [entry]}), encoding="utf-8")
    return str(folder)


GOOD = {"curie": "lexinfo:hypernym", "kind": "property", "label": {"en": "a", "it": "b"},
        "aliases": {"en": [], "it": []}, "description": {"en": "x", "it": "y"}, "where": ["complit"],
        "patterns": [], "usage": ["SELECT ?s WHERE { ?s lexinfo:hypernym ?o } ORDER BY ?s LIMIT 1"]}


@pytest.mark.parametrize("change, message", [
    ({"curie": "nope:thing"}, "known prefix"),
    ({"kind": "relation"}, "kind must be one of"),
    ({"where": ["moon"]}, "'where' must list"),
    ({"patterns": ["NO_SUCH"]}, "unknown pattern label"),
    ({"label": {"en": "only english"}}, "needs both 'en' and 'it'"),
    ({"usage": "@missing"}, "unknown usage template"),
    ({"usage": ["SELECT ?s WHERE { ?s foo:bar ?o }"]}, "unknown prefixes: foo"),
    ({"inverse": "bad"}, "known prefix"),
])
def test_a_broken_catalogue_file_is_one_clear_error(tmp_path, change, message):
    folder = _write_catalogue(tmp_path / "cat", {**GOOD, **change})
    with pytest.raises(DataError) as info:
        load_catalog(folder)
    text = str(info.value)
    assert message in text and "\n" not in text


def test_a_catalogue_file_that_is_not_json_names_the_line(tmp_path):
    folder = tmp_path / "cat"
    folder.mkdir()
    (folder / "bad.json").write_text('{"entries": [\n  {"curie": }\n]}', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.json line 2: not valid JSON"):
        load_catalog(str(folder))


def test_the_shipped_data_files_are_package_data():
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"ontology/data/*.json"' in pyproject
    assert sorted(p.name for p in DATA_DIR.glob("*.json")) == ["complit.json", "general.json", "lemon.json",
                                                               "lexinfo.json", "lila.json", "sentiment.json"]
