#!/usr/bin/env python3
"""Writes the malformed pprof files of tests/cases/pprof-malformed.sh into
the directory given: each a small profile.proto message, not gzipped, wrong
in one way its name says. A protobuf encoder of a few lines: varints,
length-delimited fields, nothing else (as profile.proto needs)."""
import os
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field(number, value):
    """A varint field for an int, a length-delimited one for bytes/str."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(number << 3 | 2) + varint(len(value)) + value


def message(*fields):
    return b"".join(fields)


def profile(samples=None, locations=None, functions=None, strings=None, types=None):
    strings = strings if strings is not None else ["", "samples", "count", "main", "work"]
    types = types if types is not None else [message(field(1, 1), field(2, 2))]
    functions = functions if functions is not None else [
        message(field(1, 1), field(2, 3)), message(field(1, 2), field(2, 4))]
    locations = locations if locations is not None else [
        message(field(1, 1), field(4, message(field(1, 1)))),
        message(field(1, 2), field(4, message(field(1, 2))))]
    samples = samples if samples is not None else [
        message(field(1, message(varint(2), varint(1))), field(2, message(varint(5))))]
    return message(*[field(1, t) for t in types], *[field(2, s) for s in samples],
                   *[field(4, l) for l in locations], *[field(5, f) for f in functions],
                   *[field(6, s) for s in strings])


def one_sample(ids, values):
    return [message(field(1, message(*map(varint, ids))), field(2, message(*map(varint, values))))]


files = {
    # the samples field as a varint, not a message
    "wrong-wire.pb": message(field(1, message(field(1, 1), field(2, 2))), varint(2 << 3) + varint(7)),
    "location-out-of-range.pb": profile(samples=one_sample([2, 99], [5])),
    "function-out-of-range.pb": profile(locations=[message(field(1, 1), field(4, message(field(1, 7))))],
                                        samples=one_sample([1], [5])),
    "location-id-0.pb": profile(locations=[message(field(1, 0), field(4, message(field(1, 1))))],
                                samples=one_sample([1], [5])),
    "duplicate-id.pb": profile(functions=[message(field(1, 2), field(2, 3)), message(field(1, 2), field(2, 4))]),
    "values-count.pb": profile(samples=one_sample([2, 1], [5, 6])),
    "string-out-of-range.pb": profile(functions=[message(field(1, 1), field(2, 3)), message(field(1, 2), field(2, 40))]),
    "no-empty-string.pb": profile(strings=["x", "samples", "count", "main", "work"]),
    "negative.pb": profile(samples=one_sample([2, 1], [-3])),
    # enough samples to be read on a thread of their own: the first of
    # two faults is the one said, as a serial read says it
    "late-location-out-of-range.pb": profile(samples=one_sample([2, 1], [1]) * 9000 +
                                             one_sample([2, 99], [5]) + one_sample([2, 1], [1]) * 500 +
                                             one_sample([2, 1], [5, 6]) + one_sample([2, 1], [1]) * 500),
}
for name, data in files.items():
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(data)
