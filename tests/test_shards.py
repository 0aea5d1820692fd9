"""Sharded runs on the embedded sample: ``run --shard i/n``, ``pool merge`` and the executors (local, Ray)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nl2sparql import api
from nl2sparql.cli.gen import app
from nl2sparql.errors import ConfigError, DataError
from nl2sparql.operators.dedup import normalise_query
from nl2sparql.pipelines.generation import RunConfig
from nl2sparql.pipelines.shards import Shard, manifest_path, merge_pools, run_shard, unit_sizes
from nl2sparql.pipelines.storage import read_jsonl

TARGET, UNIT, SEED = 240, 40, 6  # 6 units


def _shard(kb, work: Path, i: int, n: int, **kw) -> Path:
    out = work / f"p{i}of{n}.jsonl"
    config = RunConfig(target=TARGET, seed=SEED, out=str(out), cache_dir=str(work / "cache"), kb=kb.description,
                       **kw)
    run_shard(config, kb, Shard(i, n), UNIT)
    return out


@pytest.fixture(scope="module")
def runs(sample_kb, tmp_path_factory):
    """The shard pools of the same run cut in 1, 2 and 3 shards, each merged."""
    work = tmp_path_factory.mktemp("shards")
    out = {}
    for n in (1, 2, 3):
        pools = [_shard(sample_kb, work / f"n{n}", i, n) for i in range(1, n + 1)]
        merged = work / f"merged{n}.jsonl"
        out[n] = (pools, merged, merge_pools(pools, merged))
    return out


def _union(pools: list[Path]) -> list[dict]:
    items = [item for p in pools for item in read_jsonl(p)]
    return sorted(items, key=lambda item: (item["provenance"]["unit"], item["id"]))


def test_the_union_of_the_shards_is_the_same_whatever_n(runs):
    union = _union(runs[1][0])
    assert len(union) > TARGET  # every unit keeps its margin for the merge
    assert _union(runs[2][0]) == union
    assert _union(runs[3][0]) == union


def test_shards_are_disjoint_and_each_makes_its_own_units(runs):
    for n, (pools, _, _) in runs.items():
        seen: set[str] = set()
        for i, pool in enumerate(pools, 1):
            items = read_jsonl(pool)
            ids = {item["id"] for item in items}
            assert not ids & seen, (n, i)
            seen |= ids
            units = {item["provenance"]["unit"] for item in items}
            assert units == {u for u in range(len(unit_sizes(TARGET, UNIT))) if u % n == i - 1}
            assert json.loads(manifest_path(pool).read_text())["made"] == sorted(units)


def test_the_merged_pool_is_the_same_whatever_n_and_has_no_duplicates(runs):
    merged = {n: Path(m).read_bytes() for n, (_, m, _) in runs.items()}
    assert merged[1] == merged[2] == merged[3]
    items = read_jsonl(runs[3][1])
    assert len(items) == TARGET
    assert len({normalise_query(item["sparql"]) for item in items}) == TARGET
    answers = [(item["answer_signature"], tuple(sorted(k for k, v in item["patterns"].items() if v >= 0.5)))
               for item in items if item["result_count"] > 1]
    assert len(answers) == len(set(answers))


def test_the_merge_writes_one_manifest_counting_what_it_dropped(runs):
    pools, merged, manifest = runs[3]
    on_disk = json.loads(manifest_path(merged).read_text())
    assert on_disk == manifest and on_disk["kind"] == "merged"
    assert [s["shard"] for s in on_disk["shards"]] == ["1/3", "2/3", "3/3"]
    assert on_disk["items_in"] == sum(len(read_jsonl(p)) for p in pools)
    assert on_disk["items_in"] - on_disk["kept"] == sum(on_disk["rejected"].values())
    assert on_disk["rejected"].get("duplicate_query", 0) > 0  # units draw independently: the merge finds repeats
    assert on_disk["short"] == 0 and on_disk["run"]["seed"] == SEED


def test_shards_of_another_cut_merge_as_long_as_every_unit_is_there(runs, tmp_path):
    (half, _), third = runs[2][0], runs[3][0]  # 1/2 makes units 0, 2, 4; 2/3 makes 1, 4: unit 4 twice
    with pytest.raises(DataError, match=r"unit 4 is in both .*p1of2.jsonl and .*p2of3.jsonl"):
        merge_pools([half, third[1]], tmp_path / "m.jsonl")
    quarter = _shard_of_four(runs, tmp_path)
    merge_pools([half, *quarter], tmp_path / "m.jsonl")  # 1/2 + 2/4 + 4/4 cover every unit
    assert (tmp_path / "m.jsonl").read_bytes() == Path(runs[1][1]).read_bytes()


def _shard_of_four(runs, tmp_path) -> list[Path]:
    from nl2sparql.kb import open_sample
    with open_sample() as kb:
        return [_shard(kb, tmp_path, i, 4) for i in (2, 4)]


def test_merge_refuses_missing_units_other_runs_and_changed_files(runs, sample_kb, tmp_path):
    pools = runs[3][0]
    with pytest.raises(DataError, match=r"2 of the run's 6 units are missing \(1, 4\).*missing: shard 2/3"):
        merge_pools([pools[0], pools[2]], tmp_path / "m.jsonl")
    other = _shard(sample_kb, tmp_path / "other", 2, 3, max_scan=500)
    with pytest.raises(DataError, match=r"is a shard of another run: max_scan=500 \(in p1of3.jsonl: 2000\)"):
        merge_pools([pools[0], other, pools[2]], tmp_path / "m.jsonl")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(Path(pools[1]).read_text().splitlines(keepends=True)[:-1]))
    manifest_path(cut).write_text(manifest_path(pools[1]).read_text())
    with pytest.raises(DataError, match="its manifest says"):
        merge_pools([pools[0], cut, pools[2]], tmp_path / "m.jsonl")
    bare = tmp_path / "bare.jsonl"
    bare.write_text(Path(pools[1]).read_text())
    with pytest.raises(DataError, match="no manifest bare.manifest.json next to it"):
        merge_pools([pools[0], bare, pools[2]], tmp_path / "m.jsonl")
    with pytest.raises(DataError, match="is one of the pools being merged"):
        merge_pools(pools, pools[0])
    (tmp_path / "exists.jsonl").write_text("")
    with pytest.raises(DataError, match="exists; pass --force"):
        merge_pools(pools, tmp_path / "exists.jsonl")


def test_a_resumed_shard_reuses_its_finished_units(runs, sample_kb):
    pool = runs[2][0][1]
    before = pool.read_bytes()
    config = RunConfig(target=TARGET, seed=SEED, out=str(pool), cache_dir=str(pool.parent / "cache"),
                       kb=sample_kb.description)
    manifest = run_shard(config, sample_kb, Shard(2, 2), UNIT, resume=True)
    assert pool.read_bytes() == before
    for u in manifest["made"]:
        unit = json.loads((pool.parent / "cache" / f"{config.prefix}_u{u:05d}_manifest.json").read_text())
        assert unit["finished"] and all(step.get("resumed") for step in unit["steps"]), u
    with pytest.raises(DataError, match="exists; pass --force to replace it, or --resume"):
        run_shard(config, sample_kb, Shard(2, 2), UNIT)


def test_bad_shard_options_are_one_clear_line(tmp_path):
    runner = CliRunner()
    for args, message in ((["--shard", "3/2"], "--shard must be i/n with 1 ≤ i ≤ n"),
                          (["--shard", "two"], "--shard must be i/n"),
                          (["--shard", "1/2", "--shards", "2"], "choose --shard i/n (one part) or --shards N"),
                          (["--shards", "2", "--executor", "spark"], "unknown executor 'spark'"),
                          (["--shard", "1/2", "--round-trip"], "sharded runs make the template chain only")):
        result = runner.invoke(app, ["run", "--target", "20", "--out", str(tmp_path / "p.jsonl"), *args])
        assert result.exit_code == 2, (args, result.output)
        assert message in " ".join(result.output.split()), result.output
        assert "Traceback" not in result.output


def test_cli_shards_then_merge(tmp_path):
    runner = CliRunner()
    for i in (1, 2):
        result = runner.invoke(app, ["run", "--target", "120", "--seed", "3", "--unit-size", "30", "--shard",
                                     f"{i}/2", "--out", str(tmp_path / f"s{i}.jsonl"), "--cache-dir",
                                     str(tmp_path / "cache"), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["shard"] == f"{i}/2"
    result = runner.invoke(app, ["pool", "merge", str(tmp_path / "s1.jsonl"), str(tmp_path / "s2.jsonl"),
                                 "--out", str(tmp_path / "m.jsonl"), "--json"])
    assert result.exit_code == 0, result.output
    merged = json.loads(result.stdout)
    assert merged["kept"] == 120 == len(read_jsonl(tmp_path / "m.jsonl")) and merged["units"] == 4
    local = api.generate(120, seed=3, unit_size=30, shards=3, executor="local", out=tmp_path / "local.jsonl",
                         cache_dir=tmp_path / "cache3")
    assert local.shards == 3 and local.executed > 0
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "m.jsonl").read_bytes()


def test_the_ray_executor_makes_the_same_pool_on_two_local_workers(tmp_path):
    pytest.importorskip("ray", reason='the Ray executor needs ray: pip install -e ".[ray]"')
    local = api.generate(120, seed=3, unit_size=30, shards=2, out=tmp_path / "local.jsonl",
                         cache_dir=tmp_path / "c1")
    remote = api.generate(120, seed=3, unit_size=30, shards=2, executor="ray",  # a local Ray of 2 workers
                          out=tmp_path / "ray.jsonl", cache_dir=tmp_path / "c2")
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert remote.kept == local.kept == 120 and remote.executed == local.executed
    made_by = [json.loads(Path(s["pool"]).with_suffix(".manifest.json").read_text())["made_by"]
               for s in json.loads((tmp_path / "ray.manifest.json").read_text())["shards"]]
    pids = {m["pid"] for m in made_by}
    assert len(pids) == 2 and os.getpid() not in pids  # two Ray worker processes, each with its own KB
    with pytest.raises(ConfigError, match="the Ray executor opens a KB in each task"):
        from nl2sparql.kb import open_sample
        with open_sample() as kb:
            api.generate(120, shards=2, executor="ray", kb=kb, out=tmp_path / "x.jsonl")
