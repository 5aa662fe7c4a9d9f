"""The collections the MCP server's tests pack: a laboratory's papers and an archive of letters."""

from __future__ import annotations

import json


def manual() -> str:
    """A long document (about 120,000 characters) with page markers: it takes several pages to read."""
    parts = ["---\ntitle: Laboratory manual\ndate: 2019-02-01\n---\n"]
    for page in range(1, 61):
        parts.append(f"<!-- page: {page} -->\n## Procedure {page}\n\n")
        parts.append(
            " ".join(
                f"Step {page}.{step}: rinse the flask {step} times and record the centrifuge speed."
                for step in range(1, 26)
            )
            + "\n\n"
        )
    return "".join(parts)


RUN_SUMMARY = {"documents": 4, "converted": 4, "failed": 0, "unverifiable": 0, "coverage": 0.9987}

LAB = {
    # What mdcx-convert leaves beside its Markdown: pack copies the summary into the header.
    "_mdcx/run.json": json.dumps({"summary": RUN_SUMMARY, "documents": []}),
    "reports/storage.md": (
        "---\ntitle: Storage of reagents\ndate: 2021-05-03\n---\n"
        "<!-- page: 1 -->\n# Storage\n\nThe storage temperature for the reagents is 4 degrees Celsius.\n\n"
        "<!-- page: 2 -->\n## Handling\n\nKeep the reagents away from light and heat.\n"
    ),
    "reports/network.md": "# Networks\n\nA 5G network reaches AI devices; pH sensors report over it.\n",
    "appendix/coordinates.md": (
        "---\nindexed: false\ntitle: Coordinates\n---\n| x | y |\n|---|---|\n| 1 | 2 |\n"
    ),
    "manual.md": manual(),
    **{
        f"notes/note-{i:02}.md": f"# Note {i}\n\n"
        + " ".join(["Reagents were logged."] * (1 + i % 7))
        + f" Batch {i} of the glassware inventory.\n"
        for i in range(30)
    },
}

ARCHIVE = {
    "received/2020-letter.md": "Dear colleague, the invoice for the reagents is attached.\n",
    "sent/2020-reply.md": "Thank you, the invoice was paid in March.\n",
    "zeppelins.md": "# Airships\n\nThe zeppelin hangar stored hydrogen cylinders next to the reagents.\n",
}
