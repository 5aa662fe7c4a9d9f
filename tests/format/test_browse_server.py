"""``mdcx browse``'s server over real HTTP: what it answers, and what it refuses."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import zipfile
from pathlib import Path

import pytest
from helpers.browse import KEY, OTHER_KEY, build
from mdcx.format._browse import BrowseServer


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build(tmp_path_factory.mktemp("browse"))


@pytest.fixture
def server(packages):
    with BrowseServer(list(packages)).start() as s:
        yield s


def request(
    server: BrowseServer,
    method: str,
    path: str,
    body: dict | bytes | None = None,
    *,
    token: str | None = "",
    headers: dict | None = None,
    host: str | None = None,
) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    all_headers = {"Host": host or f"127.0.0.1:{server.port}"}
    if method == "POST":
        all_headers["Content-Type"] = "application/json"
        all_headers["X-Mdcx-Token"] = server.token if token == "" else (token or "")
        if token is None:
            del all_headers["X-Mdcx-Token"]
    all_headers.update(headers or {})
    data = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else b"{}")
    conn.request(method, path, body=data if method == "POST" else None, headers=all_headers)
    res = conn.getresponse()
    out = res.status, {k.lower(): v for k, v in res.getheaders()}, res.read()
    conn.close()
    return out


def call(server: BrowseServer, path: str, body: dict | None = None, **kw) -> tuple[int, dict]:
    status, _, data = request(server, "POST", path, body or {}, **kw)
    return status, json.loads(data)


def raw(server: BrowseServer, text: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(text)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


# -- what it serves ---------------------------------------------------------------------------


def test_binds_loopback_only_by_default(server: BrowseServer) -> None:
    assert server._server.socket.getsockname()[0] == "127.0.0.1"
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/#k=")


def test_page_and_assets_with_strict_headers(server: BrowseServer) -> None:
    for path, kind in (("/", "text/html"), ("/browse.js", "text/javascript"), ("/browse.css", "text/css")):
        status, headers, body = request(server, "GET", path)
        assert status == 200 and headers["content-type"].startswith(kind) and body
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert "access-control-allow-origin" not in headers
    page = request(server, "GET", "/")[2].decode()
    assert (
        "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page
    )  # nothing from the internet


@pytest.mark.parametrize(
    "path",
    [
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fpyproject.toml",
        "/_browse_page/index.html",
        "/browse.js/../../_browse.py",
        "/_browse.py",
        "/api/state",
        "/index.html/",
        "/favicon.ico",
        "/%00",
        "//etc/passwd",
        "/browse.js%00.html",
    ],
)
def test_every_other_path_is_refused(server: BrowseServer, path: str) -> None:
    status, _, body = request(server, "GET", path)
    assert status == 404, path
    assert b"root:" not in body and b"import" not in body


def test_absolute_form_request_is_refused(server: BrowseServer) -> None:
    answer = raw(
        server,
        f"GET http://127.0.0.1:{server.port}/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode(),
    )
    assert answer.startswith(b"HTTP/1.1 404")


# -- DNS rebinding, other sites, other users --------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1.nip.io:{port}",
        "127.0.0.1:1",
        "localhost:{port}@evil",
        "",
        "[::1",
    ],
)
def test_foreign_host_headers_are_refused(server: BrowseServer, host: str) -> None:
    host = host.format(port=server.port)
    for method in ("GET", "POST"):
        status, _, body = request(server, method, "/" if method == "GET" else "/api/state", host=host or " ")
        assert status == 421, (host, method)
        assert b"loopback" in body


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}", "127.0.0.1"]
)
def test_loopback_host_headers_are_served(server: BrowseServer, host: str) -> None:
    assert request(server, "GET", "/", host=host.format(port=server.port))[0] == 200


def test_request_without_host_is_refused(server: BrowseServer) -> None:
    assert raw(server, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 421")


def test_calls_need_the_access_code(server: BrowseServer) -> None:
    assert call(server, "/api/state", token=None)[0] == 403
    status, data = call(server, "/api/state", token="not-the-code")
    assert status == 403 and "access code" in data["error"]
    assert call(server, "/api/state")[0] == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:1"},
        {"Origin": "https://127.0.0.1:{port}"},
        {"Origin": "http://localhost:{port}"},  # another origin than the one the page was loaded from
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_cross_site_calls_are_refused(server: BrowseServer, headers: dict) -> None:
    headers = {k: v.format(port=server.port) for k, v in headers.items()}
    status, data = call(server, "/api/unlock", {"key": KEY}, headers=headers)
    assert status == 403 and "other sites" in data["error"]
    assert not any(p["unlocked"] for p in call(server, "/api/state")[1]["packages"])


def test_same_origin_calls_are_served(server: BrowseServer) -> None:
    origin = {"Origin": f"http://127.0.0.1:{server.port}", "Sec-Fetch-Site": "same-origin"}
    assert call(server, "/api/state", headers=origin)[0] == 200


def test_form_posts_and_preflights_are_refused(server: BrowseServer) -> None:
    status, _, _ = request(
        server, "POST", "/api/unlock", b"key=x", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert status == 415
    status, headers, _ = request(server, "OPTIONS", "/api/unlock")
    assert status == 501 and "access-control-allow-origin" not in headers
    status, _, _ = request(server, "POST", "/api/state", b"x" * (65 * 1024))
    assert status == 413
    assert call(server, "/api/search", {"q": ["not", "text"]})[0] in (400, 403)
    status, _, body = request(server, "POST", "/api/state", b"{not json")
    assert status == 400 and b"not JSON" in body


# -- keys ---------------------------------------------------------------------------------------


def test_wrong_key_says_so_and_nothing_is_logged(server: BrowseServer, capfd: pytest.CaptureFixture) -> None:
    status, data = call(server, "/api/unlock", {"key": "wrong passphrase"})
    assert status == 403 and data["error"].startswith("the passphrase does not open main.mdcx, other.mdcx")
    assert not any(p["unlocked"] for p in data["packages"])
    status, data = call(server, "/api/search", {"q": "lens"})
    assert status == 403 and "locked" in data["error"]
    status, data = call(server, "/api/unlock", {"key": KEY})
    assert status == 200 and data["opened"] == ["main.mdcx"]
    assert "does not open other.mdcx" in data["error"]
    out, err = capfd.readouterr()
    assert KEY not in out + err and "wrong passphrase" not in out + err and not err


def test_one_passphrase_per_package(server: BrowseServer) -> None:
    call(server, "/api/unlock", {"key": KEY})
    status, data = call(server, "/api/search", {"q": "diaphone"})
    assert status == 200 and data["searched"] == ["main.mdcx"] and data["locked"] == ["other.mdcx"]
    status, data = call(server, "/api/unlock", {"key": OTHER_KEY})
    assert status == 200 and data["opened"] == ["other.mdcx"] and "error" not in data
    data = call(server, "/api/search", {"q": "diaphone reed"})[1]
    assert {d["package"] for d in data["documents"]} == {"main.mdcx", "other.mdcx"}
    assert data["documents"][0]["document"] == "@/logs/keeper-log.md"
    assert data["locked"] == []


def test_lock_closes_packages(server: BrowseServer) -> None:
    call(server, "/api/unlock", {"key": KEY})
    assert call(server, "/api/search", {"q": "lens"})[0] == 200
    data = call(server, "/api/lock")[1]
    assert not any(p["unlocked"] for p in data["packages"])
    assert call(server, "/api/search", {"q": "lens"})[0] == 403
    assert call(server, "/api/document", {"package": "main.mdcx", "document": "@/store/parts.md"})[0] == 403


def test_keys_given_at_start_and_dropped_at_stop(packages) -> None:
    server = BrowseServer(list(packages), keys=[KEY, OTHER_KEY]).start()
    assert all(p["unlocked"] for p in call(server, "/api/state")[1]["packages"])
    session = server.session
    server.close()
    assert session.unlocked_count() == 0
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)


# -- what a key opens --------------------------------------------------------------------------


@pytest.fixture
def unlocked(packages):
    with BrowseServer(list(packages), keys=[KEY, OTHER_KEY]).start() as s:
        yield s


def test_header_cards_need_no_key(server: BrowseServer) -> None:
    cards = {p["name"]: dict(p["card"]) for p in call(server, "/api/state")[1]["packages"]}
    main = cards["main.mdcx"]
    assert main["issuer"] == "Harbour Office"
    assert main["signature"] == "not signed"
    assert main["contents"].startswith("6 documents and 1 attachment")
    assert "dated" in main["dates"] and "conversion" in main
    assert call(server, "/api/integrity", {"package": "main.mdcx"})[1]["intact"] is True


def test_search_options_and_messages(unlocked: BrowseServer) -> None:
    status, data = call(unlocked, "/api/search", {"q": "diaphone parts", "only": "sent"})
    assert status == 200 and [d["document"] for d in data["documents"]] == ["@/sent/2020-reply.md"]
    data = call(unlocked, "/api/search", {"q": "zeppelin"})[1]
    assert data["documents"] == [] and "none of the question's words" in data["warning"]
    assert data["unknown_terms"] == {"main.mdcx": ["zeppelin"], "other.mdcx": ["zeppelin"]}
    data = call(unlocked, "/api/search", {"q": "keeper log", "prefer": "recent"})[1]
    assert data["prefer_applied"] is not None and data["prefer_note"]
    status, data = call(unlocked, "/api/search", {"q": "   "})
    assert status == 400 and "empty" in data["error"]
    status, data = call(unlocked, "/api/search", {"q": "lens", "mode": "semantic"})
    assert status == 400 and "mdcx-embed" in data["error"]
    assert call(unlocked, "/api/search", {"q": "lens", "limit": 10_000})[0] == 400


def test_results_carry_highlighted_passages_and_citations(unlocked: BrowseServer) -> None:
    data = call(unlocked, "/api/search", {"q": "fresnel lens"})[1]
    top = data["documents"][0]
    assert top["document"] == "@/guides/lighthouse.md" and top["package"] == "main.mdcx"
    p = top["passages"][0]
    assert p["page"] == 2 and "<mark>Fresnel</mark>" in p["html"] and "<mark>lens</mark>" in p["html"]
    pages = f"pp. 2-{p['last_page']}" if p["last_page"] != 2 else "p. 2"
    assert (
        p["citation"]
        == f"Lighthouse keeping, @/guides/lighthouse.md ({pages}, passage {p['position'] + 1}), in main.mdcx"
    )


def test_document_opens_at_the_passage(unlocked: BrowseServer) -> None:
    p = call(unlocked, "/api/search", {"q": "diaphone groan"})[1]["documents"][0]["passages"][0]
    status, doc = call(
        unlocked,
        "/api/document",
        {
            "package": "main.mdcx",
            "document": "@/guides/lighthouse.md",
            "passage": p["passage"],
            "q": "diaphone groan",
        },
    )
    assert status == 200 and doc["passage"]["page"] == 3 == p["page"]
    hit = re.search(r'<div class="passage-hit" id="hit">(.*?)</div>(?!</td>)', doc["html"], re.S).group(1)
    assert "<mark>diaphone</mark>" in hit and "<mark>groan</mark>" in hit and "Fresnel" not in hit
    before = doc["html"][: doc["html"].index('id="hit"')]
    assert before.count('class="page-marker"') == 3 or 'data-page="3"' in hit
    assert doc["html"].count('id="hit"') == 1
    # A passage of another document is not marked in this one.
    other = call(
        unlocked,
        "/api/document",
        {"package": "main.mdcx", "document": "@/store/parts.md", "passage": p["passage"]},
    )[1]
    assert 'id="hit"' not in other["html"] and other["passage"] is None


def test_documents_by_wrong_names_say_so(unlocked: BrowseServer) -> None:
    status, data = call(unlocked, "/api/document", {"package": "main.mdcx", "document": "@/nope.md"})
    assert status == 400 and "no document named" in data["error"]
    status, data = call(
        unlocked, "/api/document", {"package": "../main.mdcx", "document": "@/store/parts.md"}
    )
    assert status == 400 and "no package named" in data["error"]
    assert call(unlocked, "/api/document", {"package": "main.mdcx"})[0] == 400


def test_attachments_are_listed_and_downloadable(unlocked: BrowseServer, packages) -> None:
    listed = call(unlocked, "/api/attachments")[1]["attachments"]
    assert listed["main.mdcx"] == [
        {
            "document": "@/appendix/coordinates.md",
            "title": "Coordinates",
            "bytes": listed["main.mdcx"][0]["bytes"],
        }
    ]
    status, headers, body = request(
        unlocked, "POST", "/api/download", {"package": "main.mdcx", "document": "@/appendix/coordinates.md"}
    )
    original = (packages[0].parent / "main" / "appendix" / "coordinates.md").read_bytes()
    assert status == 200 and body == original
    assert headers["content-type"] == "application/octet-stream"
    assert headers["content-disposition"].startswith('attachment; filename="coordinates.md"')


def test_verify_with_a_public_key(unlocked: BrowseServer) -> None:
    status, data = call(unlocked, "/api/verify", {"package": "main.mdcx", "public_key": "00" * 32})
    assert status == 200 and data["ok"] is False and data["reason"] == "the package is not signed"
    status, data = call(unlocked, "/api/verify", {"package": "main.mdcx", "public_key": "zz"})
    assert status == 400


BROWSE_FILES = (
    "_browse.py",
    "_browse_session.py",
    "_card.py",
    "_highlight.py",
    "_markdown.py",
    "_markdown_inline.py",
    "_browse_page/index.html",
    "_browse_page/browse.css",
    "_browse_page/browse.js",
)


@pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build the wheel")
def test_the_wheel_ships_the_page_and_stays_light(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    subprocess.run(
        ["uv", "build", "--quiet", "--package", "mdcx-format", "--wheel", "-o", str(tmp_path)],
        cwd=root,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("mdcx_format-*.whl")
    with zipfile.ZipFile(wheel) as z:
        sizes = {info.filename: info.file_size for info in z.infolist()}
    shipped = {name: sizes.get(f"mdcx/format/{name}") for name in BROWSE_FILES}
    assert all(shipped.values()), shipped
    assert sum(shipped.values()) < 1_000_000  # what browsing adds to the reader's install


def test_first_generation_packages_browse_too(tmp_path: Path) -> None:
    from helpers.legacy import write_legacy

    old = tmp_path / "old.mdcx"
    write_legacy(
        old,
        {
            "manuals/pump.md": "# Pump manual\n\nThe pump must be primed before the first start.\n\nCheck the seals yearly."
        },
        "old secret",
        attachments={"certs/cert.md": "certificate 42"},
    )
    with BrowseServer([old], keys=["old secret"]).start() as s:
        state = call(s, "/api/state")[1]["packages"][0]
        assert state["kind"] == "legacy" and dict(state["card"])["format"].startswith("first-generation")
        data = call(s, "/api/search", {"q": "seals yearly"})[1]
        p = data["documents"][0]["passages"][0]
        status, doc = call(
            s,
            "/api/document",
            {"package": "old.mdcx", "document": "@/manuals/pump.md", "passage": p["passage"]},
        )
        assert status == 200 and "<mark>" not in doc["html"]
        hit = re.search(r'id="hit">(.*?)</div>', doc["html"], re.S).group(1)
        assert "Check the seals yearly." in hit and "primed" not in hit
        listed = call(s, "/api/attachments")[1]["attachments"]["old.mdcx"]
        assert [a["document"] for a in listed] == ["@/certs/cert.md"]


def test_cards_from_headers_odd_and_meaningful() -> None:
    from mdcx.format import Header
    from mdcx.format._card import card

    fields = {
        "issuer": "Acme",
        "documents": 3,
        "attachments": 1,
        "passages": 9,
        "language": "fr",
        "language_share": 0.8,
        "dated_documents": [2, 3],
        "dated_range": ["2020-01-01", "2021-12-31"],
        "conversion": {"coverage": 0.99871, "measured": 2, "partial": 1, "unverifiable": 1, "ocr_pages": 4},
        "calibration": {"answerable_at": 0.4, "source": "focus"},
        "embedding": {"model": "BAAI/bge-m3", "dimension": 1024},
        "features": ["lexical", "vectors"],
        "signing": {"public_key": "ab" * 32},
    }
    rows = dict(card(Header("x/a.mdcx", "mdcx2", fields, 2048)))
    assert rows["file"] == "a.mdcx, 2.0 KB"
    assert rows["contents"] == "3 documents and 1 attachment; 9 passages"
    assert rows["language"] == "mostly French (80% of the text)"
    assert rows["dates"] == "2 of 3 documents dated, from 2020-01-01 to 2021-12-31"
    assert rows["conversion"].startswith(
        "99.87% of the originals' words found in the Markdown; 3 documents measured"
    )
    assert "1 unverifiable" in rows["conversion"] and "4 pages read by OCR" in rows["conversion"]
    assert rows["calibration"].startswith("answers when a passage holds 40%")
    assert rows["meaning"] == "passages encoded by BAAI/bge-m3 (1024 dimensions)"
    assert rows["signature"].startswith("signed with Ed25519 key " + "ab" * 32)
    # A header is readable without the key, so anyone could have written it: odd values never break the card.
    odd = {k: ["x"] if not isinstance(v, list) else [{"a": 1}, None] for k, v in fields.items()}
    odd["signing"] = {"public_key": None}
    assert all(isinstance(v, str) for _, v in card(Header("b.mdcx", "mdcx2", odd, 1)))
    assert all(isinstance(v, str) for _, v in card(Header("c.mdcx", "legacy", odd, 1)))
