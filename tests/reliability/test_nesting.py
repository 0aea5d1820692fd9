"""Issue 18, case 7: deep nesting is one clear line (never a crash), and translate --llm falls back offline."""

from __future__ import annotations

import json

import pytest
from llm_fake_server import FakeLLMServer
from reliability_helpers import assert_one_line_error, gen, main, spawn


def nested(levels: int) -> str:
    return "SELECT * WHERE { " + "{ " * levels + "?s ?p ?o " + "} " * levels + "}"


@pytest.mark.parametrize("levels", [600, 3000])
def test_validate(levels, tmp_path, clean_env):
    path = tmp_path / "deep.rq"
    path.write_text(nested(levels), encoding="utf-8")
    proc = spawn("nl2sparql", "validate", str(path), "--no-execute")
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, (proc.returncode, stderr[-500:])  # a blocking issue, not a crash
    assert "levels deep" in stdout and "Traceback" not in stderr


@pytest.mark.parametrize("levels", [600, 3000])
def test_endpoint_query(levels, endpoint, clean_env):
    result = gen("kb", "query", nested(levels), "--endpoint", endpoint.url + "sparql")
    assert_one_line_error(result, "levels deep")
    assert endpoint.count == 0


def test_embedded_query(clean_env):
    assert_one_line_error(gen("kb", "query", nested(3000)), "levels deep")


def test_translate_llm_falls_back_offline(tmp_path, monkeypatch, clean_env):
    with FakeLLMServer(default_text="```sparql\n" + nested(1500) + "\n```") as llm:
        for name, value in llm.env(tmp_path).items():
            monkeypatch.setenv(name, value)
        result = main("translate", "Quali nomi esprimono paura?", "--llm", "--json", "--embedder", "none")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["source"] == "offline"
