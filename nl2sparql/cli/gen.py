"""``nl2sparql-gen``: the knowledge base, the generation pipeline, pools and scoring."""

from __future__ import annotations

import typer

from . import ask_cmd, compare_cmd, kb_cmd, run_cmd, score_cmd

app = typer.Typer(
    name="nl2sparql-gen",
    help="Grow and check LiITA natural-language → SPARQL example pools.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)
app.add_typer(kb_cmd.app, name="kb")
app.command("run")(run_cmd.run)
app.command("export")(run_cmd.export)
app.add_typer(run_cmd.pool_app, name="pool")
app.command("score")(score_cmd.score)
app.command("ask")(ask_cmd.ask)
app.command("compare")(compare_cmd.compare)
