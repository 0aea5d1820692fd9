"""Issue 18, case 8: unchecked values are one clear line, in the library layer, before any work."""

from __future__ import annotations

import json
import time

import pytest
from reliability_helpers import assert_one_line_error, gen

from nl2sparql.errors import ConfigError
from nl2sparql.kb import Limits, open_kb
from nl2sparql.pipelines.generation import RunConfig


@pytest.mark.parametrize("value", ["0", "-1", "1e12", "nan", "inf"])
def test_timeouts(value, clean_env):
    assert_one_line_error(gen("kb", "query", "ASK { ?s ?p ?o }", "--timeout", value), "--timeout")


@pytest.mark.parametrize("value", [0, -1, float("nan"), 1e12])
def test_limits_in_the_library(value):
    with pytest.raises(ConfigError):
        Limits(timeout=value)


def test_max_rows_zero(clean_env):
    assert_one_line_error(gen("kb", "query", "SELECT * WHERE { ?s ?p ?o }", "--max-rows", "0"), "--max-rows")


def test_top_negative(clean_env):
    assert_one_line_error(gen("kb", "info", "--top", "-3"), "--top")


@pytest.mark.parametrize("target", ["1e20", "100000000000000000000", "0", "2.5"])
def test_target(target, tmp_path, clean_env):
    start = time.monotonic()
    result = gen("run", "--target", target, "--out", str(tmp_path / "p.jsonl"), "--cache-dir", str(tmp_path))
    assert_one_line_error(result, "--target")
    assert time.monotonic() - start < 15


def test_run_refuses_a_zero_timeout(tmp_path, clean_env):
    """A zero budget would make which candidates pass depend on the machine: refused, not run."""
    result = gen("run", "--target", "5", "--timeout", "0", "--out", str(tmp_path / "p.jsonl"),
                 "--cache-dir", str(tmp_path / "cache"))
    assert_one_line_error(result, "--timeout")
    with pytest.raises(ConfigError):
        RunConfig(target=5, timeout=0)


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/spa rql", "http://127.0.0.1:9/sparql\r\nX-Evil: 1",
                                 "http://[::1/sparql", "http://127.0.0.1:99999/sparql", "file:///etc/passwd",
                                 "ftp://127.0.0.1/sparql", "gopher://127.0.0.1:70/", "liita.it/sparql"])
def test_endpoint_urls(url, clean_env):
    assert_one_line_error(gen("kb", "query", "ASK { ?s ?p ?o }", "--endpoint", url), "URL")
    with pytest.raises(Exception) as info:
        open_kb(endpoint=url)
    assert type(info.value).__name__ in ("EndpointError", "ConfigError")


@pytest.mark.parametrize("item", [{"id": "a", "sparql": "ASK {}", "nl": "q", "patterns": ["X"]},
                                  {"id": "a", "sparql": "ASK {}", "nl": 5},
                                  {"id": "a", "sparql": None, "nl": "q"},
                                  {"id": "a", "sparql": "ASK {}", "nl": "q", "patterns": {"X": "high"}},
                                  {"id": "a", "sparql": "ASK {}", "nl": "q", "nl_variants": ["x"]}])
@pytest.mark.parametrize("command", ["stats", "export"])
def test_pool_items_with_wrong_types(item, command, tmp_path, clean_env):
    pool = tmp_path / "pool.jsonl"
    pool.write_text(json.dumps(item) + "\n", encoding="utf-8")
    args = ["pool", "stats", str(pool)] if command == "stats" else \
        ["export", str(pool), "--out", str(tmp_path / "train.jsonl")]
    assert_one_line_error(gen(*args), "record 1")
    assert not (tmp_path / "train.jsonl").exists()


def test_non_utf8_query_file(tmp_path, clean_env):
    path = tmp_path / "q.rq"
    path.write_bytes(b"SELECT * WHERE { ?s ?p \"caf\xe9\" }")
    assert_one_line_error(gen("kb", "query", f"@{path}"), "UTF-8")


def test_llm_hints_name_real_settings():
    from pathlib import Path

    import nl2sparql
    root = Path(nl2sparql.__file__).parent
    text = "".join(p.read_text(encoding="utf-8") for p in root.rglob("*.py"))
    assert "--llm-timeout" not in text and "--llm-cache " not in text and "--llm-cache)" not in text
