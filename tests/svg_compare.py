#!/usr/bin/env python3
"""Compares flame graph SVGs as the conformance README asks.

usage: svg_compare.py [--expect-notes TEXT] EXPECTED ACTUAL...

Both files are parsed as XML. What must match: the XML declaration's
encoding, the notes comment, the image size, the background gradient, the
font, the title/subtitle/details/unzoom/search/ignorecase/matched texts and
their positions, and the frames as a multiset (flamegraph.pl prints them in
Perl hash order): tooltip title, rect x/y/width/height/fill, label text and
position. Numbers compare within 0.1 px. The scripts are not compared:
flamekit's is its own.

flamegraph.pl writes --title and --subtitle into the SVG unescaped, so a
title such as 'Title & <x>' makes its file unreadable and '<b>T</b>' turns
into markup; flamekit writes them as text. So before parsing EXPECTED, the
text of those two elements is escaped, which changes nothing for titles
without & < >, and compares the text the user gave. --expect-notes replaces
the expected --notes text (for a case where flamegraph.pl printed nothing).

Prints the first differences and exits 1 when a file differs, 2 when one
cannot be read.
"""
import gzip
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TOLERANCE = 0.1 + 1e-9
HEADER_TEXTS = ("title", "subtitle", "details", "unzoom", "search", "ignorecase", "matched")


def read_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def text_of(element):
    return "".join(element.itertext()) if element is not None else None


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def escape_titles(data):
    def escape(match):
        text = match.group(2).replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b">", b"&gt;")
        return match.group(1) + text + b"</text>\n"
    return re.sub(rb'(<text id="(?:title|subtitle)" [^>]*>)(.*)</text>\n', escape, data)


def summarize(path, perl_reference=False):
    data = read_bytes(path)
    if perl_reference:
        data = escape_titles(data)
    root = ET.fromstring(data)
    declaration = re.match(rb'<\?xml version="1.0"( encoding="([^"]*)")? standalone="no"\?>', data)
    notes = re.search(rb"<!-- NOTES: (.*?) -->", data, re.S)
    style = "".join(e.text or "" for e in root.iter(SVG + "style"))
    font = re.search(r"text \{ font-family:(.*?); font-size:(.*?)px;", style)
    header = {
        "encoding": declaration.group(2) if declaration else "<no declaration>",
        "notes": notes.group(1) if notes else None,
        "width": number(root.get("width")),
        "height": number(root.get("height")),
        "viewBox": root.get("viewBox"),
        "font": (font.group(1), number(font.group(2))) if font else None,
        "gradient": tuple(s.get("stop-color") for s in root.iter(SVG + "stop")),
    }
    texts = {}
    for t in root.iter(SVG + "text"):
        if t.get("id") in HEADER_TEXTS:
            texts[t.get("id")] = (text_of(t), number(t.get("x")), number(t.get("y")), t.get("class"))
    if not texts:  # the "no valid input" SVG: one anonymous text
        for t in root.iter(SVG + "text"):
            texts["message"] = (text_of(t), number(t.get("x")), number(t.get("y")), None)
    frames = []
    for group in root.iter(SVG + "g"):
        if group.get("id") != "frames":
            continue
        for frame in group:
            title = frame.find(SVG + "title")
            rect = frame.find(SVG + "rect")
            label = frame.find(SVG + "text")
            # an empty label has no position worth comparing (flamegraph.pl
            # writes an empty <text> for each frame too narrow for one,
            # flamekit none)
            label_text = text_of(label) or ""
            frames.append((
                text_of(title),
                number(rect.get("y")), number(rect.get("x")),
                number(rect.get("width")), number(rect.get("height")), rect.get("fill"),
                label_text,
                number(label.get("x")) if label_text else None,
                number(label.get("y")) if label_text else None,
            ))
    frames.sort(key=lambda f: tuple(str(v) if not isinstance(v, float) else "%020.3f" % v for v in f[:3]))
    return header, texts, frames


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= TOLERANCE
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def compare(expected, actual):
    problems = []
    (eh, et, ef), (ah, at, af) = expected, actual
    for key in eh:
        if not same(eh[key], ah.get(key)):
            problems.append("%s: expected %r, got %r" % (key, eh[key], ah.get(key)))
    for key in sorted(set(et) | set(at)):
        if not same(et.get(key), at.get(key)):
            problems.append("text #%s: expected %r, got %r" % (key, et.get(key), at.get(key)))
    if len(ef) != len(af):
        problems.append("expected %d frames, got %d" % (len(ef), len(af)))
    # pair frames by title and depth, then compare in x order
    for e, a in zip(ef, af):
        if not same(e, a):
            problems.append("frame: expected %r, got %r" % (e, a))
            if len(problems) > 6:
                break
    return problems


def main(argv):
    expect_notes = None
    if len(argv) > 2 and argv[1] == "--expect-notes":
        expect_notes = argv[2].encode()
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        expected = summarize(argv[1], perl_reference=True)
    except (OSError, ET.ParseError) as e:
        print("cannot read expected %s: %s" % (argv[1], e))
        return 2
    if expect_notes is not None:
        expected[0]["notes"] = expect_notes
    status = 0
    for path in argv[2:]:
        try:
            actual = summarize(path)
        except (OSError, ET.ParseError, AttributeError) as e:
            print("%s: not a readable SVG: %s" % (path, e))
            status = 1
            continue
        problems = compare(expected, actual)
        if problems:
            print("%s differs: %s" % (path, " | ".join(problems[:6])))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
