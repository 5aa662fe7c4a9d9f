"""A synthetic Markdown corpus with the shape of real prose, for benchmarks.

Words follow a Zipf distribution over a fixed vocabulary (the commonest are
English function words, the rest pronounceable made-up words), and each word
prefers a few followers (a bigram model), because real prose is not a bag of
independent words: without that, text compresses far worse than any real
collection.  The preference is set so that the text compresses like English
prose (zstd level 9 in 256 KiB blocks: about 0.36 here; NTREX English news
gives 0.37, Cranfield abstracts 0.25), so term statistics, compression and
index size behave like a real collection.
Documents have front matter, headings, paragraphs of varying length, a list,
sometimes a table, and page markers.  Everything is seeded: the same
arguments give the same bytes.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

FUNCTION_WORDS = [
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "they",
    "you",
    "were",
    "her",
    "she",
    "there",
    "one",
    "all",
    "their",
    "we",
    "can",
    "been",
    "has",
    "more",
    "if",
    "no",
    "would",
    "when",
    "will",
    "so",
    "what",
    "out",
    "up",
    "who",
    "about",
    "into",
    "than",
    "them",
    "only",
    "some",
    "could",
    "its",
    "other",
    "time",
    "these",
    "two",
    "may",
    "then",
    "do",
    "first",
    "any",
    "new",
    "like",
    "our",
    "over",
    "such",
    "also",
    "after",
    "most",
    "made",
    "through",
    "where",
    "years",
    "should",
    "between",
    "each",
    "well",
]

FOLLOW = 0.55  # chance that a word is one of its predecessor's favourite followers
FOLLOWERS = 24
_CONSONANTS = "bcdfghjklmnprstvwz"
_VOWELS = "aeiou"


def vocabulary(size: int = 60_000, seed: int = 7) -> list[str]:
    rnd = random.Random(seed)
    words = list(dict.fromkeys(FUNCTION_WORDS))
    seen = set(words)
    while len(words) < size:
        syllables = rnd.choice((1, 2, 2, 3, 3, 3, 4))
        word = "".join(
            rnd.choice(_CONSONANTS)
            + rnd.choice(_VOWELS)
            + (rnd.choice(_CONSONANTS) if rnd.random() < 0.3 else "")
            for _ in range(syllables)
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class Writer:
    def __init__(self, seed: int = 1, vocab_size: int = 60_000):
        self.rnd = random.Random(seed)
        self.vocab = vocabulary(vocab_size)
        weights = [1 / (rank + 1) ** 1.07 for rank in range(len(self.vocab))]
        self.cum = list(itertools.accumulate(weights))
        self._followers: dict[str, list[str]] = {}

    def words(self, n: int) -> list[str]:
        """``n`` words; each follows its predecessor's favourites with probability FOLLOW."""
        rnd = self.rnd
        fresh = rnd.choices(self.vocab, cum_weights=self.cum, k=n)
        out = []
        prev = None
        for word in fresh:
            if prev is not None and rnd.random() < FOLLOW:
                followers = self._followers.get(prev)
                if followers is None:
                    followers = self._followers[prev] = rnd.choices(
                        self.vocab, cum_weights=self.cum, k=FOLLOWERS
                    )
                word = followers[min(int(rnd.expovariate(0.35)), FOLLOWERS - 1)]
            out.append(word)
            prev = word
        return out

    def sentence(self) -> str:
        words = self.words(self.rnd.randint(6, 24))
        words[0] = words[0].capitalize()
        return " ".join(words) + self.rnd.choice(".....?!")

    def paragraph(self, n_words: int) -> str:
        out, count = [], 0
        while count < n_words:
            s = self.sentence()
            out.append(s)
            count += s.count(" ") + 1
        return " ".join(out)

    def document(self, index: int, words: int = 1000) -> str:
        rnd = self.rnd
        title = " ".join(self.words(rnd.randint(2, 6))).title()
        year = rnd.randint(1990, 2025)
        parts = [
            "---",
            f"title: {title}",
            f"date: {year}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}",
            f"source_digest: {rnd.getrandbits(128):032x}",
            "engine: synthetic",
            "---",
            "",
            f"# {title}",
            "",
        ]
        page, written, since_page = 1, 0, 0
        parts += [f"<!-- page: {page} -->", ""]
        while written < words:
            if rnd.random() < 0.15:
                parts += [f"## {' '.join(self.words(rnd.randint(2, 5))).capitalize()}", ""]
            kind = rnd.random()
            if kind < 0.08:
                items = [f"- {' '.join(self.words(rnd.randint(3, 10)))}" for _ in range(rnd.randint(2, 5))]
                parts += [*items, ""]
                written += sum(len(i.split()) for i in items)
            elif kind < 0.12:
                cols = rnd.randint(2, 4)
                rows = ["| " + " | ".join(self.words(cols)) + " |", "|" + "---|" * cols]
                rows += [
                    "| "
                    + " | ".join(
                        f"{rnd.randint(1, 9999)}" if rnd.random() < 0.5 else w for w in self.words(cols)
                    )
                    + " |"
                    for _ in range(rnd.randint(2, 6))
                ]
                parts += [*rows, ""]
                written += len(rows) * cols
            else:
                n = rnd.randint(40, 160)
                parts += [self.paragraph(n), ""]
                written += n
            since_page += 1
            if since_page >= 5:
                page += 1
                since_page = 0
                parts += [f"<!-- page: {page} -->", ""]
        return "\n".join(parts)


def write_corpus(folder: Path, documents: int, words: int = 1000, seed: int = 1) -> int:
    """Write ``documents`` files into ``folder`` (in subfolders of 500); returns bytes written."""
    writer = Writer(seed)
    total = 0
    for i in range(documents):
        sub = folder / f"part{i // 500:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        data = writer.document(i, words).encode("utf-8")
        (sub / f"doc{i:06d}.md").write_bytes(data)
        total += len(data)
    return total


def queries(folder: Path, count: int, seed: int = 3) -> dict[str, list[str]]:
    """``count`` questions of each kind over a written corpus: ``rare``, ``common`` and ``phrase``."""
    rnd = random.Random(seed)
    vocab = vocabulary()
    rare = [f"{rnd.choice(vocab[3000:40000])} {rnd.choice(vocab[3000:40000])}" for _ in range(count)]
    common = [
        " ".join([*rnd.sample(FUNCTION_WORDS[:60], 3), rnd.choice(vocab[200:3000])]) for _ in range(count)
    ]
    # Quoted phrases as people write them: two or three consecutive words of a
    # real passage that begin and end with a content word ("storage
    # temperature", "state of repair"), never with "of" or "the".
    files = sorted(folder.rglob("*.md"))
    function = set(FUNCTION_WORDS)
    phrases: list[str] = []
    while len(phrases) < count:
        text = rnd.choice(files).read_text(encoding="utf-8").split("\n\n")
        paragraph = rnd.choice([p for p in text if p and p[0].isalpha()] or ["x y z"])
        words = [w.strip(".,!?").lower() for w in paragraph.split()]
        for _ in range(20):
            if len(words) < 4:
                break
            at, n = rnd.randrange(len(words) - 3), rnd.choice((2, 3))
            span = words[at : at + n]
            if span[0] not in function and span[-1] not in function:
                phrases.append('"' + " ".join(span) + '"')
                break
    return {"rare": rare, "common": common, "phrase": phrases}
