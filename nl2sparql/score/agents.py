"""Connectors to external agents under test: one question in, one SPARQL query out.

Four ways to reach an agent:

* :class:`CommandAgent`: a command template such as ``my-agent --question
  {question}``. The template is split into arguments with :mod:`shlex` first
  and the placeholders (``{question}``, ``{id}``, ``{lang}``) are substituted
  inside each argument, so a question can never add arguments or reach a
  shell; a template that puts a placeholder inside the code a shell or an
  interpreter runs (``sh -c "… {question} …"``) is refused, and such code
  reads ``$NL2SPARQL_QUESTION`` instead. Without ``{question}`` the question
  goes to stdin. The answer is read from stdout. Each run is a process group
  that ends with its question and with ``ask``.
* :class:`OpenAIChatAgent`: an OpenAI-compatible chat endpoint, through the
  project's LLM client (retries with backoff), with a system prompt asking
  for one SPARQL query and nothing else.
* :class:`MCPToolAgent`: a tool of any MCP server started by a command line
  (the SDK's stdio client); the question is passed as one argument of the
  tool.
* :class:`Text2SparqlAgent`: an HTTP service speaking the API of the
  Text2SPARQL challenge (ESWC 2025/2026; we follow the challenge's example
  OpenAPI description and its client, ``AKSW/text2sparql-client``):
  ``GET <url>?question=…&dataset=…`` answers a JSON object whose ``query``
  holds the SPARQL (``dataset`` and ``question`` echo the request). The
  dataset is an IRI naming the knowledge graph.

Every answer goes through :func:`~nl2sparql.llm.extract_sparql` (a fenced or
unfenced query among prose). A failure on one question is an
:class:`AgentError` (recorded, the run goes on); an agent that cannot work
at all is a :class:`~nl2sparql.errors.ConfigError` (one line, the run stops).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent import futures
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigError, Nl2SparqlError

PLACEHOLDERS = ("{question}", "{id}", "{lang}")
SYSTEM_PROMPT = ("You translate questions about LiITA (Linking Italian), the linked-data knowledge base of Italian "
                 "lexical resources, into SPARQL. Answer with exactly one SPARQL query in a ```sparql code block "
                 "and nothing else.")
#: Keys of a tool's structured result that may hold the query (in this order).
RESULT_KEYS = ("sparql", "query", "result")
#: The dataset a Text2SPARQL service is asked about unless told otherwise.
LIITA_DATASET = "http://liita.it/data"
#: The most a Text2SPARQL answer may hold (a query is a few KB; more is not an answer).
MAX_ANSWER_BYTES = 1 << 20


class AgentError(Nl2SparqlError):
    """One question failed: the agent errored, timed out, or gave no SPARQL query."""


class Agent(Protocol):
    """Anything that answers a question with SPARQL text (or raises :class:`AgentError`)."""

    label: str

    def ask(self, question: str, *, item_id: str, lang: str, timeout: float) -> str:
        """The agent's raw answer to ``question`` within ``timeout`` seconds."""

    def close(self) -> None:
        """Release what the agent holds (a server process, an HTTP client)."""


def _snippet(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


class CommandAgent:
    """A command run once per question; see the module docstring for the template.

    Each run is the leader of its own process group (:mod:`.agent_group`): a question past its
    time budget ends the agent and every process it started, and so does the end of ``ask``
    (Ctrl-C, SIGTERM, even SIGKILL). The question, its id and language are also in the
    environment (:data:`ENV`), the one safe way to hand them to a shell.
    """

    def __init__(self, template: str):
        try:
            self.argv = shlex.split(template)
        except ValueError as exc:
            raise ConfigError(f"cannot read the agent command {template!r}: {exc}") from None
        if not self.argv:
            raise ConfigError("the agent command is empty")
        program = self.argv[0]
        if "{" in program or shutil.which(program) is None:
            raise ConfigError(f"agent command not found: {program} (give an executable on PATH or a path)")
        _refuse_code_placeholders(self.argv)
        self.stdin = not any("{question}" in arg for arg in self.argv)
        self.label = f"command: {template}"
        self._running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def argv_for(self, question: str, item_id: str, lang: str) -> list[str]:
        """The arguments for one question (placeholders replaced inside each argument, never re-split)."""
        values = {"{question}": question, "{id}": item_id, "{lang}": lang}
        out = []
        for arg in self.argv:
            for key, value in values.items():
                arg = arg.replace(key, value)
            out.append(arg)
        return out

    def ask(self, question: str, *, item_id: str, lang: str, timeout: float) -> str:
        """Run the command; its stdout is the answer (a non-zero exit is an error naming stderr's last line)."""
        lifeline = _lifeline()
        env = {**os.environ, ENV["question"]: question, ENV["id"]: item_id, ENV["lang"]: lang}
        try:
            process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(Path(__file__).with_name("agent_group.py")), str(lifeline),
                 *self.argv_for(question, item_id, lang)],
                stdin=subprocess.PIPE if self.stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, errors="replace", env=env, pass_fds=(lifeline,),
                start_new_session=True)
        except (OSError, ValueError) as exc:  # ValueError: a NUL character in an argument
            raise AgentError(f"cannot run the agent: {getattr(exc, 'strerror', None) or exc}") from None
        with self._lock:
            self._running.add(process)
        try:
            stdout, stderr = process.communicate(question if self.stdin else None, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            try:
                process.communicate(timeout=5)  # a process that left the group may hold the pipes: not for long
            except subprocess.TimeoutExpired:
                pass
            raise AgentError(f"timed out after {timeout:g} s") from None
        finally:
            with self._lock:
                self._running.discard(process)
        if process.returncode != 0:
            last = (stderr.strip().splitlines() or [""])[-1]
            raise AgentError(f"exit status {process.returncode}" + (f": {_snippet(last)}" if last else ""))
        return stdout

    def close(self) -> None:
        """End the agents still running (an interrupted ``ask``), with everything they started."""
        with self._lock:
            running = list(self._running)
        for process in running:
            _kill_group(process)


#: The environment variables that hold the question, its id and its language in a command agent's environment.
ENV = {"question": "NL2SPARQL_QUESTION", "id": "NL2SPARQL_ID", "lang": "NL2SPARQL_LANG"}
#: Programs that run the argument after a code flag (``sh -c CODE``, ``python -c CODE``) as code: a placeholder
#: inside that argument would make a question code. A placeholder in an argument of its own is safe.
CODE_RUNNERS = ("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox", "python",
                "perl", "ruby", "node", "php", "pwsh", "ssh")
_LIFELINE: list[int] = []
_LIFELINE_LOCK = threading.Lock()


def _refuse_code_placeholders(argv: list[str]) -> None:
    """:class:`ConfigError` when a placeholder sits inside code a shell or an interpreter runs."""
    runner = None
    for i, arg in enumerate(argv):
        name = os.path.basename(arg).rstrip("0123456789.")
        if runner is None and name in CODE_RUNNERS:
            runner = name
            continue
        if runner is None or not any(p in arg for p in PLACEHOLDERS):
            continue
        previous = argv[i - 1]
        code_flag = previous in ("--command", "--eval", "-Command") or (
            previous.startswith("-") and not previous.startswith("--") and previous[-1] in "ce")
        if runner == "ssh" or code_flag:
            raise ConfigError(
                f"the agent command puts a placeholder inside the code that {runner} runs ({_snippet(arg, 60)!r}), "
                f"where a question could run as code: pass it as an argument of its own (sh -c '… \"$1\"' sh "
                f"{{question}}), or read ${ENV['question']} (and ${ENV['id']}, ${ENV['lang']}) in the code")


def _lifeline() -> int:
    """The read end of the pipe every agent's group leader watches; its write end is held by this process
    only (not inherited by any program it runs), so it reads end of file once this process is gone."""
    with _LIFELINE_LOCK:
        if not _LIFELINE or _LIFELINE[2] != os.getpid():
            read, write = os.pipe()
            _LIFELINE[:] = [read, write, os.getpid()]
        return _LIFELINE[0]


def _kill_group(process: subprocess.Popen) -> None:
    """SIGKILL the process group ``process`` leads (the agent and all it started)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class OpenAIChatAgent:
    """An OpenAI-compatible chat endpoint (``url`` ends in ``/v1``), asked once per question."""

    def __init__(self, url: str, model: str, *, api_key_env: str = "OPENAI_API_KEY",
                 system_prompt: str = SYSTEM_PROMPT, timeout: float = 60.0, concurrency: int = 4):
        from ..llm import LLMClient, LLMConfig

        if not model:
            raise ConfigError("--agent-openai needs --model (the model name the endpoint serves)")
        config = LLMConfig(model=model, base_url=url, api_key=os.environ.get(api_key_env) or None, timeout=timeout,
                           max_retries=2, max_concurrency=concurrency, cache_path=None)
        self.client = LLMClient(config, use_cache=False)
        self.system_prompt = system_prompt
        self.label = f"openai: {model} at {config.effective_base_url}"

    def ask(self, question: str, *, item_id: str, lang: str, timeout: float) -> str:
        """The model's answer to the system prompt and the question."""
        messages = [{"role": "system", "content": self.system_prompt}, {"role": "user", "content": question}]
        try:  # the question's budget bounds the call, retries included
            return self.client.chat(messages, temperature=0.0, deadline=time.monotonic() + timeout).text
        except Nl2SparqlError as exc:
            raise AgentError(str(exc)) from None

    def close(self) -> None:
        """Close the HTTP client."""
        self.client.close()


class MCPToolAgent:
    """A tool of an MCP server started with ``command`` (stdio); one connection serves every question."""

    def __init__(self, command: str, tool: str, *, arg: str = "question", tool_args: dict | None = None,
                 result_key: str | None = None, connect_timeout: float = 60.0):
        from anyio.from_thread import start_blocking_portal

        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ConfigError(f"cannot read the MCP server command {command!r}: {exc}") from None
        if not argv or shutil.which(argv[0]) is None:
            raise ConfigError(f"MCP server command not found: {argv[0] if argv else '(empty)'}")
        self.tool, self.arg, self.fixed = tool, arg, dict(tool_args or {})
        self.result_key = result_key
        self.label = f"mcp: {tool} of {command}"
        self._errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._client = self._closing = None
        self._portal_cm = start_blocking_portal()
        self._portal = self._portal_cm.__enter__()
        connected = threading.Event()
        self._held = self._portal.start_task_soon(self._hold, argv, connect_timeout, connected)
        if not connected.wait(connect_timeout) or self._client is None:  # no answer in time, or a failure
            self._errlog.seek(0)
            said = (self._errlog.read().strip().splitlines() or [""])[-1]
            failed = self._held.done() and not self._held.cancelled() and self._held.exception()
            cause = _innermost(failed) if failed else TimeoutError()
            self.close()
            if _timed_out(cause):
                raise ConfigError(f"the MCP server {command!r} did not answer the MCP handshake within "
                                  f"{connect_timeout:g} s (--timeout){'; it said: ' + _snippet(said) if said else ''}"
                                  ) from None
            raise ConfigError(f"cannot start the MCP server {command!r}: "
                              f"{_snippet(said or str(cause)) or type(cause).__name__}") from None
        try:
            tools = {t.name for t in self._portal.call(self._list_tools, connect_timeout).tools}
        except Exception as exc:  # noqa: BLE001 - the same one line as a failed start
            self.close()
            cause = _innermost(exc)
            raise ConfigError(f"the MCP server {command!r} did not list its tools"
                              f"{f' within {connect_timeout:g} s (--timeout)' if _timed_out(cause) else ''}: "
                              f"{_snippet(str(cause)) or type(cause).__name__}") from None
        if tool not in tools:
            self.close()
            raise ConfigError(f"the MCP server has no tool {tool!r} (it has: {', '.join(sorted(tools))})")

    async def _hold(self, argv: list[str], timeout: float, connected: threading.Event) -> None:
        """Connect, say so, and keep the connection until :meth:`close` (one task owns it from start to end)."""
        import anyio
        from mcp import Client, StdioServerParameters
        from mcp.client.stdio import stdio_client

        self._closing = anyio.Event()
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))
        try:
            async with Client(stdio_client(params, errlog=self._errlog), read_timeout_seconds=timeout) as client:
                self._client = client
                connected.set()
                await self._closing.wait()
        finally:
            connected.set()

    async def _list_tools(self, timeout: float):
        import anyio
        with anyio.fail_after(timeout):
            return await self._client.list_tools()

    async def _call(self, question: str, timeout: float):
        import anyio
        with anyio.fail_after(timeout):
            return await self._client.call_tool(self.tool, {**self.fixed, self.arg: question})

    def ask(self, question: str, *, item_id: str, lang: str, timeout: float) -> str:
        """Call the tool; the query is taken from its structured result, else from its text."""
        try:
            result = self._portal.call(self._call, question, timeout)
        except TimeoutError:
            raise AgentError(f"timed out after {timeout:g} s") from None
        except Exception as exc:  # the connection broke: the MCP server exited or answered garbage
            raise AgentError(f"the MCP call failed: {_snippet(str(exc)) or type(exc).__name__}") from None
        text = "\n".join(getattr(block, "text", "") for block in result.content or [])
        if result.is_error:
            raise AgentError(f"the tool answered with an error: {_snippet(text)}")
        return self._from_structured(result.structured_content) or text

    def _from_structured(self, data: Any) -> str | None:
        if not isinstance(data, dict):
            return None
        for key in ([self.result_key] if self.result_key else RESULT_KEYS):
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                return value
        return None

    def close(self) -> None:
        """Stop the MCP server (a handshake still waiting is cancelled) and the event loop thread."""
        if self._portal_cm is not None and not self._held.done():
            if self._client is not None:
                self._portal.call(self._closing.set)
            else:
                self._held.cancel()
            futures.wait([self._held], timeout=30)  # the SDK's shutdown of the server is bounded (a few s)
            if not self._held.done():
                self._portal.call(self._portal.stop, True)  # whatever still runs is cancelled
        if self._portal_cm is not None:
            portal_cm, self._portal_cm = self._portal_cm, None
            portal_cm.__exit__(None, None, None)
        self._errlog.close()


class Text2SparqlAgent:
    """A service speaking the Text2SPARQL challenge API (see the module docstring); one HTTP client for all."""

    def __init__(self, url: str, dataset: str = LIITA_DATASET, *, concurrency: int = 4):
        import httpx

        if not url.startswith(("http://", "https://")):
            raise ConfigError(f"--agent-text2sparql needs an http(s) URL, not {url!r} "
                              "(e.g. http://127.0.0.1:8000/)")
        if not dataset.strip():
            raise ConfigError("--dataset must not be empty (the IRI of the knowledge graph, e.g. http://liita.it/data)")
        self.url, self.dataset = url, dataset
        self.label = f"text2sparql: {url} (dataset {dataset})"
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        self.client = httpx.Client(limits=limits, follow_redirects=True, trust_env=False)

    def ask(self, question: str, *, item_id: str, lang: str, timeout: float) -> str:
        """``GET url?question=…&dataset=…``; the answer's ``query`` (the whole exchange within ``timeout``)."""
        import httpx

        deadline = time.monotonic() + timeout
        body = bytearray()
        try:
            with self.client.stream("GET", self.url, params={"question": question, "dataset": self.dataset},
                                    headers={"Accept": "application/json"}, timeout=timeout) as response:
                for chunk in response.iter_bytes():
                    body += chunk
                    if time.monotonic() > deadline:
                        raise AgentError(f"timed out after {timeout:g} s")
                    if len(body) > MAX_ANSWER_BYTES:
                        raise AgentError(f"the answer is larger than {MAX_ANSWER_BYTES >> 20} MiB")
                status = response.status_code
        except httpx.TimeoutException:
            raise AgentError(f"timed out after {timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise AgentError(f"cannot reach {self.url}: {_snippet(str(exc)) or type(exc).__name__}") from None
        text = body.decode("utf-8", errors="replace")
        if status != 200:
            raise AgentError(f"HTTP {status} from {self.url}" + (f": {_snippet(text)}" if text.strip() else ""))
        try:
            answer = json.loads(text)
        except json.JSONDecodeError:
            raise AgentError(f"the answer is not JSON: {_snippet(text)!r}") from None
        query = answer.get("query") if isinstance(answer, dict) else None
        if not isinstance(query, str) or not query.strip():
            raise AgentError(f"the answer has no \"query\" text (Text2SPARQL answers {{dataset, question, query}}): "
                             f"{_snippet(text)}")
        return query

    def close(self) -> None:
        """Close the HTTP client."""
        self.client.close()


def _innermost(exc: BaseException) -> BaseException:
    """The first exception inside exception groups (what a task group that failed actually raised)."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]
    return exc


def _timed_out(exc: BaseException) -> bool:
    """A wait that ran out: a timeout, or the MCP SDK's error for a request that got no response in time."""
    return isinstance(exc, TimeoutError) or "timed out" in str(exc).lower()


def make_agent(spec: dict, *, timeout: float = 60.0, concurrency: int = 4) -> Agent:
    """The connector a spec names: ``{"cmd": template}``, ``{"openai": url, "model": m, ...}``,
    ``{"mcp": command, "tool": name, "arg": "question", "tool_args": {...}}`` or
    ``{"text2sparql": url, "dataset": iri}``."""
    kinds = [k for k in ("cmd", "openai", "mcp", "text2sparql") if spec.get(k)]
    if len(kinds) != 1:
        raise ConfigError("choose one agent: --agent-cmd, --agent-openai, --agent-mcp or --agent-text2sparql")
    if kinds[0] == "cmd":
        return CommandAgent(spec["cmd"])
    if kinds[0] == "text2sparql":
        return Text2SparqlAgent(spec["text2sparql"], spec.get("dataset") or LIITA_DATASET, concurrency=concurrency)
    if kinds[0] == "openai":
        return OpenAIChatAgent(spec["openai"], spec.get("model") or "", api_key_env=spec.get("api_key_env")
                               or "OPENAI_API_KEY", system_prompt=_prompt(spec.get("system_prompt")),
                               timeout=timeout, concurrency=concurrency)
    if not spec.get("tool"):
        raise ConfigError("--agent-mcp needs --tool (the name of the tool that answers questions)")
    return MCPToolAgent(spec["mcp"], spec["tool"], arg=spec.get("arg") or "question",
                        tool_args=_tool_args(spec.get("tool_args")), result_key=spec.get("result_key"),
                        connect_timeout=timeout)


def _prompt(value: str | None) -> str:
    """The system prompt: the default, a text, or ``@file``."""
    if not value:
        return SYSTEM_PROMPT
    if value.startswith("@"):
        path = Path(value[1:])
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read the system prompt file {path}: {exc}") from None
    return value


def _tool_args(value) -> dict:
    if value is None or isinstance(value, dict):
        return dict(value or {})
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--tool-args must be a JSON object: {exc.msg}") from None
    if not isinstance(parsed, dict):
        raise ConfigError("--tool-args must be a JSON object, e.g. '{\"mode\": \"offline\"}'")
    return parsed
