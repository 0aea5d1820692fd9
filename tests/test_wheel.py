"""A built wheel works on its own: installed into a fresh venv, run from a directory outside the checkout.

The sample KB and the shipped pools must install with the package (they are
package data), so generation and translation work without the source tree.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run(args: list, cwd: Path, env: dict, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the wheel built from this checkout, its dependencies seen from this test's own
    environment (a ``.pth`` line naming its site-packages, whose ``.pth`` files, such as the checkout's
    editable hook, are not run): what is under test is the wheel's own files, and installing the
    dependencies again took most of this module's time."""
    work = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # built from a copy without the checkout's build/ folder: setuptools would ship files a former build
    # left there (a renamed prebuilt index twice), which a clean clone never has
    source = work / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "cache", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".pytest_cache", "bench", "docs"))
    built = run([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "-w", work / "dist", "-q"], work, env)
    if built.returncode != 0:
        pytest.fail(f"building the wheel failed: {built.stderr[-2000:]}")
    wheel = next((work / "dist").glob("nl2sparql-*.whl"))
    venv = work / "venv"
    made = run([sys.executable, "-m", "venv", venv], work, env)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], work, env)
    assert purelib.returncode == 0, purelib.stderr
    Path(purelib.stdout.strip(), "test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    pip = run([python, "-m", "pip", "install", "-q", "--no-deps", wheel], work, env)
    if pip.returncode != 0:
        pytest.fail(f"installing the wheel failed: {pip.stderr[-2000:]}")
    outside = work / "elsewhere"
    outside.mkdir()
    env.update(PATH=f"{venv / 'bin'}:{env.get('PATH', '')}", NL2SPARQL_CACHE=str(work / "cache"), HOME=str(work))
    for key in ("NL2SPARQL_STORE", "NL2SPARQL_ENDPOINT", "NL2SPARQL_DATA"):
        env.pop(key, None)
    return venv, outside, env


def test_the_wheel_carries_the_sample_and_the_pools(installed):
    venv, outside, env = installed
    probe = run([venv / "bin" / "python", "-c",
                 "import nl2sparql, nl2sparql.paths as p, json; "
                 "print(json.dumps([nl2sparql.__file__, [str(f) for f in p.sample_files()], "
                 "sorted(x.name for x in p.pools_dir().glob('*.jsonl'))]))"], outside, env)
    assert probe.returncode == 0, probe.stderr
    module, sample, pools = json.loads(probe.stdout)
    assert not module.startswith(str(REPO)), "the wheel's package must be imported, not the checkout"
    assert sample and all(Path(f).is_file() for f in sample)
    assert {"sample_pool.jsonl", "handwritten.jsonl"} <= set(pools)


def test_generation_and_translation_from_outside_the_checkout(installed):
    venv, outside, env = installed
    gen = run([venv / "bin" / "nl2sparql-gen", "run", "--target", "50", "--seed", "2", "--json"], outside, env)
    assert gen.returncode == 0, gen.stderr[-2000:]
    summary = json.loads(gen.stdout)
    assert summary["kept"] == 50 and (outside / "pool.jsonl").is_file()
    tr = run([venv / "bin" / "nl2sparql", "translate", "Quali sostantivi esprimono paura?", "--execute", "--json"],
             outside, env)
    assert tr.returncode == 0, tr.stderr[-2000:]
    result = json.loads(tr.stdout)
    assert "elita:Paura" in result["sparql"] and result["rows"]["rows"]
    assert not (outside / "cache").exists(), "caches go to NL2SPARQL_CACHE, not the working directory"
    shipped = sorted(p.parent.name for p in venv.rglob("prebuilt/*/dense-*.npy"))
    assert shipped == ["handwritten.jsonl", "sample_pool.jsonl"], "the wheel carries the prebuilt dense indexes"
    embedded = [p for p in [*venv.rglob("dense-*.npy"), *Path(env["NL2SPARQL_CACHE"]).rglob("dense-*.npy")]
                if "prebuilt" not in p.parts]
    assert not embedded, f"the shipped questions were embedded again instead of read prebuilt: {embedded}"
