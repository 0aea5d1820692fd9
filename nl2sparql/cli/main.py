"""``nl2sparql``: translate questions to LiITA SPARQL, retrieve examples, validate and evaluate."""

from __future__ import annotations

import typer

from . import evaluate_cmd, mcp_cmd, ontology_cmd, ui_cmd
from .agent_cmd import agent, agent_viz
from .retrieve_cmd import retrieve
from .translate_cmd import translate, validate

app = typer.Typer(
    name="nl2sparql",
    help="Translate Italian or English questions into LiITA SPARQL, offline or with an LLM.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)
app.command("retrieve")(retrieve)
app.command("evaluate")(evaluate_cmd.evaluate)
app.command("translate")(translate)
app.command("validate")(validate)
app.add_typer(ontology_cmd.app, name="ontology")
app.command("agent")(agent)
app.command("agent-viz")(agent_viz)
app.add_typer(mcp_cmd.app, name="mcp")
app.command("ui")(ui_cmd.ui)
