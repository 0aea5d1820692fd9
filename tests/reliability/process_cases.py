"""Corpus operations that run whole processes: ``ask`` with external agents, a full disk, servers stopped.

Used by the adapters of ``surfaces.py`` (an operation's CLI and API forms share the agents and
checks here). Each function returns what the adapter turns into an Outcome: the command's
arguments or a problem found after it (an agent process still alive, a torn line, a server
still running), ``None`` when there is none.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_helpers import alive

#: A question that runs commands if it ever reaches a shell (each would create a file in the work folder).
HOSTILE = "Quali parole $(touch {work}/pwned) `touch {work}/pwned2` esprimono paura?"
#: ``ask`` agents by name: a command template, or an MCP server command line (``mcp:``). ``{work}`` is the
#: case's folder; ``{spawner}`` an agent that starts a child and never answers, both writing their pids.
AGENTS = {
    "echo": "echo ASK { ?s ?p ?o }",
    "slow": "sh -c 'sleep 0.3; echo \"ASK { ?s ?p ?o }\"'",
    "spawner": "{spawner} {question}",
    "shell-code": "sh -c \"echo SELECT '{question}' WHERE { ?s ?p ?o }\"",
    "shell-env": "sh -c 'echo \"SELECT * WHERE { ?s ?p ?o } # $NL2SPARQL_QUESTION\"'",
    "mcp-silent": "mcp:sleep 300",
}
SPAWNER = """#!/bin/sh
echo $$ >> "{work}/agent.pids"
sleep 300 &
echo $! >> "{work}/agent.pids"
sleep 300
"""


def agent_spec(work: Path, name: str) -> dict:
    """The ``ask`` agent spec for ``name`` (see :data:`AGENTS`), its scripts written in ``work``."""
    spawner = work / "spawner.sh"
    if not spawner.exists():
        spawner.write_text(SPAWNER.format(work=work), encoding="utf-8")
        spawner.chmod(0o755)
    command = AGENTS[name].replace("{work}", str(work)).replace("{spawner}", str(spawner))
    if command.startswith("mcp:"):
        return {"mcp": command[4:], "tool": "translate"}
    return {"cmd": command}


def ask_pool(work: Path, a: dict) -> str:
    """The pool a case asks: a shipped one (``handwritten``) or ``hostile`` (written in ``work``)."""
    if a.get("pool") != "hostile":
        return a.get("pool", "handwritten")
    path = work / "hostile.jsonl"
    items = [{"id": f"h-{i}", "sparql": "ASK { ?s ?p ?o }", "nl": HOSTILE.format(work=work)} for i in range(3)]
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return str(path)


def ask_args(work: Path, a: dict, out: Path) -> list[str]:
    """``nl2sparql-gen ask`` arguments for a case."""
    spec = agent_spec(work, a["agent"])
    args = ["ask", ask_pool(work, a), "--out", str(out), "--limit", str(a.get("limit", 3)),
            "--timeout", str(a.get("timeout", 10)), "--concurrency", str(a.get("concurrency", 2))]
    if "cmd" in spec:
        return args + ["--agent-cmd", spec["cmd"]]
    return args + ["--agent-mcp", spec["mcp"], "--tool", spec["tool"]]


def after_ask(work: Path, a: dict, out: Path) -> str | None:
    """What an ``ask`` left wrong: a command a question ran, an agent still alive, a torn or repeated line."""
    ran = [p.name for p in (work / "pwned", work / "pwned2") if p.exists()]
    if ran:
        return f"a question reached a shell: {ran} created"
    left = leftover_agents(work)
    if left:
        return f"agent processes outlived their question or ask: {left}"
    if out.is_file():
        try:
            records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
        except ValueError:
            return f"{out.name} holds a torn line"
        ids = [r["id"] for r in records]
        if len(set(ids)) != len(ids):
            return f"{out.name} holds {len(ids)} lines for {len(set(ids))} ids"
        if a.get("agent") == "shell-env" and not all(r["question"] in (r["sparql"] or "") for r in records):
            return "the agent did not find the question in $NL2SPARQL_QUESTION"
    return None


def leftover_agents(work: Path, wait: float = 3.0) -> list[int]:
    """The agent processes (and their children) listed in ``work/agent.pids`` still alive after ``wait`` s."""
    path = work / "agent.pids"
    if not path.is_file():
        return []
    pids = [int(line) for line in path.read_text().split()]
    end = time.monotonic() + wait
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def kill_ask(spawned: subprocess.Popen, work: Path, sig: str) -> str | None:
    """Send ``sig`` to a running ``ask`` once its agents run; what is wrong afterwards."""
    pids = work / "agent.pids"
    end = time.monotonic() + 30
    while time.monotonic() < end and spawned.poll() is None and \
            (not pids.is_file() or len(pids.read_text().split()) < 2):
        time.sleep(0.02)
    if spawned.poll() is not None:
        return f"ask ended ({spawned.returncode}) before its agents ran: {spawned.stderr.read()[-300:]}"
    still = stops_on(spawned, sig, 10, "ask")
    left = leftover_agents(work)
    return still or (f"agent processes outlived ask (SIG{sig}): {left}" if left else None)


def stops_on(process: subprocess.Popen, sig: str, seconds: float, what: str) -> str | None:
    """Send ``sig`` to ``process``: why it did not end within ``seconds`` (``None`` when it did)."""
    process.send_signal(getattr(signal, f"SIG{sig}"))
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return f"{what} still runs {seconds:g} s after SIG{sig}"
    return None


# -- servers stopped ---------------------------------------------------------------------------------------
def stopped_after_a_call(work: Path, portal, tool: str, args: dict, sig: str) -> str | None:
    """``nl2sparql mcp serve --transport http``, one ``tool`` call through the SDK's client, then ``sig``: the
    server (and every process of its group) must be gone within 15 s."""
    from mcp_helpers import NL2SPARQL, connected, free_port, group_members, server_env, stop_group, wait_for_port

    port, log = free_port(), work / "http-server.log"
    with open(log, "w") as err:
        server = subprocess.Popen([NL2SPARQL, "mcp", "serve", "--transport", "http", "--port", str(port),
                                   "--embedder", "none"], env=server_env(work), cwd=work, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    try:
        wait_for_port(port, server, log)
        with connected(portal, "http", f"http://127.0.0.1:{port}/mcp", log) as client:
            result = portal.call(client.call_tool, tool, args)
        if result.is_error:
            return f"the {tool} call failed: {result.content[0].text if result.content else ''}"
        still = stops_on(server, sig, 15, f"the HTTP MCP server (after one {tool} call)")
        left = group_members(server.pid)
        return still or (f"processes of the server outlived it: {left}" if left else None)
    finally:
        stop_group(server)


# -- a full disk -----------------------------------------------------------------------------------------
#: Bytes of the file system each command finds; with what is there first, each runs out of space midway.
DISK = {"run": "48k", "export": "8k", "ask": "8k", "agent": "64k"}
FIRST_PREDICTION = {"id": "keep-0", "question": "q", "sparql": "ASK { ?s ?p ?o }", "latency_ms": 1.0, "error": None}


#: Run inside the namespace after the command (the disk goes with the namespace): what the full disk left wrong.
DISK_CHECK = """
import json, pathlib, sys
disk = pathlib.Path(sys.argv[1])
problems = [f"temporary file left: {p.name}" for p in disk.rglob(".*.tmp")]
pred = disk / "pred.jsonl"
if pred.is_file():
    lines = pred.read_text(encoding="utf-8").splitlines()
    try:
        records = [json.loads(line) for line in lines]
    except ValueError:
        problems.append("pred.jsonl holds a torn line")
    else:
        if not records or records[0]["id"] != "keep-0":
            problems.append("the prediction written before the case is gone")
print("disk-check:", "; ".join(problems) or "ok")
"""


def full_disk(work: Path, command: str) -> tuple[subprocess.CompletedProcess, str | None]:
    """Run ``command`` (run, export, ask or agent) with its output on a small tmpfs mounted in a private mount
    namespace, so that it runs out of space midway; its result and what it left wrong on that disk."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("a full disk needs `unshare -rm` (user and mount namespaces) to mount a small tmpfs")
    disk = work / "disk"
    disk.mkdir()
    py = f"{sys.executable} -P -c 'import sys; from nl2sparql.cli.{{m}} import app; sys.argv[0] = \"x\"; app()'"
    gen, main = py.format(m="gen"), py.format(m="main")
    steps = {
        "run": f"{gen} run --target 60 --seed 1 --out {disk}/pool.jsonl --cache-dir {disk}/cache",
        "export": f"{gen} export {work}/keep.jsonl --out {disk}/train.jsonl",
        "ask": f"printf '%s\\n' '{json.dumps(FIRST_PREDICTION)}' > {disk}/pred.jsonl && "
               f"{gen} ask handwritten --agent-cmd 'echo ASK {{ ?s ?p ?o }}' --out {disk}/pred.jsonl "
               "--concurrency 1",
        "agent": f"{main} agent 'Quali nomi esprimono paura?' --checkpoint {disk}/agent.sqlite",
    }
    script = (f"mount -t tmpfs -o size={DISK[command]} tmpfs {disk} && cd {work} && {{ {steps[command]}; }}; "
              f"status=$?; {sys.executable} -c '{DISK_CHECK}' {disk}; exit $status")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    check = next((line.split(":", 1)[1].strip() for line in done.stdout.splitlines()
                  if line.startswith("disk-check:")), "the disk was not checked")
    return done, None if check == "ok" else check
