"""``nl2sparql ontology search|show|export`` through the real CLI app."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nl2sparql.cli.main import app

runner = CliRunner()


def test_help_lists_the_three_commands():
    result = runner.invoke(app, ["ontology", "--help"])
    assert result.exit_code == 0
    for command in ("search", "show", "export"):
        assert command in result.stdout
    assert "ontology" in runner.invoke(app, ["--help"]).stdout
    search_help = runner.invoke(app, ["ontology", "search", "--help"])
    assert search_help.exit_code == 0 and "--store" in search_help.stdout and "--json" in search_help.stdout


def test_search_table_shows_terms_counts_and_direction_notes(sample_kb):
    from nl2sparql.ontology import occurrence_counts

    result = runner.invoke(app, ["ontology", "search", "broader meaning", "-k", "3"])
    assert result.exit_code == 0, result.output
    assert "lexinfo:hypernym" in result.stdout and "LiITA direction" in result.stdout
    assert "SCHEMA" not in result.stdout  # a document the user does not have
    count = occurrence_counts(sample_kb).total("lexinfo:hypernym")
    assert f"│ {count:,}" in result.stdout


def test_search_json_is_machine_readable():
    result = runner.invoke(app, ["ontology", "search", "termine più generale", "-k", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kb"] == "sample" and data["detected_patterns"] == {"SEMANTIC_RELATION": 0.85}
    assert [h["curie"] for h in data["hits"]] == ["lexinfo:hypernym", "lexinfo:hyponym"]
    assert data["hits"][0]["count"] > 0


def test_search_without_counts_or_embedder():
    result = runner.invoke(app, ["ontology", "search", "broader term", "--no-counts", "--embedder", "none",
                                 "--json", "--weights", "bm25=1,pattern=0.2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kb"] is None and data["hits"][0]["count"] is None and data["warnings"]
    assert set(data["weights"]) == {"bm25", "pattern"}


def test_show_prints_the_entry_and_json():
    result = runner.invoke(app, ["ontology", "show", "lexinfo:hyponym"])
    assert result.exit_code == 0, result.output
    assert "inverse   lexinfo:hypernym" in result.stdout and "SERVICE <https://klab" in result.stdout
    assert "{" not in result.stdout.split("Usage")[0], "no Python dict before the usage query"
    assert "inside the CompL-it SERVICE" in result.stdout and "SCHEMA" not in result.stdout
    data = json.loads(runner.invoke(app, ["ontology", "show", "lexinfo:hyponym", "--json"]).stdout)
    assert data["curie"] == "lexinfo:hyponym" and data["count_by_place"]["service"] > 0


def test_export_writes_the_resource(tmp_path):
    out = tmp_path / "catalog.json"
    result = runner.invoke(app, ["ontology", "export", "--out", str(out), "--no-counts"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["entries_total"] == len(data["entries"]) > 186 and data["counts_kb"] is None
    assert not [p for p in tmp_path.iterdir() if p.name != "catalog.json"]


def _one_line_error(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in result.output


def test_bad_arguments_are_one_clear_line(tmp_path):
    _one_line_error(["ontology", "search", "x", "-k", "0"], "k must be at least 1")
    _one_line_error(["ontology", "search", "x", "--weights", "dense"], "NAME=NUMBER")
    _one_line_error(["ontology", "search", "  "], "non-empty description")
    _one_line_error(["ontology", "show", "lexinfo:hypernim"], "did you mean lexinfo:hypernym")
    _one_line_error(["ontology", "search", "x", "--store", str(tmp_path / "none")], "no Oxigraph store here")
    _one_line_error(["ontology", "export", "--out", str(tmp_path), "--no-counts"], "is a directory")
