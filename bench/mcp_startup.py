"""How fast ``nl2sparql mcp serve`` answers ``initialize`` over stdio, against a bare SDK server.

Each run starts a fresh server process with the SDK's stdio client and times
process start → the initialize handshake done (what a host such as Claude
Desktop waits for), then the first call that opens the KB
(``execute_sparql``) and the first ``translate`` (retrieval index and
embedder). The baseline is a one-tool ``MCPServer`` in a bare Python process
started the same way: the SDK's own floor on this machine.

    python bench/mcp_startup.py --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

NL2SPARQL = str(Path(sys.executable).parent / "nl2sparql")
BARE = ("from mcp.server.mcpserver import MCPServer\n"
        "server = MCPServer('bare', log_level='WARNING')\n"
        "@server.tool()\n"
        "def ping() -> str:\n"
        "    '''Answer pong.'''\n"
        "    return 'pong'\n"
        "server.run('stdio')\n")


async def one_run(params: StdioServerParameters, calls: bool) -> dict[str, float]:
    out: dict[str, float] = {}
    start = time.perf_counter()
    with open("/dev/null", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            out["initialize_s"] = time.perf_counter() - start
            if calls:
                mark = time.perf_counter()
                await client.call_tool("execute_sparql", {"sparql": "ASK { ?s ?p ?o }"})
                out["first_execute_s"] = time.perf_counter() - mark
                mark = time.perf_counter()
                await client.call_tool("translate", {"question": "Quali sostantivi esprimono paura?"})
                out["first_translate_s"] = time.perf_counter() - mark
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ours = StdioServerParameters(command=NL2SPARQL, args=["mcp", "serve"], env={"NL2SPARQL_LLM_CACHE": "off"})
    bare = StdioServerParameters(command=sys.executable, args=["-c", BARE])
    results: dict[str, list[dict]] = {"bare SDK server (baseline)": [], "nl2sparql mcp serve": []}
    for _ in range(args.runs):  # interleaved, so machine load hits both alike
        results["bare SDK server (baseline)"].append(anyio.run(one_run, bare, False))
        results["nl2sparql mcp serve"].append(anyio.run(one_run, ours, True))
    print("| server | runs | initialize median (min–max) s | first execute_sparql s | first translate s |")
    print("|---|---|---|---|---|")
    for name, runs in results.items():
        init = [r["initialize_s"] for r in runs]
        cells = [f"{statistics.median(init):.2f} ({min(init):.2f}–{max(init):.2f})"]
        for key in ("first_execute_s", "first_translate_s"):
            values = [r[key] for r in runs if key in r]
            cells.append(f"{statistics.median(values):.2f}" if values else "–")
        print(f"| {name} | {len(runs)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
