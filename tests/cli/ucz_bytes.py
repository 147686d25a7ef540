"""Byte-level helpers for tests that take archives apart and put them back together
(doc/format.md): LEB128 varints."""


def varint(n):
    """n as an unsigned LEB128 varint."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(data, pos):
    """(value, position after it) of the varint at data[pos]."""
    v = shift = 0
    while True:
        b = data[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos


def header_end(data, pos=0):
    """Position just after the format version 3 member header that starts at data[pos]
    (magic, version u16, body length varint, body, crc32)."""
    hlen, i = read_varint(data, pos + 10)
    return i + hlen + 4


def reversed_varint(n):
    """n as version 3 writes the index length at a member's end: a varint, bytes reversed."""
    return varint(n)[::-1]


def index_v3(entries, digest, index_offset):
    """A version 3 index: entries (block_offset, games, moves), the member digest (bytes,
    b"" when the member has fewer than two blocks), the index offset; with its crc and
    the reversed length that ends the member."""
    import zlib
    body = bytearray(b"I" + varint(len(entries)))
    for e in entries:
        body += b"".join(varint(x) for x in e)
    body += digest + varint(index_offset)
    body += zlib.crc32(bytes(body)).to_bytes(4, "little")
    return bytes(body) + reversed_varint(len(body))


def header_fields(data):
    """The body fields {key: value bytes} of the version 3 member header at data[0]."""
    hlen, i = read_varint(data, 10)
    body, fields, pos = data[i:i + hlen], {}, 0
    while pos < len(body):
        k, pos = read_varint(body, pos)
        n, pos = read_varint(body, pos)
        fields[k] = body[pos:pos + n]
        pos += n
    return fields


def make_header(fields):
    """A version 3 member header of these body fields {key: value bytes}."""
    import zlib
    body = b"".join(varint(k) + varint(len(v)) + v for k, v in sorted(fields.items()))
    return b"\x89UCZ\r\n\x1a\n" + (3).to_bytes(2, "little") + varint(len(body)) + body + \
        zlib.crc32(body).to_bytes(4, "little")


def with_header(data, fields):
    """The one-member version 3 archive data with its header replaced by one of these
    fields, blocks unchanged and the index rebuilt for the new offsets."""
    header = make_header(fields)
    pos = header_end(data)
    shift = len(header) - pos
    end = pos
    while data[end:end + 1] == b"B":
        i, sizes = end + 1, []
        for _ in range(6):
            v, i = read_varint(data, i)
            sizes.append(v)
        end = i + 8 + 4 + sizes[4] + sizes[5]
    n, i = read_varint(data, end + 1)
    entries = []
    for _ in range(n):
        o, i = read_varint(data, i)
        g, i = read_varint(data, i)
        m, i = read_varint(data, i)
        entries.append((o + shift, g, m))
    digest = data[i:i + 8] if n >= 2 else b""
    member = header + data[pos:end]
    return member + index_v3(entries, digest, len(member))
