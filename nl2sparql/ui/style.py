"""The page's look: a Gradio theme with system fonts only, and the CSS of the project's own blocks."""

from __future__ import annotations

import gradio as gr

SANS = ["system-ui", "-apple-system", "Segoe UI", "Roboto", "Noto Sans", "DejaVu Sans", "sans-serif"]
MONO = ["ui-monospace", "SFMono-Regular", "DejaVu Sans Mono", "Menlo", "Consolas", "monospace"]


def theme() -> gr.themes.Base:
    """A calm, readable theme whose fonts are the visitor's own (nothing is fetched)."""
    return gr.themes.Default(primary_hue="indigo", secondary_hue="sky", neutral_hue="slate",
                             font=[gr.themes.Font(f) for f in SANS],
                             font_mono=[gr.themes.Font(f) for f in MONO]).set(
        body_text_size="16px", block_title_text_weight="600")


CSS = """
.nl2s-header h1 { margin-bottom: 0.1em; }
.nl2s-header p { margin-top: 0.2em; color: var(--body-text-color-subdued); }
.nl2s-kb { display: inline-block; padding: 2px 10px; border-radius: 999px; background: var(--primary-50);
           color: var(--primary-700); font-size: 0.9em; }
.nl2s-msg { padding: 10px 14px; border-radius: 8px; margin: 4px 0; border-left: 5px solid; line-height: 1.45; }
.nl2s-msg ul { margin: 6px 0 0 0; padding-left: 1.2em; }
.nl2s-error { background: #fdecec; border-color: #d93025; color: #7a1a14; }
.nl2s-warn { background: #fff6e0; border-color: #e0a800; color: #5c4300; }
.nl2s-ok { background: #e9f7ef; border-color: #1e8e3e; color: #114a23; }
.nl2s-info { background: #eef3fd; border-color: #4c6ef5; color: #1d2f6f; }
.nl2s-muted { color: var(--body-text-color-subdued); }
.nl2s-ok-text { color: #1e8e3e; margin: 4px 0; }
.nl2s-kv { border-collapse: collapse; margin: 4px 0; border: none !important; }
.nl2s-kv tr, .nl2s-kv th, .nl2s-kv td { border: none !important; background: none !important; }
.nl2s-kv th, .nl2s-kv td { text-align: left; padding: 3px 14px 3px 0 !important; vertical-align: top;
                           border-bottom: 1px solid var(--border-color-primary) !important; }
.nl2s-kv th { font-weight: 600; color: var(--body-text-color-subdued); }
.nl2s-plan { margin-top: 8px; }
.nl2s-plan ol { margin: 4px 0 0 0; padding-left: 1.4em; }
.nl2s-issues { list-style: none; padding-left: 0; margin: 4px 0; }
.nl2s-issues li { margin: 4px 0; }
.nl2s-hint { color: var(--body-text-color-subdued); margin-left: 1em; font-size: 0.95em; }
.nl2s-badge { display: inline-block; min-width: 4.2em; text-align: center; border-radius: 4px; padding: 0 6px;
              font-size: 0.85em; font-weight: 600; color: white; background: #6b7280; }
.nl2s-badge-error { background: #d93025; }
.nl2s-badge-warning { background: #e0a800; color: #1f1f1f; }
.nl2s-badge-ok { background: #1e8e3e; }
.nl2s-progress ul { list-style: none; padding-left: 0; margin: 6px 0; }
.nl2s-pstep { margin: 2px 0; }
.nl2s-pstep progress { width: 180px; vertical-align: middle; }
.nl2s-pcount { font-variant-numeric: tabular-nums; color: var(--body-text-color-subdued); margin: 0 6px; }
.nl2s-step { border: 1px solid var(--border-color-primary); border-radius: 6px; padding: 4px 10px; margin: 4px 0;
             background: var(--block-background-fill); }
.nl2s-step > summary { display: flex; gap: 8px; align-items: baseline; cursor: pointer; list-style: none; }
.nl2s-step > summary::-webkit-details-marker { display: none; }
.nl2s-step > summary::before { content: "▸"; color: var(--body-text-color-subdued); }
.nl2s-step[open] > summary::before { content: "▾"; }
.nl2s-step-no { background: var(--primary-500); color: white; border-radius: 999px; min-width: 1.6em;
                text-align: center; font-size: 0.85em; }
.nl2s-step-summary { flex: 1; color: var(--body-text-color-subdued); overflow-wrap: anywhere; }
.nl2s-step-time { white-space: nowrap; font-variant-numeric: tabular-nums; color: var(--body-text-color-subdued);
                  font-size: 0.85em; }
.nl2s-step dl { margin: 6px 0 4px 1.2em; display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
.nl2s-step dt { font-weight: 600; color: var(--body-text-color-subdued); }
.nl2s-step dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.nl2s-step pre { margin: 0; white-space: pre-wrap; font-size: 0.85em; }
.nl2s-term h3 { margin: 0 0 2px 0; }
.nl2s-term .nl2s-iri { color: var(--body-text-color-subdued); font-size: 0.9em; overflow-wrap: anywhere; }
.nl2s-term ul { margin: 4px 0; padding-left: 1.2em; }
.nl2s-sparql { font-family: var(--font-mono); font-size: 0.9em; line-height: 1.5; white-space: pre-wrap;
               overflow-wrap: anywhere; background: var(--background-fill-secondary); padding: 10px 14px;
               border-radius: 8px; border: 1px solid var(--border-color-primary); margin: 0; }
.nl2s-sparql .sq-keyword { color: #6d28d9; font-weight: 600; }
.nl2s-sparql .sq-var { color: #0e7490; }
.nl2s-sparql .sq-iri { color: #15803d; }
.nl2s-sparql .sq-pname { color: #1d4ed8; }
.nl2s-sparql .sq-string { color: #b45309; }
.nl2s-sparql .sq-langtag { color: #b45309; font-style: italic; }
.nl2s-sparql .sq-number { color: #be123c; }
.nl2s-sparql .sq-comment { color: #6b7280; font-style: italic; }
.nl2s-cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 6px 0 10px 0; }
.nl2s-card { border: 1px solid var(--border-color-primary); border-radius: 10px; padding: 10px 16px; min-width: 130px; }
.nl2s-card-value { font-size: 1.6em; font-weight: 700; }
.nl2s-card-label { color: var(--body-text-color-subdued); }
"""
