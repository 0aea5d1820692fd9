"""The web UI in a real browser (headless Chromium via Selenium), as a person uses it.

One app and one browser for the module; the tests run in order on the same
page (each switches to its tab). Screenshots of every tab go to
``cache/ui-screenshots/`` (``NL2SPARQL_UI_SCREENSHOTS`` overrides). The last
test checks that every request the page made stayed on 127.0.0.1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nl2sparql import api
from nl2sparql.ui import Context, agent_tab, warm_up

from ui_helpers import Browser, browser_missing, off_host, served

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or ""),
              pytest.mark.filterwarnings("ignore::Warning:gradio.queueing")]

WAIT = 90  # seconds: the machine may be loaded; every wait ends as soon as the page is ready
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The app on the sample, served on 127.0.0.1, open in headless Chromium."""
    from selenium.webdriver.common.by import By

    ctx = Context(kb=api.KBChoice(), workdir=tmp_path_factory.mktemp("ui-browser"))
    warm_up(ctx).join()
    with served(ctx) as url:
        browser = Browser(tmp_path_factory.mktemp("downloads"))
        try:
            browser.driver.get(url)
            Page(browser, ctx).wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#tr-question textarea"))
            yield Page(browser, ctx)
        finally:
            browser.quit()
    ctx.cleanup()


class Page:
    """Small verbs over the Selenium driver, in the page's own terms (element ids set by the app)."""

    def __init__(self, browser: Browser, ctx: Context):
        from selenium.webdriver.common.by import By
        self.browser, self.driver, self.ctx, self.By = browser, browser.driver, ctx, By

    def wait(self, condition, seconds: float = WAIT):
        from selenium.webdriver.support.ui import WebDriverWait
        return WebDriverWait(self.driver, seconds, poll_frequency=0.2).until(condition)

    def css(self, selector: str):
        return self.driver.find_element(self.By.CSS_SELECTOR, selector)

    def tab(self, name: str) -> None:
        button = self.wait(lambda d: next((b for b in d.find_elements(self.By.CSS_SELECTOR, "button[role=tab]")
                                           if b.text.strip() == name), None))
        button.click()
        self.wait(lambda d: button.get_attribute("aria-selected") == "true")

    def type(self, selector: str, text: str) -> None:
        box = self.wait(lambda d: d.find_element(self.By.CSS_SELECTOR, selector))
        box.clear()
        box.send_keys(text)

    def click(self, elem_id: str) -> None:
        self.wait(lambda d: d.find_element(self.By.ID, elem_id).is_enabled())
        self.driver.find_element(self.By.ID, elem_id).click()

    def text(self, elem_id: str) -> str:
        return self.driver.find_element(self.By.ID, elem_id).text

    def wait_text(self, elem_id: str, *words: str, seconds: float = WAIT) -> str:
        self.wait(lambda d: all(w in self.text(elem_id) for w in words), seconds)
        return self.text(elem_id)

    def click_and_wait(self, button: str, elem_id: str, *words: str, seconds: float = WAIT) -> str:
        """Click ``button``, then wait until ``elem_id`` shows a new text with ``words`` (not an old one)."""
        self.watch(elem_id)
        self.click(button)
        self.wait(lambda d: any(all(w in t for w in words) for t in self.seen(elem_id)), seconds)
        return self.text(elem_id)

    def table(self, elem_id: str) -> tuple[list[str], list[list[str]], int]:
        """A result table: its headers, the rows drawn on screen, and the total row count it declares."""
        grid = self.css(f"#{elem_id} [role=grid]")
        headers = [h.get_attribute("title") for h in grid.find_elements(self.By.CSS_SELECTOR, "th[role=columnheader]")]
        drawn = sorted(grid.find_elements(self.By.CSS_SELECTOR, "[role=row].virtual-row"),
                       key=lambda r: int(r.get_attribute("aria-rowindex")))
        rows = [[c.text for c in r.find_elements(self.By.CSS_SELECTOR, "[role=gridcell]")] for r in drawn]
        return headers, rows, int(grid.get_attribute("aria-rowcount")) - 1

    def downloaded(self, name: str, seconds: float = 30) -> Path:
        path = self.browser.downloads / name
        self.wait(lambda d: path.is_file() and path.stat().st_size > 0, seconds)
        return path

    def watch(self, elem_id: str) -> None:
        """Record every new text the element shows from now on (``seen(elem_id)`` returns them).

        Gradio's "processing…" overlay, drawn inside an output while a request runs, is left out,
        so the old message under it never counts as a new one.
        """
        self.driver.execute_script("""
            window.__textOf = (e) => { const c = e.cloneNode(true);
                c.querySelectorAll('[data-testid="status-tracker"]').forEach((t) => t.remove());
                return c.textContent; };
            const start = document.getElementById(arguments[0]);
            window.__seen = window.__seen || {};
            window.__seen[arguments[0]] = [start ? window.__textOf(start) : ""];
            if (!window.__watcher) {
                window.__watcher = new MutationObserver(() => {
                    for (const [id, texts] of Object.entries(window.__seen)) {
                        const e = document.getElementById(id);
                        const text = e ? window.__textOf(e) : "";
                        if (texts[texts.length - 1] !== text) texts.push(text);
                    }
                });
                window.__watcher.observe(document.body, {subtree: true, childList: true, characterData: true});
            }
        """, elem_id)

    def seen(self, elem_id: str) -> list[str]:
        return self.driver.execute_script("return window.__seen[arguments[0]].slice(1)", elem_id)

    def assert_no_traceback(self) -> None:
        body = self.css("body").text
        assert "Traceback" not in body and 'File "' not in body


# -- Translate -------------------------------------------------------------------------------------------------------
def test_first_paint_happened(page):
    paints = page.driver.execute_script("return performance.getEntriesByType('paint').map(p => p.name)")
    assert "first-contentful-paint" in paints
    assert page.css("#kb-label").text == "knowledge base: sample"


def test_type_a_question_click_translate_and_read_the_rows(page):
    page.tab("Translate")
    page.type("#tr-question textarea", "Quali sostantivi esprimono paura?")
    page.click("tr-go")
    page.wait_text("tr-status", "Translated in")
    headers, rows, total = page.table("tr-table")
    assert headers == ["?wr"]  # the words asked for, no IRI column
    assert total == len(api.translate("Quali sostantivi esprimono paura?", execute=True).rows.rows) > 5
    assert ["angoscia"] in rows
    assert f"{total} rows in" in page.text("tr-caption")
    assert "elita:HasEmotion" in page.text("tr-view") and "EMOTION_LEXICON" in page.text("tr-patterns")
    assert "Paura" in page.text("tr-slots") and "No LiITA rule is broken" in page.text("tr-checks")
    page.click("tr-csv")
    assert page.downloaded("results.csv").read_text(encoding="utf-8").splitlines()[0] == "wr"
    page.browser.shot("translate")


def test_an_example_question_fills_the_box(page):
    page.tab("Translate")
    page.driver.find_element(page.By.XPATH, "//button[normalize-space()='Which adjectives express joy?']").click()
    page.wait(lambda d: page.css("#tr-question textarea").get_attribute("value") == "Which adjectives express joy?")
    page.click_and_wait("tr-go", "tr-status", "Translated in")
    _, rows, _ = page.table("tr-table")
    assert "allegro" in {r[0] for r in rows}


def test_an_empty_question_is_a_message_in_the_page(page):
    page.tab("Translate")
    page.type("#tr-question textarea", " ")
    assert "the question is empty" in page.click_and_wait("tr-go", "tr-status", "Error:")
    assert page.css("#tr-status [role=alert]").is_displayed()
    page.assert_no_traceback()
    page.browser.shot("translate-error", full=False)


# -- Execute SPARQL ---------------------------------------------------------------------------------------------------
def _edit_code(page, elem_id: str, *strokes: list) -> None:
    """Click into a code editor and type: each stroke is one ``send_keys`` (modifiers are released after each)."""
    editor = page.wait(lambda d: d.find_element(page.By.CSS_SELECTOR, f"#{elem_id} .cm-content"))
    editor.click()
    for keys in strokes:
        editor.send_keys(*keys)


def test_execute_an_edited_query(page):
    from selenium.webdriver.common.keys import Keys

    page.tab("Execute SPARQL")
    page.driver.find_element(page.By.XPATH, "//button[normalize-space()='20 adjectives']").click()
    page.wait(lambda d: "LIMIT 20" in page.text("exec-query"))
    _edit_code(page, "exec-query", [Keys.CONTROL, Keys.END], [Keys.BACKSPACE, Keys.BACKSPACE, "7"])
    page.wait(lambda d: "LIMIT 7" in page.text("exec-query"))
    page.click("exec-run")
    page.wait_text("exec-caption", "7 rows in")
    headers, rows, total = page.table("exec-table")
    assert headers == ["?wr"] and total == 7 and len(rows) == 7
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    page.click("exec-json")
    assert '"bindings"' in page.downloaded("results.json").read_text(encoding="utf-8")
    page.browser.shot("execute")


def test_the_page_never_runs_an_update(page):
    from selenium.webdriver.common.keys import Keys

    before = api.execute(COUNT_ALL, kb=page.ctx.kb).values()
    page.tab("Execute SPARQL")
    _edit_code(page, "exec-query", [Keys.CONTROL, "a"], [Keys.DELETE, "DROP ALL"])
    page.wait(lambda d: page.text("exec-query").strip().endswith("DROP ALL"))
    assert "SPARQL Update is refused" in page.click_and_wait("exec-run", "exec-status", "Error:")
    page.assert_no_traceback()
    page.browser.shot("execute-update-refused", full=False)
    assert api.execute(COUNT_ALL, kb=page.ctx.kb).values() == before


# -- Analyze, Retrieve, Fix, Search ontology ---------------------------------------------------------------------------
def test_analyze_tab(page):
    page.tab("Analyze")
    page.type("#an-question textarea", "Quali sono gli iperonimi di «cane»?")
    page.click("an-go")
    page.wait_text("an-status", "Analyzed")
    assert "Italian" in page.text("an-summary") and "SEMANTIC_RELATION" in page.text("an-patterns")
    page.browser.shot("analyze")


def test_retrieve_tab_shows_the_sparql_of_a_clicked_row(page):
    page.tab("Retrieve examples")
    page.type("#re-question textarea", "sinonimi di paura")
    page.click("re-go")
    page.wait_text("re-status", "click a row")
    headers, rows, total = page.table("re-table")
    assert headers == ["rank", "score", "id", "question", "patterns"] and total == 5
    page.css("#re-table [role=gridcell][data-row='0'][data-col='3']").click()
    page.wait_text("re-sparql", "SELECT")
    page.browser.shot("retrieve")


def test_fix_tab_shows_before_and_after(page):
    page.tab("Fix query")
    page.driver.find_element(page.By.XPATH, "//button[normalize-space()='A Virtuoso-style COUNT']").click()
    page.wait(lambda d: "COUNT(?lemma) AS ?n" in page.text("fx-query"))
    page.click("fx-go")
    page.wait_text("fx-status", "fixes applied")
    assert "GROUP BY ?pos" in page.text("fx-after") and "GROUP BY" not in page.text("fx-before")
    assert "added PREFIX lila:" in page.text("fx-fixes")
    page.browser.shot("fix")


def test_search_ontology_tab(page):
    page.tab("Search ontology")
    if ontology_tab_available():
        page.type("#on-query textarea", "the emotion a lexical entry expresses")
        page.click("on-go")
        page.wait_text("on-status", "match")
        headers, rows, _ = page.table("on-table")
        assert headers[:3] == ["#", "term", "label (en / it)"] and rows[0][1] == "elita:HasEmotion"
        assert not any("{" in cell for row in rows for cell in row), "labels and meanings as text, not JSON"
        assert page.driver.execute_script(
            "const t = document.querySelector('#on-table'); return t.getBoundingClientRect().right "
            "<= document.documentElement.clientWidth"), "the table fits the page"
        page.wait_text("on-entry", "elita:HasEmotion", "Usage")
    else:
        assert "not available in this build" in page.text("on-unavailable")
        assert not page.css("#on-go").is_enabled()
    page.browser.shot("ontology")


def ontology_tab_available() -> bool:
    return getattr(api, "search_ontology", None) is not None


# -- Agent -------------------------------------------------------------------------------------------------------------
def test_agent_tab_screenshot(page):
    page.tab("Agent")
    if agent_tab.agent_stream() is None:
        assert "not available in this build" in page.text("ag-unavailable")
        assert not page.css("#ag-go").is_enabled()
    page.browser.shot("agent")


@pytest.mark.skipif(agent_tab.agent_stream() is None,
                    reason="the agent is not available in this build (nl2sparql.api has no agent_stream yet)")
def test_run_the_agent_and_see_the_trace_grow(page):
    page.tab("Agent")
    page.type("#ag-question textarea", agent_tab.EXAMPLES[0][0])
    page.watch("ag-trace")
    page.click_and_wait("ag-go", "ag-status", "finished", seconds=300)
    steps = [text.count("\n") for text in page.seen("ag-trace")]
    cards = page.driver.find_elements(page.By.CSS_SELECTOR, "#ag-trace .nl2s-step")
    assert len(cards) >= 2 and len(set(steps)) >= 2, "the trace should grow while the agent runs"
    top = "return document.querySelector(arguments[0]).getBoundingClientRect().top"
    answer, query, trace = (page.driver.execute_script(top, sel) for sel in ("#ag-table", "#ag-sparql", "#ag-trace"))
    assert answer < trace and query < trace, "the answer and the final query come before the steps"
    times = [card.find_element(page.By.CSS_SELECTOR, ".nl2s-step-time").text for card in cards]
    assert all(re.fullmatch(r"\d+ ms", t) for t in times), times  # each step's own time
    page.browser.shot("agent-run")
    cards[0].find_element(page.By.TAG_NAME, "summary").click()
    page.wait(lambda d: cards[0].get_attribute("open") is not None)  # a step unfolds to its details


# -- Generate and Score ------------------------------------------------------------------------------------------------
def test_run_a_small_generation_and_see_progress_and_counts(page):
    page.tab("Generate")
    page.type("#gen-target input", "15")
    page.type("#gen-seed input", "4")
    page.click_and_wait("gen-go", "gen-status", "Kept 15 of the 15", seconds=300)
    seen = "\n".join(page.seen("gen-status"))
    assert "schema sampler" in seen and "pattern composer" in seen and "/" in seen
    headers, rows, _ = page.table("gen-counts")
    assert headers[:3] == ["outcome", "reason", "items"] and rows[0][:3] == ["kept", "—", "15"]
    page.wait(lambda d: d.find_elements(page.By.CSS_SELECTOR, "#gen-coverage canvas, #gen-coverage svg"))
    _, _, total = page.table("gen-table")
    assert total == 15
    page.click("gen-pool-file")
    assert len(page.downloaded("pool.jsonl").read_text(encoding="utf-8").splitlines()) == 15
    page.browser.shot("generate")


def test_score_a_shipped_pool(page):
    page.tab("Score")
    page.type("#sc-limit input", "6")
    page.click("sc-go")
    page.wait_text("sc-status", "Scored 6 item(s)", seconds=300)
    assert "strict accuracy" in page.text("sc-summary")
    _, rows, total = page.table("sc-verdicts")
    assert total == 6 and all(r[1][:1] in "✓≈✗" for r in rows)
    page.wait(lambda d: d.execute_script(
        "const i = document.querySelector('#sc-chart img'); return i && i.complete && i.naturalWidth > 0"))
    page.browser.shot("score")


# -- offline ---------------------------------------------------------------------------------------------------------
def test_every_request_stayed_on_127_0_0_1(page):
    requests = page.browser.record()
    local = [r["url"] for r in requests if r["url"].startswith("http://127.0.0.1:")]
    assert any("/assets/" in u for u in local) and any("/gradio_api/" in u for u in local)
    assert off_host(requests) == []
    assert page.driver.execute_script("return window.gradio_config.analytics_enabled") is False
