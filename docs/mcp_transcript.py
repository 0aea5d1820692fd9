"""Drive ``nl2sparql mcp serve`` with the SDK's client and print the session as a Markdown transcript.

The calls are what an LLM client makes to answer a question: look up the
ontology, read one term, translate, run the query; then an off-topic question
and one refused call. Every line of the output comes from the running server
(long fields are shortened).

    python docs/mcp_transcript.py > transcript.md
    python docs/mcp_transcript.py --server "nl2sparql mcp serve --store DIR"
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

DEFAULT_SERVER = f"{Path(sys.executable).parent / 'nl2sparql'} mcp serve"
QUESTION = "Quali sostantivi esprimono paura?"


def _short(value, limit: int = 6):
    """``value`` with long lists cut to ``limit`` items (saying how many were left out)."""
    if isinstance(value, list):
        kept = [_short(v, limit) for v in value[:limit]]
        return kept + ([f"… {len(value) - limit} more"] if len(value) > limit else [])
    if isinstance(value, dict):
        return {k: _short(v, limit) for k, v in value.items()}
    return value


def _show(name: str, args: dict, result, keep: tuple[str, ...] = ()) -> None:
    print(f"**→ `{name}`** `{json.dumps(args, ensure_ascii=False)}`\n")
    if result.is_error:
        print(f"**← tool error:** `{result.content[0].text}`\n")
        return
    data = dict(result.structured_content or {})
    if keep:
        data = {k: data[k] for k in keep if k in data}
    print("**←**\n")
    if "hits" in data:
        print("(each hit shortened here to its CURIE, label, score, place and first note; it also carries the "
              "description, aliases, domain and range, inverse, KB count and a usage query)\n")
        data["hits"] = [{"rank": h["rank"], "curie": h["curie"], "label": h["label"], "score": h["score"],
                         "placement": h["placement"], "notes": h["notes"][:1]} for h in data["hits"]]
    if data.get("sparql"):
        print("```sparql\n" + data.pop("sparql").strip() + "\n```\n")
    if "rows" in data and "variables" in data:
        print("| " + " | ".join(f"?{v}" for v in data["variables"]) + " |")
        print("|" + "---|" * len(data["variables"]))
        for row in data.pop("rows"):
            print("| " + " | ".join("" if c is None else _cell(c) for c in row) + " |")
        print()
        del data["variables"]
    print("```json\n" + json.dumps(_short(data), ensure_ascii=False, indent=2) + "\n```\n")


def _cell(cell: dict) -> str:
    """A SPARQL JSON result cell as Turtle-like text."""
    if cell["type"] == "uri":
        return f"<{cell['value']}>"
    return f'"{cell["value"]}"' + (f"@{cell['xml:lang']}" if cell.get("xml:lang") else "")


async def session(command: str) -> None:
    argv = shlex.split(command)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env={"NL2SPARQL_LLM_CACHE": "off"})
    start = time.perf_counter()
    with open("/dev/null", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            ready = time.perf_counter() - start
            tools = (await client.list_tools()).tools
            resources = (await client.list_resources()).resources
            templates = (await client.list_resource_templates()).resource_templates
            prompts = (await client.list_prompts()).prompts
            print(f"Server `{client.server_info.name}` {client.server_info.version}, protocol "
                  f"{client.protocol_version}, initialized in {ready:.2f} s; {len(tools)} tools "
                  f"({', '.join(t.name for t in tools)}); resources {', '.join(str(r.uri) for r in resources)}; "
                  f"resource templates {', '.join(t.uri_template for t in templates)}; prompts "
                  f"{', '.join(p.name for p in prompts)}.\n")

            args = {"query": "termine più specifico, iponimo", "top_k": 3}
            _show("search_ontology", args, await client.call_tool("search_ontology", args),
                  ("hits", "detected_patterns", "kb"))

            uri = "liita://ontology/term/lexinfo:hyponym"
            term = json.loads((await client.read_resource(uri)).contents[0].text)
            print(f"**→ read resource** `{uri}`\n\n**←** (shortened here to a few of its fields)\n")
            shown = {k: term[k] for k in ("curie", "iri", "domain", "range", "inverse", "placement")}
            print("```json\n" + json.dumps({**shown, "notes": term["notes"][:1]}, ensure_ascii=False, indent=2)
                  + "\n```\n")

            args = {"question": QUESTION}
            translated = await client.call_tool("translate", args)
            _show("translate", args, translated, ("sparql", "mode", "source", "patterns", "confidence", "warnings"))

            if not translated.is_error:
                args = {"sparql": translated.structured_content["sparql"], "limit": 5}
                rows = await client.call_tool("execute_sparql", args)
                shown = dict(args, sparql="(the query above)")
                _show("execute_sparql", shown, rows, ("variables", "rows", "truncated", "row_cap", "elapsed_ms"))

            args = {"question": "Che tempo fa a Roma domani?"}
            _show("translate", args, await client.call_tool("translate", args), ("sparql", "off_topic"))

            args = {"sparql": "DELETE WHERE { ?s ?p ?o }"}
            _show("execute_sparql", args, await client.call_tool("execute_sparql", args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=DEFAULT_SERVER, help="The command line that starts the server.")
    anyio.run(session, parser.parse_args().server)


if __name__ == "__main__":
    main()
