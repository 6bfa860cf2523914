#!/usr/bin/env python3
"""`go tool pprof -raw FILE` on stdin -> folded stacks on stdout.

    go tool pprof -symbolize=none -raw FILE | tests/pprof_raw.py [TYPE]

What pprof itself read from the file, as the folded lines flamekit's
collapse prints: one "frame;...;leaf VALUE" line per stack (its samples
summed), root first, sorted by bytes. TYPE picks the value column by its
type name ("samples", "cpu", ...); the default is the last, as pprof shows.
A location of several lines (inlined functions) is several frames, the
outermost first, the inlined ones ending "_[i]" as flamekit marks them.
Exits 1 with a message when the text is not what -raw prints.
"""
import re
import sys


def main():
    text = sys.stdin.read().split("\n")
    try:
        at = text.index("Samples:")
        loc_at = text.index("Locations")
    except ValueError:
        sys.exit("pprof_raw.py: no Samples: or Locations section in the input")
    types = text[at + 1].split()
    column = len(types) - 1
    if len(sys.argv) > 1:
        names = [t.split("/")[0] for t in types]
        if sys.argv[1] not in names:
            sys.exit(f"pprof_raw.py: no sample type {sys.argv[1]} in {types}")
        column = names.index(sys.argv[1])

    samples = []
    sample_line = re.compile(r"^\s*((?:-?\d+\s+)*-?\d+):((?:\s+\d+)*)\s*$")
    for line in text[at + 2:loc_at]:
        m = sample_line.match(line)
        if m:
            values = [int(v) for v in m.group(1).split()]
            samples.append((values[column], [int(i) for i in m.group(2).split()]))

    # "     1: 0x4a8899 M=1 main.spin /tmp/main.go:13 s=0", then a line per
    # further (outer) line of the location: "             main.f x.go:3 s=0"
    locations = {}
    current = None
    location_line = re.compile(r"^\s*(\d+): (0x[0-9a-f]+)(?: M=\d+)?(?: (.*))?$")
    for line in text[loc_at + 1:]:
        if line.startswith("Mappings"):
            break
        m = location_line.match(line)
        if m:
            current = int(m.group(1))
            locations[current] = {"address": m.group(2), "lines": []}
            rest = m.group(3)
        elif current is not None and line.startswith(" "):
            rest = line.strip()
        else:
            continue
        if rest:
            rest = re.sub(r" s=\d+$", "", rest.strip())
            name = rest.rsplit(" ", 1)[0] if " " in rest else rest
            locations[current]["lines"].append(name)

    stacks = {}
    for value, ids in samples:
        frames = []
        for i in reversed(ids):
            location = locations[i]
            names = location["lines"] or [location["address"]]
            for k in range(len(names) - 1, -1, -1):
                name = names[k]
                if k < len(names) - 1 and not name.endswith("_[i]"):
                    name += "_[i]"
                frames.append(name.replace(";", ":"))
        key = ";".join(frames)
        stacks[key] = stacks.get(key, 0) + value
    out = sys.stdout.buffer
    for key in sorted(stacks, key=lambda s: s.encode()):
        if stacks[key]:
            out.write(f"{key} {stacks[key]}\n".encode())


main()
