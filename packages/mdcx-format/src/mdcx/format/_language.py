"""Which language a text (or a corpus) is mostly written in.

Used to describe a corpus (``info``, the "none of these words" warning) and to
tell a question written in another language (``unfamiliar``); never to filter
results.  The script of the letters decides first (a text in Thai letters is
Thai); within a script shared by several languages, the share of each
language's commonest function words decides.  Too little evidence gives
``None`` rather than a guess.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

# Scripts that (nearly) identify one language, by Unicode block.
_SCRIPT_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0x0370, 0x03FF, "el"),
    (0x1F00, 0x1FFF, "el"),
    (0x0530, 0x058F, "hy"),
    (0x0590, 0x05FF, "he"),
    (0x0980, 0x09FF, "bn"),
    (0x0A00, 0x0A7F, "pa"),
    (0x0A80, 0x0AFF, "gu"),
    (0x0B00, 0x0B7F, "or"),
    (0x0B80, 0x0BFF, "ta"),
    (0x0C00, 0x0C7F, "te"),
    (0x0C80, 0x0CFF, "kn"),
    (0x0D00, 0x0D7F, "ml"),
    (0x0D80, 0x0DFF, "si"),
    (0x0E00, 0x0E7F, "th"),
    (0x0E80, 0x0EFF, "lo"),
    (0x0F00, 0x0FFF, "bo"),
    (0x1000, 0x109F, "my"),
    (0x10A0, 0x10FF, "ka"),
    (0x1200, 0x139F, "am"),
    (0x1780, 0x17FF, "km"),
    (0x1100, 0x11FF, "ko"),
    (0x3130, 0x318F, "ko"),
    (0xAC00, 0xD7AF, "ko"),
    (0x3040, 0x30FF, "ja"),
    (0xA980, 0xA9DF, "jv"),
)
_SHARED_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0x0041, 0x024F, "latin"),
    (0x1E00, 0x1EFF, "latin"),
    (0x0400, 0x052F, "cyrillic"),
    (0x0600, 0x06FF, "arabic"),
    (0x0750, 0x077F, "arabic"),
    (0xFB50, 0xFDFF, "arabic"),
    (0xFE70, 0xFEFF, "arabic"),
    (0x0900, 0x097F, "devanagari"),
    (0x3400, 0x4DBF, "han"),
    (0x4E00, 0x9FFF, "han"),
    (0xF900, 0xFAFF, "han"),
    (0x20000, 0x323AF, "han"),
)

# The commonest function words of languages that share a script.
FUNCTION_WORDS: dict[str, dict[str, str]] = {
    "latin": {
        "en": "the of and to in is that for it was with as on be by this are not or from at which have an but",
        "fr": "le la les de des du et est un une en que qui dans pour pas sur au avec ce il elle sont par",
        "es": "el la los las de del y que en un una es por con para no se su al lo como más pero",
        "pt": "o a os as de do da dos das e que em um uma é para com não por se na no ao mais",
        "it": "il lo la gli le di del della e che in un una è per con non si da al sono ma anche",
        "de": "der die das den dem des und ist nicht ein eine zu mit von auf für sich im auch es dass",
        "nl": "de het een en van in is dat op te zijn met voor niet aan er maar ook als door bij",
        "sv": "och att det som en är på för med av den till inte har om ett de var jag men",
        "da": "og at det som en er på for med af den til ikke har om et de var jeg men",
        "no": "og at det som en er på for med av den til ikke har om et de var jeg men",
        "fi": "ja on ei se että oli kun myös mutta tai ovat hän niin jos kanssa sekä kuin",
        "pl": "i w na z że się nie do to jest o jak po co ale od za przez dla tak",
        "cs": "a v na se je že to s z do o k ve pro jako jsou by ale po od",
        "sk": "a v na sa je že to s z do o k vo pre ako sú by ale po od",
        "hu": "a az és hogy nem is egy meg van volt de csak már el ha mint még",
        "ro": "și de la în a cu pe că nu o un este care din pentru se mai sau",
        "tr": "ve bir bu da de için ile olarak gibi daha çok ne kadar olan sonra ama",
        "id": "yang dan di ke dari ini itu dengan untuk pada tidak dalam adalah akan juga",
        "vi": "và của là có không được các những cho một trong người này với đã",
        "ca": "el la els les de del i que en un una és per amb no es al com",
        "hr": "i u je se na da za od su kao s ne to iz ali su bi",
        "sl": "in je v se na da za so z ki pa ne to iz bi",
        "et": "ja on ei see et oli kui ka aga või nad ta nii",
        "lt": "ir yra kad į su iš o bet kaip tai jis ji",
        "lv": "un ir ka uz ar no bet kā tas viņš viņa",
        "sw": "na ya wa kwa katika ni la za kuwa hiyo hii",
    },
    "cyrillic": {
        "ru": "и в не на что с по это как он но из за она от же для мы все",
        "uk": "і в не на що з по це як він але із за вона від же для ми та",
        "bg": "и в не на че с по това като той но от за тя е да се са",
        "sr": "и у не на да се је су за од као то из али који",
        "mk": "и во не на дека се е со од за како тоа што ги",
    },
    "arabic": {
        "ar": "في من على إلى أن التي الذي عن مع هذا هذه كان وقد لا ما",
        "fa": "و در به از که این را با است برای آن یک می شود تا",
        "ur": "کے میں کی ہے اور کو سے نے کا یہ ہیں تھا کہ پر",
    },
    "devanagari": {
        "hi": "के है में की और से को का एक यह पर भी हैं था लिए",
        "mr": "आणि आहे या च्या त्या की हे व ला होते आहेत",
        "ne": "र छ को मा गर्न पनि यो छन् लागि गरेको थियो",
    },
}


@lru_cache(maxsize=1)
def _word_languages() -> dict[str, dict[str, tuple[str, ...]]]:
    """script -> function word (cut and folded as the index cuts it) -> languages using it."""
    from ._tokenize import tokenize

    table: dict[str, dict[str, tuple[str, ...]]] = {}
    for script, langs in FUNCTION_WORDS.items():
        words: dict[str, tuple[str, ...]] = {}
        for lang, listed in langs.items():
            for word in tokenize(listed):
                words[word] = (*words.get(word, ()), lang)
        table[script] = words
    return table


NAMES = {
    "en": "English",
    "fr": "French",
    "es": "Spanish",
    "pt": "Portuguese",
    "it": "Italian",
    "de": "German",
    "nl": "Dutch",
    "sv": "Swedish",
    "da": "Danish",
    "no": "Norwegian",
    "fi": "Finnish",
    "pl": "Polish",
    "cs": "Czech",
    "sk": "Slovak",
    "hu": "Hungarian",
    "ro": "Romanian",
    "tr": "Turkish",
    "id": "Indonesian",
    "vi": "Vietnamese",
    "ca": "Catalan",
    "hr": "Croatian",
    "sl": "Slovenian",
    "et": "Estonian",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "sw": "Swahili",
    "ru": "Russian",
    "uk": "Ukrainian",
    "bg": "Bulgarian",
    "sr": "Serbian",
    "mk": "Macedonian",
    "ar": "Arabic",
    "fa": "Persian",
    "ur": "Urdu",
    "hi": "Hindi",
    "mr": "Marathi",
    "ne": "Nepali",
    "el": "Greek",
    "hy": "Armenian",
    "he": "Hebrew",
    "bn": "Bengali",
    "pa": "Punjabi",
    "gu": "Gujarati",
    "or": "Odia",
    "ta": "Tamil",
    "te": "Telugu",
    "kn": "Kannada",
    "ml": "Malayalam",
    "si": "Sinhala",
    "th": "Thai",
    "lo": "Lao",
    "bo": "Tibetan",
    "my": "Burmese",
    "ka": "Georgian",
    "am": "Amharic",
    "km": "Khmer",
    "ko": "Korean",
    "ja": "Japanese",
    "zh": "Chinese",
    "jv": "Javanese",
}


@dataclass(frozen=True)
class Language:
    code: str | None  # ISO 639-1, or None when the evidence is too thin
    share: float  # of the letters (script) or function words (within a script) that point to it

    @property
    def name(self) -> str | None:
        return NAMES.get(self.code, self.code) if self.code else None


def _script_of(ch: str) -> str | None:
    cp = ord(ch)
    for lo, hi, lang in _SCRIPT_BLOCKS:
        if lo <= cp <= hi:
            return lang
    for lo, hi, script in _SHARED_BLOCKS:
        if lo <= cp <= hi:
            return script
    return None


def scripts(text: str, *, limit: int = 4000) -> Counter[str]:
    """Letters per script (or per language, for single-language scripts), over a sample."""
    counts: Counter[str] = Counter()
    # Count each distinct character once, then look its script up once: a
    # text repeats few characters, and the block table is walked in Python.
    for ch, n in Counter(text[:limit]).items():
        if ch.isalpha():
            script = _script_of(ch)
            if script:
                counts[script] += n
    return counts


def detect(text: str, words: Iterable[str] | None = None) -> Language:
    """The language of ``text``; ``words`` are its tokens if already cut."""
    counts = scripts(text)
    total = sum(counts.values())
    if total < 3:
        return Language(None, 0.0)
    script, letters = counts.most_common(1)[0]
    share = letters / total
    if script == "han":
        return Language("ja" if counts.get("ja", 0) > 0.05 * total else "zh", share)
    if script == "ja":
        return Language("ja", (letters + counts.get("han", 0)) / total)
    if script not in FUNCTION_WORDS:
        return Language(script, share)
    if words is None:
        from ._tokenize import tokenize

        words = tokenize(text[:20000])
    lookup = _word_languages()[script]
    votes: Counter[str] = Counter()
    hits = 0
    for word in words:
        langs = lookup.get(word)
        if langs:
            hits += 1
            for lang in langs:
                votes[lang] += 1 / len(langs)
    if hits < 2:
        return Language(None, 0.0)
    lang, score = votes.most_common(1)[0]
    return Language(lang, round(score / hits, 3))


def predominant(samples: Iterable[tuple[str, list[str]]]) -> tuple[Language, dict[str, float]]:
    """The corpus language from sampled passages ``(text, tokens)``, weighted by length."""
    weight: Counter[str] = Counter()
    for text, tokens in samples:
        lang = detect(text, tokens)
        if lang.code:
            weight[lang.code] += len(tokens)
    total = sum(weight.values())
    if not total:
        return Language(None, 0.0), {}
    shares = {k: round(v / total, 3) for k, v in weight.most_common(6)}
    code, share = next(iter(shares.items()))
    return Language(code, share), shares


# Languages written in a script they share with others -> the script's name.
_SCRIPT_OF = {code: script for script, langs in FUNCTION_WORDS.items() for code in langs} | {"zh": "han"}


def written_apart(text: str, corpus: set[str]) -> bool:
    """Whether ``text`` is written in a language none of ``corpus`` (codes) is.

    When the text's language cannot be told (a few words without function
    words), its script decides: Latin letters are apart from a Japanese
    corpus, though not from an English one.
    """
    if not corpus:
        return False
    asked = detect(text).code
    if asked is not None:
        return asked not in corpus
    counts = scripts(text)
    if not counts:
        return False
    main = counts.most_common(1)[0][0]
    return all(main not in (code, _SCRIPT_OF.get(code, code)) for code in corpus)
