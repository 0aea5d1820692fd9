"""How every ``--help`` screen reads: metavars in words, help shown as written, usage lines as Click writes them.

Typer (0.29) shows each option's Python type as its metavar (``<bool>``,
``<list[Path]>``, ``<int range> [x>=1]``), reads help text as Rich markup
(so ``[default: 20]`` or ``".[ray]"`` vanish) and writes required arguments
as ``{question}``. :class:`StyledGroup`, the class of both top-level apps,
fixes the whole command tree once it is built:

* an option's metavar says what to write: the same word for the same flag
  everywhere (:data:`METAVARS`), else one from its type (``N``, ``NUMBER``,
  ``TEXT``, ``PATH``); flags have none;
* a bounded number says its range in the help (``1 to 64``), not as ``x>=1``;
* help text is escaped, so brackets are shown as written;
* arguments are ``QUESTION`` (required) or ``[QUESTION]`` in the usage line.
"""

from __future__ import annotations

import pathlib
import typing

import typer
from rich.markup import escape
from typer.core import TyperArgument, TyperGroup, TyperOption

#: The metavar of a flag that means the same thing in every command.
METAVARS = {
    "--store": "DIR", "--endpoint": "URL", "--service": "IRI=TARGET", "--timeout": "SECONDS",
    "--query-timeout": "SECONDS", "--pool": "POOL", "--gold": "POOL", "--pred": "FILE", "--out": "PATH",
    "--report": "DIR", "--cache-dir": "DIR", "--checkpoint": "FILE", "--thread": "ID", "--embedder": "MODEL",
    "--llm-model": "MODEL", "--model": "MODEL", "--llm-base-url": "URL", "--agent-openai": "URL",
    "--llm-config": "FILE", "--lang": "it|en", "--lang-tags": "keep|ignore", "--split": "SPLIT",
    "--variant": "STYLE", "--translator": "NAME", "--format": "FORMAT", "--weights": "WEIGHTS", "--graph": "IRI",
    "--shard": "I/N", "--executor": "local|ray", "--ray-address": "ADDRESS", "--patterns": "LABELS",
    "--host": "ADDRESS", "--port": "PORT", "--transport": "stdio|http", "--name": "NAME",
    "--agent-cmd": "COMMAND", "--agent-mcp": "COMMAND", "--tool": "NAME", "--arg": "NAME", "--tool-args": "JSON",
    "--api-key-env": "VARIABLE", "--system-prompt": "TEXT",
}
#: The metavar of an option that is in no list above, by its Python type.
BY_TYPE = {int: "N", float: "NUMBER", str: "TEXT", pathlib.Path: "PATH"}


class StyledGroup(TyperGroup):
    """A Typer group whose whole command tree gets :func:`style` as soon as it is built."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        style(self)

    def get_params(self, ctx) -> list:
        """The group's parameters, styled (Typer adds its completion options after the group is built)."""
        params = super().get_params(ctx)
        for param in params:
            if not isinstance(param, (_Argument, _Option)):
                _style_param(param)
        return params


class _Argument(TyperArgument):
    """An argument written as Click writes it in the usage line: ``QUESTION``, ``[QUESTION]``, ``FILES...``."""

    def get_usage_pieces(self, ctx) -> list[str]:
        name = self.metavar or self.name.upper()
        name = name if self.required else f"[{name}]"
        return [name + ("..." if self.nargs != 1 else "")]

    def display_type_rich(self, ctx) -> None:
        return None  # the argument's name already says what it is

    def _get_number_range_help_str(self) -> None:
        return None  # said in the help instead (see style)


class _Option(TyperOption):
    def _get_number_range_help_str(self) -> None:
        return None  # said in the help instead (see style)


def style(command) -> None:
    """Apply the rules of the module docstring to ``command`` and everything under it (once)."""
    if getattr(command, "_nl2sparql_styled", False):
        return
    command._nl2sparql_styled = True
    command.help = _escape(command.help)
    command.short_help = _escape(command.short_help)
    params = list(command.params)
    help_option = command.get_help_option(typer.Context(command))
    for param in params + ([help_option] if help_option is not None else []):
        _style_param(param)
    for sub in getattr(command, "commands", {}).values():
        style(sub)


def _style_param(param) -> None:
    if isinstance(param, (_Argument, _Option)):
        return  # styled already
    # The usage piece and the range display are methods of the parameter: the subclasses write them our way.
    if isinstance(param, TyperArgument):
        param.__class__ = _Argument
        param.metavar = param.metavar or param.name.upper()
    elif isinstance(param, TyperOption):
        param.__class__ = _Option
        if param.metavar is None:
            param.metavar = "" if param.is_flag else _metavar(param)
    param.help = _escape(param.help)
    bounds = _range(param)
    if bounds:
        text = (param.help or "").rstrip()
        param.help = f"{text[:-1]} ({bounds})." if text.endswith(".") else f"{text} ({bounds})".lstrip()


def _metavar(option: TyperOption) -> str:
    for name in option.opts:
        if name in METAVARS:
            return METAVARS[name]
    annotation = option.type_descriptor.annotation
    if typing.get_origin(annotation) in (list, tuple):
        annotation = (typing.get_args(annotation) or (str,))[0]
    return BY_TYPE.get(annotation, "VALUE")


def _range(param) -> str:
    """A two-sided range in words (``1 to 64``); one-sided bounds (``at least 1``) go unsaid."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is None or high is None:
        return ""
    return f"{low:g} to {high:g}"


def _escape(text: str | None) -> str | None:
    return escape(text) if text else text
