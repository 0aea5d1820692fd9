"""Every ``--help`` screen of ``nl2sparql`` and ``nl2sparql-gen`` reads well at 80 columns.

No Python type as a metavar (``<bool>``, ``<list[Path]>``, ``[x>=1]``), no
``{question}`` in a usage line, no flag name cut short, no line wider than
80 columns, and every help text shown as its author wrote it (Rich markup
would eat ``[default: 20]`` or ``".[ray]"``).
"""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner
from typer.utils import get_params_from_function

from nl2sparql.cli.gen import app as gen_app
from nl2sparql.cli.main import app as main_app

runner = CliRunner()
PYTHON_TYPES = re.compile(r"<(?:bool|str|int|float|path|Path|list|tuple|int range|float range|dict)\b|\[x[<>]=|"
                          r"<=x\b")


def screens(app: typer.Typer, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], object]]:
    """Every command path of ``app`` with its callback (``None`` for a group)."""
    found = [(path, None)]
    for info in app.registered_commands:
        found.append((path + (info.name,), info.callback))
    for group in app.registered_groups:
        found += screens(group.typer_instance, path + (group.name,))
    return found


SCREENS = [("nl2sparql", *s) for s in screens(main_app)] + [("nl2sparql-gen", *s) for s in screens(gen_app)]


def help_text(app: typer.Typer, path: tuple[str, ...], columns: int) -> str:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": str(columns), "TERMINAL_WIDTH": None})
    assert result.exit_code == 0, result.output
    return result.stdout


def flat(text: str) -> str:
    """``text`` without the panels' borders and line breaks: words separated by single spaces."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


@pytest.mark.parametrize("tool,path,callback", SCREENS, ids=[" ".join((t, *p)) for t, p, _ in SCREENS])
def test_help_at_80_columns(tool, path, callback):
    app = main_app if tool == "nl2sparql" else gen_app
    text = help_text(app, path, 80)
    assert not PYTHON_TYPES.search(text), PYTHON_TYPES.search(text).group(0)
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage
    assert all(len(line) <= 80 for line in text.splitlines())
    if callback is None:
        return
    wide = flat(help_text(app, path, 1000))
    for name, meta in get_params_from_function(callback).items():
        info = meta.default
        for flag in [d for d in getattr(info, "param_decls", ()) or () if d.startswith("-")]:
            for single in flag.split("/"):
                assert re.search(rf"(?<![\w-]){re.escape(single)}(?![\w-])", text), f"{single} is cut at 80 columns"
        if info.help:  # as written (a range may come before its last full stop)
            assert " ".join(info.help.split()).rstrip(".") in wide, f"the help of {name} is not shown as written"


def test_the_two_tools_state_their_rule_and_share_their_commands():
    main = flat(help_text(main_app, (), 80))
    gen = flat(help_text(gen_app, (), 80))
    assert "`nl2sparql-gen run` is `nl2sparql run`" in main and "`nl2sparql-gen run` is `nl2sparql run`" in gen
    gen_commands = {info.name for info in gen_app.registered_commands} | {g.name for g in gen_app.registered_groups}
    main_commands = {info.name for info in main_app.registered_commands} | {g.name for g in main_app.registered_groups}
    assert gen_commands <= main_commands and {"translate", "agent", "validate", "ui", "mcp"} <= main_commands


def test_run_groups_its_options():
    text = help_text(gen_app, ("run",), 80)
    panels = re.findall(r"╭─ (.+?) ─", text)
    assert panels[:1] == ["Options"] and {"Knowledge base", "Speed", "Large runs in shards", "LLM"} <= set(panels)
    assert '".[ray]"' in flat(text)
