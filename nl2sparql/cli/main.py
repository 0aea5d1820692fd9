"""``nl2sparql``: the whole tool, its commands grouped by job.

Asking LiITA and checking queries are registered here; the dataset and
knowledge-base commands are those of ``nl2sparql-gen`` (:mod:`nl2sparql.cli.gen`),
added as they are, so both names reach the same commands.
"""

from __future__ import annotations

import typer

from . import gen, mcp_cmd, ontology_cmd, ui_cmd
from .agent_cmd import agent, agent_viz
from .retrieve_cmd import retrieve
from .style import StyledGroup
from .translate_cmd import translate, validate

ASK = "Ask LiITA"
CHECK = "Check queries"
SERVE = "Serve LiITA to a browser or an LLM client"

app = typer.Typer(
    name="nl2sparql",
    help="Ask LiITA (Linking Italian) questions in Italian or English, check SPARQL, and build and score "
         "natural-language → SPARQL datasets.\n\n"
         "Every command is here. `nl2sparql-gen` is a shorter name for the dataset and knowledge-base "
         "commands (`nl2sparql-gen run` is `nl2sparql run`).",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    cls=StyledGroup,
)
app.command("translate", rich_help_panel=ASK)(translate)
app.command("agent", rich_help_panel=ASK)(agent)
app.command("retrieve", rich_help_panel=ASK)(retrieve)
app.add_typer(ontology_cmd.app, name="ontology", rich_help_panel=ASK)
app.command("agent-viz", rich_help_panel=ASK)(agent_viz)
app.command("validate", rich_help_panel=CHECK)(validate)
app.registered_commands += gen.app.registered_commands
app.registered_groups += gen.app.registered_groups
app.command("ui", rich_help_panel=SERVE)(ui_cmd.ui)
app.add_typer(mcp_cmd.app, name="mcp", rich_help_panel=SERVE)
