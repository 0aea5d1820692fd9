"""The ``retrieve`` command (registered on a throwaway Typer app, as cli/main.py will do)."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from nl2sparql.cli.retrieve_cmd import retrieve

from test_retrieval import ITEMS

runner = CliRunner()


@pytest.fixture
def app():
    cli = typer.Typer()
    cli.command("retrieve")(retrieve)
    cli.command("noop")(lambda: None)  # keep "retrieve" a sub-command
    return cli


@pytest.fixture
def pool(tmp_path):
    path = tmp_path / "pool.jsonl"
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in ITEMS), encoding="utf-8")
    return path


def test_table_output(app, pool):
    result = runner.invoke(app, ["retrieve", "Quanti sostantivi ci sono?", "--pool", str(pool),
                                 "--embedder", "none", "-k", "2"])
    assert result.exit_code == 0, result.output
    assert "count" in result.stdout and "Quanti sostantivi" in result.stdout
    assert "switched off" in result.stderr


def test_json_output(app, pool):
    result = runner.invoke(app, ["retrieve", "Which adverbs end in -mente?", "--pool", str(pool),
                                 "--embedder", "none", "--json", "-k", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [h["rank"] for h in data["examples"]] == [1, 2, 3]
    top = data["examples"][0]
    assert top["id"] == "adv" and top["components"]["dense"] is None
    assert top["question"] == "Which adverbs end in -mente?" and data["warnings"]


def test_no_pool_found_names_the_option(app, tmp_path, monkeypatch):
    monkeypatch.setenv("NL2SPARQL_DATA", str(tmp_path / "nothing"))
    result = runner.invoke(app, ["retrieve", "ciao"])
    assert result.exit_code == 2
    assert "--pool" in result.stderr and "Traceback" not in result.output


def test_missing_and_malformed_pool_are_one_line_errors(app, tmp_path):
    result = runner.invoke(app, ["retrieve", "ciao", "--pool", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "no such pool file" in result.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n", encoding="utf-8")
    result = runner.invoke(app, ["retrieve", "ciao", "--pool", str(bad), "--embedder", "none"])
    assert result.exit_code == 2 and "bad.jsonl line 1" in result.stderr
