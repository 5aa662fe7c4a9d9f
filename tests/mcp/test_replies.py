"""Replies sized for agents: pages that fit the budget, cursors that continue the same ranking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.format import FAST_KDF, KEY, write
from helpers.mcp import Packages, reply
from mcp import Client
from mdcx.format import Package, PackOptions, QueryError, pack, search
from mdcx.mcp_server import REPLY_BYTES, Config, Service, create_server
from mdcx.mcp_server._service import MAX_DEPTH

pytestmark = pytest.mark.anyio


def service(path: Path, **kwargs) -> Service:
    return Service(Config((str(path),), (KEY,), idle_minutes=0), **kwargs)


def sent_bytes(data: dict) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def package(tmp_path: Path, name: str, docs: dict[str, str]) -> Path:
    for path, text in docs.items():
        write(tmp_path / f"src-{name}", path, text)
    target = tmp_path / f"{name}.mdcx"
    pack(tmp_path / f"src-{name}", target, KEY, PackOptions(kdf=FAST_KDF))
    return target


async def test_cursor_pages_through_the_same_ranking_as_one_search(packages: Packages) -> None:
    with Package(packages.lab, KEY) as pkg:
        whole = [d.document for d in search([pkg], "reagents logged", limit=100).documents]
    seen, ranks = [], []
    async with Client(create_server(service(packages.lab))) as client:
        cursor = None
        while True:
            args = {"question": "reagents logged", "limit": 7} | ({"cursor": cursor} if cursor else {})
            page = reply(await client.call_tool("search", args))
            seen += [d["document"] for d in page["documents"]]
            ranks += [d["rank"] for d in page["documents"]]
            cursor = page["next_cursor"]
            if cursor is None:
                break
    assert len(whole) > 20 and seen == whole
    assert ranks == list(range(1, len(whole) + 1))


def test_a_cursor_belongs_to_its_question(packages: Packages) -> None:
    svc = service(packages.lab)
    cursor = svc.search("reagents logged", limit=3)["next_cursor"]
    assert svc.search("reagents logged", limit=3, cursor=cursor)["documents"][0]["rank"] == 4
    for other in ({"question": "glassware"}, {"question": "reagents logged", "prefer": "recent"}):
        with pytest.raises(QueryError, match="continues another search"):
            svc.search(**{"limit": 3, "cursor": cursor, **other})
    with pytest.raises(QueryError, match="not one this server gave"):
        svc.search("reagents logged", cursor=cursor[:-3] + "!!!")


def test_paging_stops_at_the_depth_limit(tmp_path: Path) -> None:
    docs = {
        f"d{i:03}.md": f"# Doc {i}\n\nThe lighthouse keeper wrote entry {i}.\n" for i in range(MAX_DEPTH + 20)
    }
    svc = service(package(tmp_path, "many", docs))
    total, cursor = 0, None
    while True:
        page = svc.search("lighthouse keeper", limit=20, cursor=cursor)
        total += len(page["documents"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert total == MAX_DEPTH


def test_a_search_reply_stays_within_the_budget(tmp_path: Path) -> None:
    # Paragraphs with no sentence end are one passage each, some 6,000 characters long.
    long = " ".join(["the turbine blade inspection record lists corrosion and pitting"] * 90)
    docs = {
        f"r{i:02}.md": f"# Report {i}\n\n{long} {i}\n\n## More\n\n{long}\n\n## Again\n\n{long}\n"
        for i in range(25)
    }
    target = package(tmp_path, "long", docs)
    found = service(target).search("turbine corrosion pitting", limit=20)
    assert sent_bytes(found) <= REPLY_BYTES
    passages = [p for d in found["documents"] for p in d["passages"]]
    assert all(p["truncated"] and len(p["text"]) <= 1_202 for p in passages)
    assert "read them whole with the document tool" in found["note"]

    small = service(target, budget=8_000)
    first = small.search("turbine corrosion pitting", limit=20)
    assert sent_bytes(first) <= 8_000 and 1 <= len(first["documents"]) < 20
    assert f"only {len(first['documents'])} of the 20 documents" in first["note"]
    following = small.search("turbine corrosion pitting", limit=20, cursor=first["next_cursor"])
    assert following["documents"][0]["rank"] == len(first["documents"]) + 1


def test_a_huge_question_is_echoed_in_part(packages: Packages) -> None:
    question = " ".join(f"word{i}" for i in range(2_000))  # 17,889 characters: within the library's limit
    found = service(packages.lab).search(question)
    assert sent_bytes(found) <= REPLY_BYTES and len(found["query"]) <= 1_002
    assert len(found["unknown_terms"]["lab.mdcx"]) == 50 and found["note"] == "the question is echoed in part"


@pytest.mark.parametrize(
    "unit", ["A line of plain English text, about a fog signal. ", "霧笛の音は遠くまで届いた。"]
)
def test_document_pages_fit_the_budget_and_join_to_the_original(tmp_path: Path, unit: str) -> None:
    text = "# Log\n\n" + "\n".join(unit * 3 for _ in range(2_500))
    target = package(tmp_path, "log", {"log.md": text})
    svc = service(target, budget=20_000)
    pages, offset = [], 0
    while offset is not None:
        page = svc.document("@/log.md", offset=offset)
        assert sent_bytes(page) <= 20_000
        pages.append(page["text"])
        offset = page["next_offset"]
    assert "".join(pages) == text and len(pages) > 3
    with pytest.raises(QueryError, match="past the end"):
        svc.document("@/log.md", offset=len(text) + 1)


def test_prefer_recent_says_whether_it_could_apply(tmp_path: Path) -> None:
    dated = package(
        tmp_path,
        "dated",
        {
            # equal scores, and the older first by path: only the dates can reorder them
            "a-old.md": "---\ndate: 2019-03-01\n---\n# Old\n\nThe harbour light was serviced.\n",
            "b-new.md": "---\ndate: 2024-03-01\n---\n# New\n\nThe harbour light was serviced.\n",
        },
    )
    reply_ = service(dated).search("harbour light serviced", prefer="recent")
    assert reply_["prefer_applied"] is True
    assert [d["document"] for d in reply_["documents"]][:2] == ["@/b-new.md", "@/a-old.md"]
    undated = package(tmp_path, "undated", {"a.md": "# A\n\nThe harbour light was serviced.\n"})
    reply_ = service(undated).search("harbour light serviced", prefer="recent")
    assert reply_["prefer_applied"] is False
    assert reply_["documents"] and reply_.get("prefer_note")
