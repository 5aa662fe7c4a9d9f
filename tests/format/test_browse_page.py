"""The browse page in a real headless browser: Debian's Chromium, driven by Playwright.

Skipped, saying why, where Chromium is absent (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.browse import KEY, OTHER_KEY, build
from helpers.browser import FLAGS, chromium_path
from mdcx.format._browse import BrowseServer

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is a dev dependency")
expect = playwright.expect


@pytest.fixture(scope="module")
def browser() -> Iterator:
    path = chromium_path()
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build(tmp_path_factory.mktemp("page"))


@pytest.fixture
def server(packages) -> Iterator[BrowseServer]:
    with BrowseServer(list(packages)).start() as s:
        yield s


class Watched:
    """A page, with everything that should never happen on it recorded."""

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[tuple[str, str, bytes | None]] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", self._console)
        page.on("dialog", self._dialog)
        page.on("request", lambda r: self.requests.append((r.method, r.url, r.post_data_buffer)))

    def _console(self, message) -> None:
        # Refusals the page expects (a wrong passphrase is a 403) are logged by Chromium too.
        expected = message.text.startswith("Failed to load resource: the server responded with a status of 4")
        if message.type == "error" and not expected:
            self.errors.append(message.text)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@pytest.fixture
def watched(browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1200, "height": 800}, accept_downloads=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    w = Watched(context.new_page())
    w.page.set_default_timeout(15_000)
    yield w
    context.close()
    assert not w.dialogs, w.dialogs
    assert not w.errors, w.errors


def open_page(w: Watched, server: BrowseServer):
    page = w.page
    page.goto(server.url)
    page.wait_for_selector("body[data-ready]", state="attached")
    return page


def unlock(page, key: str = KEY) -> None:
    page.fill("#key", key)
    page.click("#unlock button[type=submit]")


def ask(page, question: str) -> None:
    """Type the question key by key, as a person would, and wait for its results."""
    page.fill("#q", "")
    page.locator("#q").press_sequentially(question)
    page.wait_for_selector(
        f"body[data-searched={json.dumps(question, ensure_ascii=False)}]", state="attached"
    )


def page_of(page, selector: str) -> str | None:
    """The number of the last page marker before the element ``selector`` in the document."""
    return page.locator(selector).evaluate(
        """(el) => {
            let found = null;
            for (const m of document.querySelectorAll('#doc .page-marker')) {
                if (m.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) found = m.dataset.page;
                else if (el.contains(m) && found === null) found = m.dataset.page;
            }
            return found;
        }"""
    )


def test_unlock_search_open_and_read_at_the_passage(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    card = page.locator('.card[data-package="main.mdcx"]')
    assert "Harbour Office" in card.inner_text() and "not signed" in card.inner_text()
    assert page.is_hidden("#search-view")
    unlock(page, KEY)
    page.wait_for_selector("#search-view:not([hidden])")
    assert page.input_value("#key") == ""  # the page keeps no copy of the passphrase

    ask(page, "diaphone groan")
    first = page.locator(".result").first
    assert first.locator("h3").inner_text() == "Lighthouse keeping"
    assert first.locator(".package").inner_text() == "main.mdcx"
    passage = first.locator(".passage").first
    assert passage.locator("mark").all_inner_texts()[:2] == ["diaphone", "groan"]
    where = passage.locator(".where span").inner_text()
    assert where.startswith("page 3")
    citation = passage.locator(".citation").inner_text()
    assert citation.startswith("Lighthouse keeping, @/guides/lighthouse.md (p. 3, passage")
    assert citation.endswith("in main.mdcx")

    passage.locator(".text").click()
    page.wait_for_selector("#reader:not([hidden])")
    assert page.inner_text("#doc-title") == "Lighthouse keeping"
    hit = page.locator("#hit")
    assert hit.count() == 1 and "eleven nautical miles" in hit.inner_text()
    assert "Fresnel" not in hit.inner_text()
    assert hit.locator("mark").all_inner_texts()[:2] == ["diaphone", "groan"]
    assert page_of(page, "#hit") == "3"  # the passage is shown on the page the result named
    assert page.locator("#doc .page-marker").all_inner_texts() == ["PAGE 1", "PAGE 2", "PAGE 3"]
    box, viewport = hit.bounding_box(), page.viewport_size
    assert 0 <= box["y"] < viewport["height"]  # scrolled to it
    assert page.inner_text("#doc-citation") == citation

    page.go_back()
    page.wait_for_selector("#search-view:not([hidden])")
    assert page.locator(".result").count() >= 1


def test_wrong_passphrase_says_so(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page, "not the passphrase")
    page.wait_for_selector("#unlock-error:not([hidden])")
    assert "does not open main.mdcx, other.mdcx" in page.inner_text("#unlock-error")
    assert page.is_hidden("#search-view")
    assert page.input_value("#key") == ""
    assert page.locator(".badge.locked").count() == 2


def test_passphrase_never_in_an_address_or_storage(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    assert "#k=" not in page.url  # the access code left the address bar
    unlock(page, KEY)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "lens")
    for method, url, body in watched.requests:
        assert KEY not in url and "passphrase" not in url
        if body and KEY in body.decode():
            assert (method, url.split("/")[-1]) == ("POST", "unlock")
    storage = page.evaluate("() => JSON.stringify([{...sessionStorage}, {...localStorage}])")
    assert KEY not in storage and server.token in storage


def test_several_packages_each_with_its_passphrase(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page, KEY)
    page.wait_for_selector("#unlock-error:not([hidden])")
    assert "does not open other.mdcx" in page.inner_text("#unlock-error")
    ask(page, "diaphone reed")
    assert "Not searched, still locked: other.mdcx." in page.inner_text("#messages")
    unlock(page, OTHER_KEY)
    page.wait_for_selector("#unlock[hidden]", state="attached")
    ask(page, "diaphone reed replaced")
    packages = page.locator(".result .package").all_inner_texts()
    assert set(packages) == {"main.mdcx", "other.mdcx"} and packages[0] == "other.mdcx"


def test_no_hit_question(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page, f"{KEY}")
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "zeppelin")
    messages = page.inner_text("#messages")
    assert "none of the question's words occur in the corpus" in messages
    assert "Never seen in main.mdcx: zeppelin." in messages
    assert page.locator(".result").count() == 0


def test_options_of_the_command(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "diaphone parts")
    documents = page.locator(".result").evaluate_all("(els) => els.map((e) => e.dataset.document)")
    assert {"@/sent/2020-reply.md", "@/received/2020-letter.md"} <= set(documents)
    page.select_option("#only", "sent")
    expect(page.locator(".result")).to_have_count(1)
    assert page.locator(".result").get_attribute("data-document") == "@/sent/2020-reply.md"
    page.select_option("#only", "")
    expect(page.locator(".result")).to_have_count(len(documents))
    page.check("#prefer")
    expect(page.locator("#messages")).to_contain_text("Prefer recent: ")
    page.select_option("#limit", "5")
    page.fill("#q", "keeper")
    expect(page.locator(".result")).not_to_have_count(0)


def test_a_document_with_a_table(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "sprocket")
    page.locator(".result .passage .text").first.click()
    page.wait_for_selector("#reader:not([hidden])")
    table = page.locator("#doc table")
    assert table.count() == 1
    assert table.locator("th").all_inner_texts() == ["Part", "Count", "Shelf"]
    rows = [r.locator("td").all_inner_texts() for r in table.locator("tbody tr").all()]
    assert rows == [["gasket", "12", "A3"], ["flywheel", "2", "C1"], ["sprocket", "40", "B2"]]
    assert table.locator("td.al-right").first.evaluate("(el) => getComputedStyle(el).textAlign") == "right"
    assert table.locator("mark").inner_text() == "sprocket"
    assert page.locator("#hit table").count() == 1  # the passage holding the table is the one marked


def test_a_right_to_left_document(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "מגדלור")
    text = page.locator(".result .passage .text p").first
    assert text.evaluate("(el) => getComputedStyle(el).direction") == "rtl"
    assert page.locator(".result .passage mark").first.inner_text() in ("מגדלור", "המגדלור")
    page.locator(".result .passage .text").first.click()
    page.wait_for_selector("#reader:not([hidden])")
    for selector in ("#doc h1", "#doc p"):
        assert page.locator(selector).first.evaluate("(el) => getComputedStyle(el).direction") == "rtl"
    assert page.locator("#doc-title").inner_text() == "מגדלור"


def test_a_hostile_document_stays_text(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "zebrafish")
    result = page.locator(".result").first
    assert result.locator("h3").inner_text() == "<script>window.pwned = 'title'</script>"
    result.locator(".passage .text").first.click()
    page.wait_for_selector("#reader:not([hidden])")
    page.locator("#doc a, #doc .link").first.wait_for(state="attached")
    doc = page.locator("#doc")
    assert doc.locator("script, img, svg, iframe, style, [onclick], [onerror], [onload]").count() == 0
    assert doc.locator("a").count() == 0  # the javascript: link is shown as text
    assert "<script>window.pwned = 'script'</script>" in doc.inner_text()
    assert page.evaluate("() => window.pwned === undefined")
    doc.locator(".link").first.click()  # clicking the link's text runs nothing
    assert page.evaluate("() => window.pwned === undefined")


def test_attachments_listed_and_downloadable(watched: Watched, server: BrowseServer, packages) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector(".attachments li")
    item = page.locator(".attachments li").first
    assert "Coordinates (@/appendix/coordinates.md)" in item.inner_text()
    with page.expect_download() as info:
        item.locator("button", has_text="Download").click()
    download = info.value
    assert download.suggested_filename == "coordinates.md"
    original = (packages[0].parent / "main" / "appendix" / "coordinates.md").read_bytes()
    assert Path(download.path()).read_bytes() == original
    item.locator("button", has_text="Open").click()
    page.wait_for_selector("#reader:not([hidden])")
    assert "attachment" in page.inner_text("#doc-path")
    assert page.locator("#doc table td").first.inner_text() == "North Head"


def test_copy_a_citation(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "fresnel")
    passage = page.locator(".passage").first
    passage.locator("button.copy").click()
    page.wait_for_selector("button.copy >> text=Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == passage.locator(".citation").inner_text()


def test_lock_again(watched: Watched, server: BrowseServer) -> None:
    page = open_page(watched, server)
    unlock(page)
    page.wait_for_selector("#search-view:not([hidden])")
    ask(page, "lens")
    page.click("#lock")
    page.wait_for_selector("#unlock:not([hidden])")
    # the badges are redrawn after the lock reply: wait for them rather than read them at once
    # (a locator assertion: wait_for_function would evaluate a string, which the page's CSP forbids)
    expect(page.locator(".badge.locked")).to_have_count(2)
    assert page.is_hidden("#search-view")
    assert server.session.unlocked_count() == 0


def test_without_the_access_code(watched: Watched, server: BrowseServer) -> None:
    page = watched.page
    page.goto(server.url.split("#")[0])
    page.wait_for_selector("#notice:not([hidden])")
    assert "access code" in page.inner_text("#notice")
    assert page.is_hidden("#search-view")


EVIL = """<!doctype html><title>another site</title><body><form id="f" method="post" action="{base}api/unlock"
enctype="text/plain"><input name='{{"key":"{key}","x":"' value='"}}'></form><script>
const attempts = [
  fetch("{base}api/unlock", {{method: "POST", headers: {{"Content-Type": "application/json",
    "X-Mdcx-Token": "{token}"}}, body: JSON.stringify({{key: "{key}"}})}}).then(() => "read", () => "blocked"),
  fetch("{base}api/unlock", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}},
    body: JSON.stringify({{key: "{key}"}})}}).then(() => "sent", () => "blocked"),
];
Promise.all(attempts).then((r) => {{ console.log("attempts " + r.join(" ")); document.getElementById("f").submit(); }});
</script></body>"""


def test_another_site_cannot_unlock_even_knowing_the_code(watched: Watched, server: BrowseServer) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    base = server.url.split("#")[0]
    page_html = EVIL.format(base=base, key=KEY, token=server.token).encode()

    class Evil(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page_html)

        def log_message(self, *args) -> None:
            pass

    evil = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        page = watched.page
        said: list[str] = []
        page.on("console", lambda m: said.append(m.text))
        page.goto(f"http://127.0.0.1:{evil.server_port}/")
        page.wait_for_url(f"{base}api/unlock", timeout=15_000)  # the form was posted, and refused
        assert "other sites" in page.content()
        # The call with the code needs a preflight, which is refused; the one without it is refused
        # on arrival, and its answer is withheld from the other page (Cross-Origin-Resource-Policy).
        assert "attempts blocked blocked" in said, said
    finally:
        evil.shutdown()
        evil.server_close()
    assert server.session.unlocked_count() == 0
    watched.errors.clear()  # the refusals are logged by Chromium as errors on that page


def test_misreadings_are_explained_and_marked(watched: Watched, tmp_path: Path) -> None:
    from helpers.format import FAST_KDF, write
    from mdcx.format import PackOptions, pack

    src = tmp_path / "scans"
    write(src, "scan.md", "The rnodern bridge was built in 1931 over the Tarn.\n")  # OCR read "modern" so
    write(src, "other.md", "A wooden boat on the lake.\n")
    scans = tmp_path / "scans.mdcx"
    pack(src, scans, KEY, PackOptions(kdf=FAST_KDF, shapes=True))
    with BrowseServer([scans], keys=[KEY]).start() as server:
        page = open_page(watched, server)
        ask(page, "modern")
        assert "read \u201cmodern\u201d as \u201crnodern\u201d" in page.inner_text("#messages")
        assert page.locator(".result .passage mark").first.inner_text() == "rnodern"
