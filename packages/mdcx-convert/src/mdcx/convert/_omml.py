"""Office Math (OMML) to LaTeX: fractions, scripts, radicals, n-ary operators,
delimiters, functions and matrices.  Symbols stay as written (π stays π), so
the words of an equation still match the document's own text."""

from __future__ import annotations

M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_NARY = {
    "∑": "\\sum",
    "∏": "\\prod",
    "∫": "\\int",
    "∬": "\\iint",
    "∭": "\\iiint",
    "∮": "\\oint",
    "⋃": "\\bigcup",
    "⋂": "\\bigcap",
}
_FUNCTIONS = {
    "sin",
    "cos",
    "tan",
    "cot",
    "sec",
    "csc",
    "log",
    "ln",
    "exp",
    "lim",
    "max",
    "min",
    "sinh",
    "cosh",
    "tanh",
    "det",
}
MAX_DEPTH = 200


def _val(el, path: str, default: str | None = None) -> str | None:
    found = el.find(path)
    if found is None:
        return default
    return found.get(M + "val", default)


def _child(el, name: str):
    return el.find(M + name)


def latex(el, depth: int = 0) -> str:
    """LaTeX for an OMML element (``m:oMath`` or any part of one)."""
    if el is None:
        return ""
    if depth > MAX_DEPTH:
        return "".join(t.text or "" for t in el.iter(M + "t"))
    tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) and el.tag.startswith(M) else ""

    def sub(name: str) -> str:
        return latex(_child(el, name), depth + 1)

    if tag == "r":  # runs are separate symbols: space keeps them apart, LaTeX ignores it
        text = "".join(t.text or "" for t in el.iter(M + "t"))
        return f" {text} " if text.strip() else text
    if tag == "f":
        return f"\\frac{{{sub('num')}}}{{{sub('den')}}}"
    if tag == "sSup":
        return f"{sub('e')}^{{{sub('sup')}}}"
    if tag == "sSub":
        return f"{sub('e')}_{{{sub('sub')}}}"
    if tag == "sSubSup":
        return f"{sub('e')}_{{{sub('sub')}}}^{{{sub('sup')}}}"
    if tag == "sPre":
        return f"{{}}_{{{sub('sub')}}}^{{{sub('sup')}}}{sub('e')}"
    if tag == "rad":
        degree = sub("deg")
        hidden = _val(el, f"{M}radPr/{M}degHide") in ("1", "on", "true")
        return f"\\sqrt[{degree}]{{{sub('e')}}}" if degree and not hidden else f"\\sqrt{{{sub('e')}}}"
    if tag == "nary":
        char = _val(el, f"{M}naryPr/{M}chr", "∫") or "∫"
        op = _NARY.get(char, char)
        lower, upper = sub("sub"), sub("sup")
        limits = (f"_{{{lower}}}" if lower else "") + (f"^{{{upper}}}" if upper else "")
        return f"{op}{limits} {sub('e')}"
    if tag == "d":
        begin = _val(el, f"{M}dPr/{M}begChr", "(")
        end = _val(el, f"{M}dPr/{M}endChr", ")")
        sep = _val(el, f"{M}dPr/{M}sepChr", "|") or "|"
        inner = sep.join(latex(e, depth + 1) for e in el.findall(M + "e"))
        return f"\\left{begin or '.'}{inner}\\right{end or '.'}"
    if tag == "func":
        name = sub("fName").strip()
        name = f"\\{name}" if name in _FUNCTIONS else name
        return f"{name}({sub('e')})" if name else sub("e")
    if tag in ("limLow", "limUpp"):
        mark = "_" if tag == "limLow" else "^"
        return f"{sub('e')}{mark}{{{sub('lim')}}}"
    if tag == "m":
        rows = [" & ".join(latex(e, depth + 1) for e in mr.findall(M + "e")) for mr in el.findall(M + "mr")]
        return "\\begin{matrix}" + " \\\\ ".join(rows) + "\\end{matrix}"
    if tag == "eqArr":
        return " \\\\ ".join(latex(e, depth + 1) for e in el.findall(M + "e"))
    if tag == "bar":
        return f"\\overline{{{sub('e')}}}"
    if tag == "acc":
        return f"\\hat{{{sub('e')}}}"
    # oMath, oMathPara, e, num, den, sub, sup, deg, fName, lim, box, borderBox, groupChr, ...
    parts = []
    for child in el:
        if isinstance(child.tag, str) and child.tag.endswith("Pr"):
            continue
        parts.append(latex(child, depth + 1))
    return "".join(parts)
