"""Issue 18, case 5: nothing written is lost (existing pools, export onto its input, concurrent runs, resume)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from reliability_helpers import assert_one_line_error, gen, spawn

OTHER_POOL = "".join(json.dumps({"id": f"keep-{i}", "sparql": "SELECT * WHERE { ?s ?p ?o }", "nl": "q"}) + "\n"
                     for i in range(45))


def run_args(out: Path, cache: Path, *extra: str) -> list[str]:
    return ["run", "--target", "5", "--seed", "1", "--out", str(out), "--cache-dir", str(cache), *extra]


def test_run_does_not_replace_an_existing_pool(tmp_path, clean_env):
    out = tmp_path / "pool.jsonl"
    out.write_text(OTHER_POOL, encoding="utf-8")
    result = gen(*run_args(out, tmp_path / "cache"))
    assert_one_line_error(result, "exists", "--force")
    assert out.read_text(encoding="utf-8") == OTHER_POOL
    forced = gen(*run_args(out, tmp_path / "cache", "--force"))
    assert forced.exit_code == 0, forced.output
    assert out.read_text(encoding="utf-8") != OTHER_POOL


def test_export_refuses_to_overwrite_its_input(tmp_path, clean_env):
    pool = tmp_path / "pool.jsonl"
    pool.write_text(OTHER_POOL, encoding="utf-8")
    result = gen("export", str(pool), "--out", str(pool))
    assert_one_line_error(result, "is the pool being exported")
    assert pool.read_text(encoding="utf-8") == OTHER_POOL


def test_second_concurrent_run_is_refused(tmp_path, clean_env):
    out, cache = tmp_path / "pool.jsonl", tmp_path / "cache"
    first = spawn("nl2sparql-gen", "run", "--target", "300", "--seed", "1", "--out", str(out),
                  "--cache-dir", str(cache))
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end and first.poll() is None and not list(cache.glob("*_step1.jsonl")):
            time.sleep(0.05)
        assert first.poll() is None, "the first run ended before the second started"
        start = time.monotonic()
        second = gen("run", "--target", "5", "--seed", "2", "--out", str(out), "--cache-dir", str(tmp_path / "c2"))
        assert time.monotonic() - start < 20
        assert_one_line_error(second, "being written by another run", f"pid {first.pid}")
        assert first.wait(timeout=240) == 0
    finally:
        first.kill()
    assert len([line for line in out.read_text().splitlines() if line]) == 300  # the first run's pool, whole


def test_a_stale_lock_is_taken_over(tmp_path, clean_env):
    out = tmp_path / "pool.jsonl"
    dead = spawn("nl2sparql-gen", "--help")
    dead.communicate(timeout=60)
    Path(str(out) + ".lock").write_text(f"{dead.pid}\n")
    result = gen(*run_args(out, tmp_path / "cache"))
    assert result.exit_code == 0, result.output
    assert not Path(str(out) + ".lock").exists()


def test_resume_with_another_seed_is_refused_naming_it(tmp_path, clean_env):
    out, cache = tmp_path / "pool.jsonl", tmp_path / "cache"
    assert gen(*run_args(out, cache)).exit_code == 0
    before = out.read_bytes()
    result = gen("run", "--target", "5", "--seed", "2", "--out", str(out), "--cache-dir", str(cache), "--resume")
    line = assert_one_line_error(result, "--resume")
    assert "seed=1" in line and "now 2" in line
    assert out.read_bytes() == before


def test_bad_output_path_fails_before_any_work(tmp_path, clean_env):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = tmp_path / "cache"
    for out in (blocker / "pool.jsonl", tmp_path):
        start = time.monotonic()
        result = gen(*run_args(out, cache))
        assert_one_line_error(result, str(out))
        assert time.monotonic() - start < 10
        assert not list(cache.glob("*_step*.jsonl")), "the pipeline ran before the output was checked"
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "ro"
        locked.mkdir()
        locked.chmod(0o500)
        assert_one_line_error(gen(*run_args(locked / "pool.jsonl", cache)), "permission")
