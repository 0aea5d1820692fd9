"""``nl2sparql-gen``: the dataset and knowledge-base commands of ``nl2sparql``, under a name of their own.

Every command registered here is also a command of ``nl2sparql`` (see
:mod:`nl2sparql.cli.main`), so ``nl2sparql-gen run`` and ``nl2sparql run``
are the same command.
"""

from __future__ import annotations

import typer

from . import ask_cmd, compare_cmd, evaluate_cmd, kb_cmd, run_cmd, score_cmd
from .style import StyledGroup

#: The help panels of the commands, shared with ``nl2sparql``.
DATASETS = "Build and score datasets"
KB = "Knowledge base"

app = typer.Typer(
    name="nl2sparql-gen",
    help="Grow and check LiITA natural-language → SPARQL datasets, and manage the knowledge base.\n\n"
         "These are the dataset and knowledge-base commands of nl2sparql: `nl2sparql-gen run` is "
         "`nl2sparql run`. `nl2sparql --help` lists every command, including asking LiITA a question.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    cls=StyledGroup,
)
app.command("run", rich_help_panel=DATASETS)(run_cmd.run)
app.add_typer(run_cmd.pool_app, name="pool", rich_help_panel=DATASETS)
app.command("export", rich_help_panel=DATASETS)(run_cmd.export)
app.command("score", rich_help_panel=DATASETS)(score_cmd.score)
app.command("compare", rich_help_panel=DATASETS)(compare_cmd.compare)
app.command("evaluate", rich_help_panel=DATASETS)(evaluate_cmd.evaluate)
app.command("ask", rich_help_panel=DATASETS)(ask_cmd.ask)
app.add_typer(kb_cmd.app, name="kb", rich_help_panel=KB)
