"""The SQLite database inside a package.

Readers check which tables exist before using them, so a package written
before a table was introduced still opens and answers.
"""

from __future__ import annotations

import json
from typing import Any

import apsw

SCHEMA_VERSION = 1
PAGE_SIZE = 16384

DDL = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

-- One row per file of the collection.  Indexed documents own the passage
-- range [first_passage, first_passage + passages); their text is those
-- passages, concatenated.  Attachments keep their body here instead.
CREATE TABLE document(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    title TEXT,
    dated TEXT,
    dated_from TEXT,
    direction TEXT,
    attachment INTEGER NOT NULL DEFAULT 0,
    first_passage INTEGER,
    passages INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL
);

-- What export needs to rebuild the file exactly, kept apart so that ranking
-- never reads it.
CREATE TABLE document_source(
    id INTEGER PRIMARY KEY,
    encoding TEXT NOT NULL,
    front_matter TEXT NOT NULL,
    record TEXT,  -- catalogue fields of a .jsonl record (JSON), besides its text
    body TEXT
);

CREATE TABLE passage(
    id INTEGER PRIMARY KEY,
    document INTEGER NOT NULL,
    position INTEGER NOT NULL,
    page INTEGER,
    last_page INTEGER,
    heading TEXT,
    text TEXT NOT NULL
);

-- Lexical index: one row per term, postings in one row per term.
CREATE TABLE term(term TEXT PRIMARY KEY, id INTEGER NOT NULL, df INTEGER NOT NULL, cf INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE posting(id INTEGER PRIMARY KEY, ids BLOB NOT NULL, tfs BLOB NOT NULL);
-- Frequent terms: their highest-scoring postings, best first (bounds query work).
CREATE TABLE posting_top(id INTEGER PRIMARY KEY, ids BLOB NOT NULL, tfs BLOB NOT NULL);

-- Exact expressions (--expressions): tokens mixing letters and symbols.
CREATE TABLE expression(expr TEXT NOT NULL, passage INTEGER NOT NULL);

-- Arrays read whole: document boundaries by passage id, passage length buckets.
CREATE TABLE layout(name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
"""


EXPRESSION_INDEX = "CREATE INDEX expression_by_expr ON expression(expr, passage)"
SHAPE_TABLE = "CREATE TABLE IF NOT EXISTS term_shape(shape TEXT NOT NULL, term TEXT NOT NULL, PRIMARY KEY(shape, term)) WITHOUT ROWID"


def script(con: apsw.Connection, sql: str) -> None:
    """Run every statement of ``sql``.

    apsw's ``execute`` runs statements lazily and stops at the first one that
    returns rows (``PRAGMA journal_mode`` does), so always drain the cursor.
    """
    for _ in con.execute(sql):
        pass


def create(con: apsw.Connection) -> None:
    script(con, DDL)
    set_meta(con, "schema_version", SCHEMA_VERSION)


def set_meta(con: apsw.Connection, key: str, value: Any) -> None:
    con.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, json.dumps(value, ensure_ascii=False))
    )


def read_meta(con: apsw.Connection) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key, value in con.execute("SELECT key, value FROM meta"):
        try:
            meta[key] = json.loads(value)
        except (TypeError, ValueError):
            meta[key] = value
    return meta


def tables(con: apsw.Connection) -> set[str]:
    return {name for (name,) in con.execute("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')")}
