"""The generation pipeline: sample → compose → execute → phrase → tag → check → dedup → (round trip) → grade → write.

``GenerationPipeline`` wires the operators with their keys, checks the keys
before anything runs, keeps a manifest per run (operator, parameters, seed,
counts kept/rejected by reason, seconds) and resumes: with ``resume=True``
finished steps whose parameters match are skipped and an interrupted step
picks up from its checkpoint, so a killed run finishes with no lost and no
duplicated rows. Same seed and KB → identical pool.

Nothing written is lost: an existing ``out`` is replaced only with
``force=True`` or by resuming the run that wrote it (its manifest's settings
must match, and the differences are named); one run at a time writes an
``out`` (``<out>.lock``); the output path is checked before any work.
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import queue
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from .. import __version__
from ..errors import ConfigError, DataError
from ..fileio import DiskFull
from ..operators import (Deduplicator, DifficultyClassifier, ExecutionFilter, PatternComposer, PatternTagger,
                         PoolWriter, QuestionGenerator, SchemaSampler)
from ..operators.base import Operator, StepReport
from ..operators.pool_writer import EVAL_SHARE
from ..operators.quality import QualityCheck
from ..operators.round_trip import RoundTripCheck
from ..translate.offline import OfflineTranslator
from ..patterns import LABELS
from .storage import OutputLock, StepStorage, atomic_write_text, check_output_path

#: The largest --target accepted (shard bigger runs).
MAX_TARGET = 1_000_000
#: The largest share of the evaluation splits that may be questions with an empty right answer.
MAX_EMPTY_SHARE = 0.5


@dataclass
class RunConfig:
    """Everything that determines a run's output."""

    target: int = 300
    seed: int = 0
    patterns: list[str] | None = None
    out: str = "pool.jsonl"
    oversample: float = 1.3
    timeout: float = 10.0
    max_result_rows: int = 1000
    #: Draw fewer candidates whose first scan reads more rows than this (0: off); see sparql/plan.py.
    max_scan: int = 2000
    threads: int = 1
    kb: str = "sample"
    prefix: str = ""
    cache_dir: str = "cache"
    extra: dict = field(default_factory=dict)
    #: A unit of a sharded run (see :mod:`.shards`): draws from its own range, keeps its margin, ids of its own.
    unit: int | None = None
    #: About this share of the dev and test splits are questions whose right answer is empty (0: none; see
    #: :mod:`~nl2sparql.operators.absent`); train, the retrieval examples, never gets them.
    empty_answers: float = 0.0

    def __post_init__(self):
        from ..checks import check_count, check_timeout
        self.target = check_count(self.target, "--target", 1, MAX_TARGET)
        self.seed = check_count(self.seed, "--seed", 0, 2 ** 63 - 1)
        # a time budget of 0 would make which candidates pass depend on the machine's speed
        self.timeout = check_timeout(self.timeout)
        self.threads = check_count(self.threads, "--threads", 1, 64)
        self.max_result_rows = check_count(self.max_result_rows, "--max-result-rows", 1)
        if not isinstance(self.oversample, (int, float)) or not 1.0 <= self.oversample <= 100.0:
            raise ConfigError(f"--oversample must be between 1 and 100, got {self.oversample!r}")
        if isinstance(self.max_scan, bool) or not isinstance(self.max_scan, int) or self.max_scan < 0:
            raise ConfigError("--max-scan must be 0 (off) or a number of rows")
        if self.patterns:
            unknown = sorted(set(self.patterns) - set(LABELS))
            if unknown:
                raise ConfigError(f"unknown pattern label(s) {', '.join(unknown)}; "
                                  f"known: {', '.join(LABELS)}")
        if self.unit is not None:
            self.unit = check_count(self.unit, "unit", 0)
        if isinstance(self.empty_answers, bool) or not isinstance(self.empty_answers, (int, float)) \
                or not 0.0 <= self.empty_answers <= MAX_EMPTY_SHARE:
            raise ConfigError(f"--empty-answers must be a share between 0 and {MAX_EMPTY_SHARE}, "
                              f"got {self.empty_answers!r}")
        if not self.prefix:
            self.prefix = f"{Path(self.out).stem}_s{self.seed}"

    @property
    def candidates(self) -> int:
        """How many candidates the composer draws first (more when the execution filter runs out of them)."""
        return int(self.target * self.oversample) + 50

    @property
    def enough_kept(self) -> int:
        """The execution filter stops once this many candidates passed with answers of their own.

        Repeated answers are not counted (see :class:`~nl2sparql.operators.ExecutionFilter`); the margin
        is for what the later steps still drop: defective questions, near-identical questions. A unit of
        a sharded run keeps :data:`UNIT_MARGIN` more, for the examples the merge drops as repeats of
        another unit's (16 % with 4 units of 500 on the mirror).
        """
        return int(self.target * (1.03 if self.unit is None else UNIT_MARGIN)) + 10

    def identity(self) -> dict:
        """The fields a resumed run must share with the original."""
        d = asdict(self)
        d.pop("threads")
        if d["unit"] is None:
            d.pop("unit")  # a plain run's identity as before units existed
        if not d["empty_answers"]:
            d.pop("empty_answers")  # likewise before empty answers could be asked for
        return d

    @property
    def absent(self) -> int:
        """How many questions with an empty right answer to compose: about ``empty_answers`` of the evaluation
        splits (:data:`~nl2sparql.operators.pool_writer.EVAL_SHARE` of the pool)."""
        if not self.empty_answers:
            return 0
        return max(1, round(self.empty_answers * EVAL_SHARE * self.target / (1 - self.empty_answers)))


@dataclass
class Step:
    """One operator with the keyword arguments of its ``run``."""

    operator: Operator
    keys: dict


ProgressFactory = Callable[[str], Callable[[int, int], None]]


#: What a unit of a sharded run keeps per wanted example (the merge trims to the run's target).
UNIT_MARGIN = 1.25

#: How many times a run may draw more candidates when the execution filter ran out of them.
MAX_TOP_UPS = 4

#: A unit's draws start at ``unit × UNIT_DRAW_SPAN`` (far more than any unit draws).
UNIT_DRAW_SPAN = 10 ** 9


def default_steps(config: RunConfig, kb, progress: ProgressFactory | None = None,
                  shared: dict | None = None) -> list[Step]:
    """The template chain: sample → compose → execute → phrase → tag → check → dedup → (round trip) → grade → write.

    The quality check rejects any item with a defective question or gold (:mod:`~nl2sparql.operators.defects`);
    with ``--round-trip`` (``extra['round_trip']``) a round-trip check translates both generic questions
    back and records per item whether the answer is the gold's, and the grade uses it (here the bare
    offline translator; the LLM layer's build gives it the full translator and optional rejection).

    The LLM layer (:mod:`.llm_steps`) starts from this list and inserts its operators.
    For a unit of a sharded run (``config.unit``) the composer draws from the unit's own range and
    the writer keeps the filter's margin (the merge trims) under ids of its own; ``shared`` lets the
    units of one shard share the composer (:class:`~nl2sparql.operators.PatternComposer`).
    """
    progress = progress or (lambda name: (lambda done, total: None))
    c = config
    compose = {"candidates": c.candidates, "seed": c.seed, "patterns": c.patterns,
               "max_result_rows": c.max_result_rows, "max_scan": c.max_scan, "threads": c.threads}
    rows = {"threads": c.threads}  # the row steps' processes (the output does not depend on them)
    write = {"out": c.out, "target": c.target, "seed": c.seed, "kb": c.kb}
    execute = {"timeout": c.timeout, "max_result_rows": c.max_result_rows, "threads": c.threads,
               "stop_after": c.enough_kept}
    if c.absent:  # declared to each step that treats them otherwise (a plain run's parameters stay as they were)
        compose["absent"] = c.absent
        execute["keep_absent"] = True
        write["empty_in_eval"] = True
    if c.unit is not None:
        compose["first_draw"] = c.unit * UNIT_DRAW_SPAN
        write.update(target=c.enough_kept, id_prefix=f"gen-s{c.seed}-u{c.unit:04d}")
    steps = [
        Step(SchemaSampler({"timeout": max(60.0, c.timeout * 10), "threads": c.threads}, kb=kb,
                           progress=progress("schema sampler")),
             {"output_key": "fact"}),
        Step(PatternComposer(compose, kb=kb, shared=shared, progress=progress("pattern composer")),
             {"input_key": "fact", "output_key": "sparql"}),
        Step(ExecutionFilter(execute, kb=kb, progress=progress("execution filter")),
             {"input_key": "sparql", "output_key": "result_count"}),
        Step(QuestionGenerator({"seed": c.seed, **rows}, progress=progress("question generator")),
             {"input_key": "fragments", "output_key": "nl"}),
        Step(PatternTagger(rows, progress=progress("pattern tagger")), {"input_key": "sparql", "output_key": "patterns"}),
        Step(QualityCheck(rows, progress=progress("quality check")), {"input_key": "sparql"}),
        Step(Deduplicator(rows, progress=progress("deduplicator")), {"input_key": "sparql", "question_key": "nl"}),
        Step(DifficultyClassifier(rows, progress=progress("difficulty")), {"input_key": "sparql", "output_key": "difficulty"}),
        Step(PoolWriter(write, progress=progress("pool writer")), {"input_key": "sparql"}),
    ]
    if c.extra.get("round_trip"):
        # opt-in (--round-trip): cheap on the sample, minutes at mirror scale, and a prediction that runs
        # out of time on a loaded machine would make the pool depend on the machine's speed
        steps.insert(-2, Step(RoundTripCheck({"timeout": c.timeout, "also": ["nl_en"], "quick": True}, kb=kb,
                                             predictor=OfflineTranslator(), progress=progress("round trip")),
                              {"input_key": "sparql", "question_key": "nl", "output_key": "round_trip"}))
    return steps


def _same_output(recorded: dict | None, params: dict) -> bool:
    """True when a step's recorded parameters give the output these would (``threads`` changes only speed)."""
    def output_params(p: dict) -> dict:
        return {k: v for k, v in p.items() if k != "threads"}
    return recorded is not None and output_params(recorded) == output_params(params)


class GenerationPipeline:
    """Builds and runs the chain; ``steps=`` (see :mod:`.llm_steps`) lets the LLM layer insert its operators."""

    def __init__(self, config: RunConfig, kb, progress: ProgressFactory | None = None,
                 steps: list[Step] | None = None, first_entry: Path | None = None):
        self.config = config
        self.kb = kb
        c = config
        self.steps = steps or default_steps(config, kb, progress)
        versions = {s.operator.name: s.operator.version for s in self.steps}
        for s in self.steps:
            if isinstance(s.operator, PoolWriter):
                s.operator.config["operators"] = versions
        # first_entry: the rows the first step reads (a shard's units start from its sampled facts)
        # step files are written while the next step runs; the manifest follows them (see _run)
        self.storage = StepStorage(c.cache_dir, c.prefix, first_entry_file_name=first_entry, background=True)
        self.manifest_path = Path(c.cache_dir) / f"{c.prefix}_manifest.json"

    # -- checks ----------------------------------------------------------
    def check_keys(self) -> None:
        """Fail before running anything if an operator needs a field no earlier step writes.

        An operator's ``input_keys`` are its default field names; a ``run``
        keyword (``input_key="question"``) renames the default it overrides.
        """
        available: set[str] = set()
        for i, step in enumerate(self.steps):
            op = step.operator
            defaults = {name: p.default for name, p in inspect.signature(op.run).parameters.items()
                        if p.default is not inspect.Parameter.empty}
            needed = set(op.input_keys)
            produced = set(op.output_keys)
            for name, value in step.keys.items():
                if name not in defaults:
                    raise ConfigError(f"pipeline wiring: {op.name}.run() has no parameter {name!r}")
                target = needed if not name.startswith("output") else produced
                target.discard(defaults[name])
                target.add(value)
            missing = sorted(needed - available) if i > 0 else []
            if missing:
                raise ConfigError(f"pipeline wiring: step {i} ({op.name}) needs {', '.join(missing)}, "
                                  "which no earlier step writes")
            available |= produced

    # -- manifest --------------------------------------------------------
    def _load_manifest(self) -> dict | None:
        if not self.manifest_path.is_file():
            return None
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except ValueError:
            return None

    def _save_manifest(self, manifest: dict) -> None:
        atomic_write_text(self.manifest_path, json.dumps(manifest, ensure_ascii=False, indent=2))

    def _save_manifest_after_writes(self, manifest: dict) -> None:
        """Save the manifest as it is now once the step files it lists as done are written."""
        text = json.dumps(manifest, ensure_ascii=False, indent=2)
        self.storage.after_writes(lambda: atomic_write_text(self.manifest_path, text))

    def _other_runs(self) -> list[tuple[Path, dict]]:
        """Manifests in the cache directory of other runs that wrote the same ``out``."""
        found = []
        for path in sorted(Path(self.config.cache_dir).glob("*_manifest.json")):
            if path == self.manifest_path:
                continue
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            run = data.get("run") if isinstance(data, dict) else None
            if isinstance(run, dict) and isinstance(run.get("out"), str) \
                    and Path(run["out"]).resolve() == Path(self.config.out).resolve():
                found.append((path, run))
        return found

    def _differences(self, other: dict) -> str:
        mine = self.config.identity()
        keys = sorted(k for k in set(mine) | set(other) if k != "prefix" and mine.get(k) != other.get(k))
        return ", ".join(f"{k}={other.get(k)!r} (now {mine.get(k)!r})" for k in keys) or "none"

    def check_output(self, resume: bool, force: bool, previous: dict | None) -> None:
        """Refuse to replace an existing pool unless forced or resuming the run that wrote it."""
        out = check_output_path(Path(self.config.out))
        check_output_path(Path(self.config.cache_dir) / "manifest.json", "--cache-dir")
        if previous and previous.get("run") != self.config.identity():
            raise ConfigError(f"--resume: the run in {self.manifest_path} used other settings: "
                              f"{self._differences(previous.get('run') or {})}; rerun with those, or without --resume")
        if not resume:
            if out.exists() and not force:
                raise DataError(f"{out} exists; pass --force to replace it, or --resume to finish the run "
                                "that wrote it (nothing was changed)")
            return
        if previous:
            return
        others = self._other_runs()
        if others:
            path, run = others[0]
            raise ConfigError(f"--resume: {out} was written by the run in {path} with other settings: "
                              f"{self._differences(run)}; rerun with those, or without --resume "
                              f"(and --force to replace {out})")
        if out.exists() and not force:
            raise DataError(f"--resume: no run in {self.config.cache_dir} wrote {out}, so there is nothing to "
                            "resume; pass --force (without --resume) to replace it")

    def _remove_torn_writes(self) -> None:
        """Delete the temporary files of atomic writes a killed run left (this run's, under its lock)."""
        out = Path(self.config.out)
        for leftover in [*Path(self.config.cache_dir).glob(f".{self.config.prefix}_*.tmp"),
                         *out.parent.glob(f".{out.name}.*.tmp")]:
            leftover.unlink(missing_ok=True)

    # -- run -------------------------------------------------------------
    def run(self, resume: bool = False, force: bool = False) -> dict:
        """Run (or resume) the pipeline; returns the manifest.

        Raises before any work when ``out`` cannot be written, exists (without
        ``force`` or a matching run to resume) or is locked by another run.
        """
        self.check_keys()
        previous = self._load_manifest() if resume else None
        self.check_output(resume, force, previous)
        try:
            with OutputLock(Path(self.config.out)):
                return self._run(resume, previous)
        except DiskFull as exc:  # the steps finished are on disk: a resumed run starts after them
            raise exc.saying("free some space and rerun with --resume") from None

    def _top_up(self, i: int, storage, report: StepReport, manifest: dict) -> tuple[StepReport, float]:
        """When the execution filter ran out of candidates before enough passed: the composer draws more
        and the filter runs them too, picking up from its checkpoint (up to :data:`MAX_TOP_UPS` times).

        The composer continues its draws, so the candidates are those a larger ``--oversample`` would have
        drawn first and the pool is the one a run with enough candidates writes. Returns the filter's last
        report and the seconds the composer spent (counted in its own record).
        """
        composer = self.steps[i - 1] if i else None
        if not (isinstance(self.steps[i].operator, ExecutionFilter) and composer is not None
                and isinstance(composer.operator, PatternComposer)):
            return report, 0.0
        record = manifest["steps"][-1]
        wanted = int(composer.operator.config.get("candidates", 100))
        spent = 0.0
        for round_ in range(1, MAX_TOP_UPS + 1):
            short, drawn = report.extra.get("short"), record["report"]["kept"]
            if not short or drawn < wanted:  # enough passed, or the composer found no more
                break
            passed = int(self.steps[i].operator.config["stop_after"]) - short
            wanted = drawn + math.ceil(1.25 * short * drawn / max(passed, drawn // 20, 1)) + 50
            t0 = time.perf_counter()
            at = copy.copy(storage)
            at.operator_step = i - 1
            composed = composer.operator.more(at, wanted, **composer.keys)
            took = time.perf_counter() - t0
            spent += took
            record.update(report={**composed.to_json(), "top_ups": round_}, seconds=round(record["seconds"] + took, 3))
            report = self.steps[i].operator.run(storage, **self.steps[i].keys)
        composer.operator.release()
        return report, spent

    def _overlaps(self, i: int) -> bool:
        """True when step ``i`` is the composer and the execution filter runs its candidates next."""
        return (i + 1 < len(self.steps) and isinstance(self.steps[i].operator, PatternComposer)
                and isinstance(self.steps[i + 1].operator, ExecutionFilter)
                and self.steps[i + 1].keys.get("input_key", "sparql") == self.steps[i].keys.get("output_key", "sparql"))

    def _compose_and_filter(self, i: int, storage, manifest: dict) -> None:
        """The composer (step ``i``) and the execution filter (step ``i + 1``) at once: each candidate is
        executed as soon as it is drawn (the filter runs in a thread; the queries in the KB's workers).

        The filter takes the candidates in the composer's order, so both steps write what they write one
        after the other; a top-up (too few passed) then runs as in a plain run.
        """
        composer, filt = self.steps[i], self.steps[i + 1]
        filter_storage = self.storage.step()
        filter_storage.checkpoint().discard()
        stream = _RowStream()
        outcome: dict = {}
        expected = int(composer.operator.config.get("candidates", 100))

        def run_filter() -> None:
            start = time.perf_counter()
            try:
                outcome["report"] = filt.operator.run_streamed(filter_storage, stream, expected, stream.rows,
                                                               **filt.keys)
            except BaseException as exc:  # noqa: BLE001 - raised again in the pipeline's thread
                outcome["error"] = exc
                for _ in stream:  # let the composer finish undisturbed
                    pass
            outcome["seconds"] = time.perf_counter() - start

        worker = threading.Thread(target=run_filter, name="nl2sparql-execution-filter", daemon=True)
        t0 = time.perf_counter()
        worker.start()
        try:
            report: StepReport = composer.operator.run(storage, sink=stream.put, **composer.keys)
        except BaseException:
            filt.operator.cancel()  # the queries already queued are dropped, not run
            raise
        finally:
            stream.close()
            worker.join()
        self._record(manifest, i, composer.operator, composer.keys, report, time.perf_counter() - t0)
        if "error" in outcome:
            raise outcome["error"]
        t1 = time.perf_counter()
        filtered, other = self._top_up(i + 1, filter_storage, outcome["report"], manifest)
        self._record(manifest, i + 1, filt.operator, filt.keys, filtered,
                     outcome["seconds"] + time.perf_counter() - t1 - other)

    def _record(self, manifest: dict, i: int, operator, keys: dict, report: StepReport, seconds: float) -> None:
        """Add a finished step to the manifest (saved once the step files it lists are written)."""
        manifest["steps"].append({"step": i, "operator": operator.name, "version": operator.version,
                                  "params": operator.params(), "keys": keys, "report": report.to_json(),
                                  "seconds": round(seconds, 3), "done": True})
        self._save_manifest_after_writes(manifest)

    def _run(self, resume: bool, previous: dict | None) -> dict:
        """The steps, under the output lock (every step file written before it returns or raises)."""
        try:
            return self._run_steps(resume, previous)
        except BaseException:
            try:
                self.storage.flush()  # what finished stays on disk, for --resume
            except Exception:  # noqa: BLE001 - the step's own error is the one to report
                pass
            raise

    def _run_steps(self, resume: bool, previous: dict | None) -> dict:
        self._remove_torn_writes()
        manifest = {"version": __version__, "run": self.config.identity(), "steps": [], "finished": False}
        done_steps = {s["step"]: s for s in (previous or {}).get("steps", []) if s.get("done")}
        start = time.perf_counter()
        reuse = True
        alongside = None  # the step already run alongside the one before it
        for i, step in enumerate(self.steps):
            if i == alongside:
                continue
            storage = self.storage.step()
            params = step.operator.params()
            prior = done_steps.get(i)
            if reuse and prior and _same_output(prior.get("params"), params) and storage.file(i).is_file():
                manifest["steps"].append({**prior, "resumed": True})
                step.operator.progress(1, 1)
                continue
            if not (resume and reuse):
                # only the first step a resumed run re-enters may pick up its checkpoint
                storage.checkpoint().discard()
            reuse = False
            if self._overlaps(i):
                self._compose_and_filter(i, storage, manifest)
                alongside = i + 1
                continue
            t0 = time.perf_counter()
            report: StepReport = step.operator.run(storage, **step.keys)
            report, other = self._top_up(i, storage, report, manifest)
            self._record(manifest, i, step.operator, step.keys, report, time.perf_counter() - t0 - other)
        manifest["finished"] = True
        manifest["seconds"] = round(time.perf_counter() - start, 3)
        manifest["rejected"] = dict(sum((Counter(s["report"]["rejected"]) for s in manifest["steps"]), Counter()))
        self.storage.flush()
        self._save_manifest(manifest)
        return manifest


class _RowStream:
    """Rows handed from one thread to another as they are made: ``put``, ``close``, iterate; ``rows()`` is
    every row put (complete once closed)."""

    _END = object()

    def __init__(self):
        self._queue: queue.Queue = queue.Queue()
        self._rows: list[dict] = []

    def put(self, row: dict) -> None:
        self._rows.append(row)
        self._queue.put(row)

    def close(self) -> None:
        self._queue.put(self._END)

    def rows(self) -> list[dict]:
        return self._rows

    def __iter__(self):
        while (row := self._queue.get()) is not self._END:
            yield row
        self._queue.put(self._END)  # a second reader ends too
