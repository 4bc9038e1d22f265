"""For files that differ between two replay folders (names on stdin): the largest difference
of any number in the state JSON, and how many pixels differ (and by how much) in the PNG."""
import json, struct, sys, zlib

def numbers(value, path=""):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return {}
    if isinstance(value, (int, float)):
        return {path: float(value)}
    out = {}
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for k, v in items:
        out.update(numbers(v, f"{path}/{k}"))
    return out

def pixels(path):
    data = open(path, "rb").read()
    pos, chunks, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, _, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    raw, bpp = zlib.decompress(chunks), {2: 3, 6: 4}[ctype]
    stride, rows, prev = width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)][f]
            line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line)); prev = line
    return b"".join(rows)

left, right = sys.argv[1], sys.argv[2]
for name in (l.strip() for l in sys.stdin if l.strip()):
    a, b = f"{left}/{name}", f"{right}/{name}"
    if name.endswith(".json"):
        na, nb = numbers(json.load(open(a))), numbers(json.load(open(b)))
        keys = set(na) | set(nb)
        worst = max(((abs(na.get(k, float("nan")) - nb.get(k, float("nan"))), k) for k in keys), default=(0, ""))
        print(f"{name}: {len(keys - (set(na) & set(nb)))} fields only on one side; largest number difference {worst[0]:.3g} at {worst[1]}")
    elif name.endswith(".png"):
        pa, pb = pixels(a), pixels(b)
        diffs = [abs(x - y) for x, y in zip(pa, pb) if x != y]
        print(f"{name}: {len(diffs)} channel values differ (largest {max(diffs, default=0)})" if len(pa) == len(pb) else f"{name}: sizes differ")
