"""What if a step were missing, drawn on the bench: ghost needles, the stopcocks the missing
mask would open, a second core sample and a note in words (the drawing's what-if parts)."""

from __future__ import annotations

import unicodedata

import numpy as np

from . import whatif
from .bench_drawing import (DIAL_SPAN, TRAY_HEIGHT, WIDTH, Layout, dial_angle, handle, plain,
                            stack_strata, strata_bottom)
from .catalog import say

__all__ = ["GHOST_PAST", "NOTE_CHARS", "whatif_drawing"]

GHOST_TIP = 4  # the open circle at a ghost needle's tip ...
GHOST_PAST = 10  # ... which a needle off the dial's scale carries this far past the rim
SAMPLE_X = 194  # the counterfactual core sample's strata, left of the tray (which is at 336)
SAMPLE_DROP = 12  # ... and this much lower: the streams pass just above the tray's top
NOTE_CHARS = 42  # the note under the drawing wraps at this many characters (phone-sized text)
NOTE_TOP, NOTE_LINE = 34, 36  # the note's first baseline below the tray's bottom, line pitch


_NO_LINE_START = set("，。、：；！？）》」”’…")  # Chinese punctuation stays with what is before it
_NO_LINE_END = set("（《「“‘")  # ... and an opening mark with what follows it


def _wide(ch: str) -> bool:
    """Whether a character is wide (Chinese): it takes two widths, and a line may break beside it."""
    return unicodedata.east_asian_width(ch) in "WF"


def _columns(text: str) -> int:
    """How many character widths text takes: a wide (Chinese) character takes two.

    >>> _columns("the"), _columns("注意力")
    (3, 6)
    """
    return sum(2 if _wide(ch) else 1 for ch in text)


def _pieces(text: str) -> list[tuple[str, str]]:
    """Split text where a line may break, as (what joins it to the piece before, the piece):
    at spaces (" ", a word), and in Chinese, written without spaces, beside a Chinese
    character ("", a character with any punctuation that may not start a line).

    >>> _pieces("one two"), _pieces("虚线：这行 q·k")
    ([('', 'one'), (' ', 'two')], [('', '虚'), ('', '线：'), ('', '这'), ('', '行'), (' ', 'q·k')])
    """
    out: list[tuple[str, str]] = []
    for word in text.split():
        for k, ch in enumerate(word):
            prev = word[k - 1] if k else ""
            if k == 0 or ((_wide(prev) or _wide(ch)) and ch not in _NO_LINE_START
                          and prev not in _NO_LINE_END):
                out.append((" " if k == 0 and out else "", ch))
            else:
                out[-1] = (out[-1][0], out[-1][1] + ch)
    return out


def _wrap(text: str, width: int = NOTE_CHARS) -> list[str]:
    """Break a note into as few lines of at most ``width`` characters as it needs, at spaces
    (or between two Chinese characters, which count two each), and make them about equally
    long (no word left alone on the last line).

    >>> _wrap("eᶻ overflows: 1.8×10³⁰⁸ is the largest double; the naive weights are undefined.")
    ['eᶻ overflows: 1.8×10³⁰⁸ is the largest', 'double; the naive weights are undefined.']
    >>> _wrap("one two three four", 14)
    ['one two', 'three four']
    >>> _wrap("虚线：这一行去掉因果掩码时的结果。", 20)
    ['虚线：这一行去掉因', '果掩码时的结果。']
    """
    pieces = _pieces(text)

    def greedy(w: int) -> list[str]:
        lines: list[str] = []
        for glue, piece in pieces:
            if lines and _columns(lines[-1] + glue + piece) <= w:
                lines[-1] += glue + piece
            else:
                lines.append(piece)
        return lines

    best = greedy(width)
    for w in range(width - 1, 0, -1):  # the narrowest width that needs no more lines
        lines = greedy(w)
        if len(lines) > len(best) or max(map(_columns, lines)) > w:
            break
        best = lines
    return best


def _ghosts(keys: list[dict], dials: list[dict], needle: float) -> list[dict]:
    """One ghost needle per key the counterfactual lets through, on the real dial's scale.

    A real needle leans by its softmax input z below the best open key's, flat at DIAL_SPAN. A
    ghost leans by its counterfactual softmax input below the best key it may use, on that
    same scale (so without ÷√d_k it leans √d_k times as far); one at or past flat is ``off``
    the scale, and its tip is drawn past the dial's rim. With the same input it stands
    exactly where the real needle does.
    """
    z = [k["z"]["value"] for k in keys]
    top = max(z[k["index"]] for k in keys if k["open"])
    out = []
    for k in keys:
        if k["open"]:
            j, gap = k["index"], top - z[k["index"]]
            off = bool(gap >= DIAL_SPAN)
            out.append({"index": j, "x": dials[j]["x"], "y": dials[j]["y"],
                        "angle": plain(dial_angle(gap)), "off": off,
                        "end": plain(-(needle + GHOST_PAST) if off else -needle)})
    return out


def _whatif_note(w: dict, ghosts: list[dict], dials: list[dict],
                 opened: int) -> list[tuple[str, bool]]:
    """Say in words what the dashed parts show, and, when the naive softmax fails, that it
    does (the drawing then has no weights to show): lines of (text, is the failure), each
    sentence starting a line.

    Without the max-shift alone every dashed needle lies on its real one (the shift changes
    no gap between the scores), so the note names only the sample, and says why."""
    title = w["title"][:1].lower() + w["title"][1:]
    needles_move = bool({"scale", "mask"} & set(w["without"]))
    cf = w["counterfactual"]
    # a row that comes out the same needs no count of flat needles (review 4: seven lines
    # under two identical trays for "she" without the causal mask); it says so instead
    same = not cf["failure"] and all(
        abs(k["counterfactual"]["value"] - k["real"]["value"]) < whatif.CHANGED for k in w["keys"])
    sentences = [say("bench-whatif.dashed", title=title)]
    if needles_move:
        sentences.append(say("bench-whatif.needles"))
    if opened:
        sentences.append(say("bench-whatif.handles", count=opened))
    sentences.append(say("bench-whatif.tray"))
    if same and needles_move:
        sentences.append(say("bench-whatif.same"))
    if not cf["failure"] and not (same and needles_move):  # (with no weights, or the same
        # weights, what the dashed needles do matters less; the max-shift's say why they stay)
        sentences.append(_needles_said(needles_move, ghosts, dials))
    lines = [(line, False) for x in sentences for line in _wrap(x)]
    if cf["failure"]:
        lines += [(line, True) for line in _wrap(say("bench-whatif.failure", message=cf["message"]))]
    return lines


def _needles_said(needles_move: bool, ghosts: list[dict], dials: list[dict]) -> str:
    """What the dashed needles do: nothing (the max-shift alone), or how many lie flat (their
    key would get almost nothing), and of those how many lie flat where the real needle does
    not: every flat dashed needle is counted, as the reader sees them all.

    >>> _needles_said(True, [{"index": 0, "off": True}, {"index": 1, "off": True}],
    ...               [{"pinned": True}, {"pinned": False}])
    '2 dashed needles lie flat (red tip), 1 where no real needle does: those keys would get almost nothing.'
    >>> _needles_said(True, [{"index": 0, "off": True}], [{"pinned": True}])
    '1 dashed needle lies flat (red tip), as the real one does: that key gets almost nothing either way.'
    """
    if not needles_move:
        return say("bench-whatif.stay")
    flat = sum(g["off"] for g in ghosts)
    newly = sum(g["off"] and not dials[g["index"]]["pinned"] for g in ghosts)
    if not flat:
        return say("bench-whatif.none-flat")
    said = say("bench-whatif.flat", count=flat)
    if newly == flat:
        return say("bench-whatif.flat-new", flat=said, count=flat)
    if not newly:
        return say("bench-whatif.flat-also", flat=said, count=flat)
    return say("bench-whatif.flat-some", flat=said, count=newly)


def whatif_drawing(w: dict, drawing: dict, lay: Layout, t: float) -> dict:
    """Return the drawing's additions when steps are removed: a taller ``viewbox`` (room for
    the note) and ``whatif``.

    ``whatif``: ``{"tip": radius, "ghosts": [{"index", "x", "y", "angle", "off", "end"}]``
    (one per key the counterfactual lets through; ``off``: at or past flat, off the scale;
    ``end``: the upright needle's tip y, past the rim when off), ``"valves": [{"index",
    "x", "y", "handle"}]`` (the stopcocks it opens, each with its open handle), ``"sample":
    {"tray": {"x", "y", "width", "height"}, "x", "width", "label_x", "strata": [stratum]}``
    (the counterfactual core sample; as ``strata``, plus ``word`` and ``number``; empty when
    the naive softmax fails), ``"failure": str | None``, ``"note": [{"text", "x", "y",
    "failure"}]}`` (lines of text under the tray, and in the empty sample when the naive
    softmax fails).
    """
    keys = w["keys"]
    ghosts = _ghosts(keys, drawing["dials"], drawing["needle"])
    valves = [{"index": v["index"], "x": v["x"], "y": v["y"], "handle": handle(True)}
              for v, k in zip(drawing["valves"], keys) if k["open"] and not v["open"]]
    failure = w["counterfactual"]["failure"]
    low = lay._replace(tray=lay.tray + SAMPLE_DROP)  # the sample's tray: lower than the real one
    strata = [] if failure else [
        {**s, "word": k["word"], "number": k["counterfactual"]["text"]}
        for s, k in zip(stack_strata([k["word"] for k in keys],  # named as the drawing names them
                                np.array([k["counterfactual"]["value"] for k in keys]), low), keys)]
    lines = _whatif_note(w, ghosts, drawing["dials"], len(valves))
    bottom = plain(round(max(lay.height, strata_bottom(strata)) + NOTE_TOP, 3))  # labels may run lower
    height = bottom + (len(lines) - 1) * NOTE_LINE + 16
    sample = {"tray": {"x": SAMPLE_X - 4, "y": low.tray, "width": drawing["stratum"]["width"] + 8,
                       "height": TRAY_HEIGHT + 8},
              "x": SAMPLE_X, "width": drawing["stratum"]["width"], "label_x": SAMPLE_X - 12,
              "strata": strata}
    note = [{"text": line, "x": WIDTH // 2, "y": bottom + k * NOTE_LINE, "failure": bad}
            for k, (line, bad) in enumerate(lines)]
    if failure:  # the empty sample says why it is empty
        mid = plain(SAMPLE_X + drawing["stratum"]["width"] / 2)
        note += [{"text": text, "x": mid, "y": plain(low.tray + TRAY_HEIGHT / 2 + dy),
                  "failure": True} for text, dy in zip(whatif.no_weights().split(), (-6, 30))]
    return {"viewbox": f"0 0 {WIDTH} {height}",
            "whatif": {"tip": GHOST_TIP, "ghosts": ghosts,
                       "valves": valves, "sample": sample, "failure": failure, "note": note}}
