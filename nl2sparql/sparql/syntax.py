"""Syntax checking of SPARQL queries before they run anywhere.

The check never evaluates a query where it could do harm. The nesting depth
is bounded first (Oxigraph's recursive parser overflows its stack on a few
thousand nested brackets), then Oxigraph's SPARQL 1.1 parser reads the query
in a sandboxed worker process (:mod:`.sandbox`: no network, a memory cap, a
deadline) on an empty store. pyoxigraph has no parse-only call, and
``Store.query`` may start evaluating (a SERVICE call happens before any
result is read), so the sandbox is what makes it safe; SERVICE clauses are
also parsed as GRAPH clauses (their syntax is the same).
"""

from __future__ import annotations

import atexit
import re
import threading

from ..errors import QuerySyntaxError, QueryTimeout, ResourceLimit
from .lexer import nesting_depth, tokenize
from .rewrite import complete_prefixes

#: Deepest bracket nesting accepted (real LiITA queries stay under 20).
MAX_NESTING = 100
#: Seconds the parser worker may take for one query.
PARSE_TIMEOUT = 15.0

_parser = None
_parser_lock = threading.Lock()


def check_nesting(query: str) -> None:
    """Raise :class:`ResourceLimit` (one line) when brackets nest deeper than :data:`MAX_NESTING`."""
    depth = nesting_depth(query)
    if depth > MAX_NESTING:
        raise ResourceLimit(f"the query nests brackets {depth} levels deep; at most {MAX_NESTING} are accepted "
                            "(flatten the nested groups or expressions)")


def _service_as_graph(query: str) -> str:
    tokens = tokenize(query)
    for tok in reversed(tokens):
        if tok.kind == "word" and tok.upper == "SERVICE":
            query = query[:tok.start] + "GRAPH" + query[tok.start + len(tok.text):]
        elif tok.kind == "word" and tok.upper == "SILENT":
            query = query[:tok.start] + query[tok.start + len(tok.text):]
    return query


_POSITION = re.compile(r"\berror at (\d+):(\d+)")


def relocate_error(message: str, lines_added: int) -> str:
    """Shift the ``error at LINE:COL`` of a parser message back over ``lines_added`` prepended lines.

    :func:`~nl2sparql.sparql.rewrite.complete_prefixes` prepends one line per
    missing PREFIX; the user should see positions in the text they wrote.
    """
    if not lines_added:
        return message

    def shift(m: re.Match) -> str:
        line = int(m.group(1))
        return f"error at {line - lines_added}:{m.group(2)}" if line > lines_added else m.group(0)
    return _POSITION.sub(shift, message, count=1)


def readable_parse_error(message: str, text: str) -> str:
    """Oxigraph's parse error, shortened to what a person can act on.

    Keeps the position, shows the text just before it, names an undeclared
    prefix, and lists the expected keywords and symbols without Oxigraph's
    long character classes.
    """
    found = _POSITION.search(message)
    if found is None:
        return message
    line_no, col = int(found.group(1)), int(found.group(2))
    lines = text.split("\n")
    line = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
    before = " ".join(line[:max(0, col - 1)].split()[-4:])
    where = f"{found.group(0)}" + (f', after "{before[-40:]}"' if before else "")
    if "Prefix not found" in message:
        undeclared = _undeclared_prefixes(text)
        if undeclared:
            return f"{where}: the prefix {undeclared[0]}: is not declared (add a PREFIX {undeclared[0]}: <...> line)"
    unclosed = _unclosed(text)
    if unclosed:
        return f"{where}: {unclosed} is not closed"
    listed = message[found.end():].split("expected", 1)[-1].removeprefix(" one of")
    tokens = [t.strip() for t in re.sub(r"\[[^\]]*\]", "", listed).split(",")]
    tokens = [t for t in tokens if t and t not in ("Prefix not found", ":")][:8]
    return f"{where}: expected {' or '.join([', '.join(tokens[:-1]), tokens[-1]] if len(tokens) > 1 else tokens)}" \
        if tokens else f"{where}: unexpected text"


def _unclosed(text: str) -> str | None:
    """What is left open at the end of ``text`` (a quote, a brace, a bracket), or ``None``."""
    depth = {"{": 0, "(": 0, "[": 0}
    closing = {"}": "{", ")": "(", "]": "["}
    for tok in tokenize(text):
        if tok.kind == "other" and tok.text in "\"'":
            return "a string's quote"
        if tok.text in depth:
            depth[tok.text] += 1
        elif tok.text in closing:
            depth[closing[tok.text]] -= 1
    names = {"{": "a brace {", "(": "a parenthesis (", "[": "a bracket ["}
    return next((names[k] for k, v in depth.items() if v > 0), None)


def _undeclared_prefixes(text: str) -> list[str]:
    """Prefixes used in ``text`` without a PREFIX declaration, in order of use."""
    tokens = [t for t in tokenize(text) if t.kind not in ("ws", "comment")]
    declared = {tokens[i + 1].text.split(":")[0] for i, t in enumerate(tokens[:-1])
                if t.kind == "word" and t.upper == "PREFIX"}
    used = [t.text.split(":")[0] for t in tokens if t.kind == "pname"]
    return list(dict.fromkeys(p for p in used if p not in declared))


def _empty_store():
    import pyoxigraph as ox
    return ox.Store()


def _parse(store, text: str):
    """In the worker: ``("parse", message)`` when Oxigraph cannot parse ``text``, else ``("ok", None)``."""
    try:
        store.query(text)  # results are never read; the store is empty and the process has no network
    except SyntaxError as exc:
        return ("parse", " ".join(str(exc).split()))
    except Exception:  # noqa: BLE001 - an evaluation error: the text parsed
        pass
    return ("ok", None)


def _parser_pool():
    global _parser
    with _parser_lock:
        if _parser is None:
            from .sandbox import WorkerPool
            _parser = WorkerPool(_empty_store, _parse, size=1, memory=512 << 20)
            atexit.register(_parser.close)  # stopped before the interpreter's own exit waits for its children
        return _parser


def check_syntax(query: str) -> None:
    """Raise :class:`QuerySyntaxError` (one line, with position) if ``query`` does not parse.

    Also raises :class:`ResourceLimit` for a query nested too deeply to parse.
    """
    check_nesting(query)
    text, added = complete_prefixes(query)

    def too_slow():
        return QueryTimeout(f"the query could not be parsed within {PARSE_TIMEOUT:g} s")
    status, message = _parser_pool().call(_service_as_graph(text), PARSE_TIMEOUT, too_slow)
    if status == "parse":
        message = relocate_error(readable_parse_error(message, text), len(added))
        raise QuerySyntaxError(f"the query does not parse: {message}")


def parses(query: str) -> bool:
    """True when ``query`` parses."""
    try:
        check_syntax(query)
    except (QuerySyntaxError, ResourceLimit, QueryTimeout):
        return False
    return True
