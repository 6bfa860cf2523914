# A large pprof file is compressed in parts on threads (lib/gzip.h), yet
# is one gzip member: a reader that stops after a first member (Python's
# zlib here; pako in speedscope, tests/browser/speedscope.mjs) reads the
# whole message. flamekit reads it back, its parts at once, with the same
# stacks; a part that does not inflate is said as any broken gzip is.
python3 - <<'PY'
import random
random.seed(3)
with open("in.folded", "w") as f:
    for i in range(40000):
        frames = ["main"] + ["mod%d::fn%d" % (random.randrange(20), random.randrange(300)) for d in range(12)]
        f.write("%s %d\n" % (";".join(frames), random.randrange(1, 10)))
PY
flamekit collapse in.folded -o out.pb.gz || exit 1
python3 - <<'PY'
import gzip, struct, zlib
data = open("out.pb.gz", "rb").read()
one = zlib.decompressobj(31)
message = one.decompress(data) + one.flush()
print("one member, nothing after it:", one.eof and not one.unused_data)
print("the whole message:", message == gzip.decompress(data), len(message) > 2 * 512 * 1024)
xlen, = struct.unpack("<H", data[10:12])
print("its header lists the parts:", data[3] == 4 and data[12:14] == b"FK", (xlen - 4) // 8 > 2)
# a byte in the middle of the second part changed
first, = struct.unpack("<I", data[16:20])
second, = struct.unpack("<I", data[24:28])
at = 12 + xlen + first + second // 2
bad = bytearray(data)
bad[at] ^= 0x55
open("bad.pb.gz", "wb").write(bytes(bad))
PY
flamekit collapse in.folded > expected.folded
flamekit collapse out.pb.gz | cmp - expected.folded && echo "read back: the same stacks"
flamekit collapse bad.pb.gz > out.txt; echo "a part broken: exit $?, $(wc -c < out.txt) bytes out"
