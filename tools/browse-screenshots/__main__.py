"""The README's screenshots of ``mdcx browse``, made from the repository's examples.

    uv run python tools/browse-screenshots [--target docs]

Converts ``examples/documents`` with ``mdcx-convert``, packs it (signed) and
``examples/markdown`` into two packages, serves both, and has Debian's
headless Chromium (driven by Playwright) unlock them, type the README's
question and open the best passage.  Writes ``browse-search.png`` (the
results) and ``browse-reading.png`` (the reading view) into --target.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import chromium  # noqa: E402

KEY = "demo"
QUESTION = "which fog signal carried furthest"


def run(*cmd: str) -> None:
    env = {**os.environ, "MDCX_KEY": KEY}
    subprocess.run([sys.executable, "-m", *cmd], check=True, env=env, capture_output=True)


def main() -> int:
    ap = argparse.ArgumentParser(prog="tools/browse-screenshots", description=__doc__)
    ap.add_argument("--target", type=Path, default=ROOT / "docs")
    ap.add_argument("--chromium", default=chromium.find())
    args = ap.parse_args()
    if not args.chromium:
        raise SystemExit(chromium.MISSING)
    from mdcx.format import generate_keypair
    from mdcx.format._browse import BrowseServer
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        run("mdcx.convert", "--input", str(ROOT / "examples" / "documents"), "--output", str(work / "md"))
        signing = work / "signing.key"
        signing.write_text(generate_keypair().private_key + "\n")
        run(
            "mdcx.format", "pack", "--output", str(work / "md"), "--target", str(work / "point-aven.mdcx"),
            "--issuer", "Point Aven keepers", "--signing-key-file", str(signing), "--quiet",
        )  # fmt: skip
        run(
            "mdcx.format", "pack", "--output", str(ROOT / "examples" / "markdown"),
            "--target", str(work / "notes.mdcx"), "--quiet",
        )  # fmt: skip
        with (
            BrowseServer([work / "point-aven.mdcx", work / "notes.mdcx"]).start() as server,
            sync_playwright() as p,
        ):
            browser = p.chromium.launch(executable_path=args.chromium, args=chromium.FLAGS)
            page = browser.new_page(viewport={"width": 1100, "height": 860})
            page.goto(server.url)
            page.wait_for_selector("body[data-ready]", state="attached")
            page.fill("#key", KEY)
            page.click("#unlock button[type=submit]")
            page.wait_for_selector("#search-view:not([hidden])")
            page.locator("#q").press_sequentially(QUESTION, delay=20)
            page.wait_for_selector(f'body[data-searched="{QUESTION}"]', state="attached")
            page.mouse.move(0, 0)
            args.target.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.target / "browse-search.png"))
            page.locator(".result .passage .text").first.click()
            page.wait_for_selector("#reader:not([hidden])")
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(args.target / "browse-reading.png"))
            browser.close()
    for name in ("browse-search.png", "browse-reading.png"):
        print(f"wrote {args.target / name} ({(args.target / name).stat().st_size / 1000:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
