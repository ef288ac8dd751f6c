"""Hostile inputs, built in code: small files that cost a naive reader minutes or gigabytes.

Shared by the tests (with tiny budgets) and ``bench/loop_stall.py`` (with the real ones),
so both exercise exactly the same bytes.
"""

from __future__ import annotations

import io
import zlib


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF from numbered object bodies (object 1 is the catalog), with a correct xref."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def shared_stream_pdf(operators: int, pages: int = 3) -> bytes:
    """``pages`` pages whose ``/Contents`` all point to one compressed stream of
    ``operators`` ``(x) Tj`` text operators: a few KB on disk, the same huge stream
    interpreted once per page by a text extractor."""
    stream = zlib.compress(b"BT /F1 12 Tf 72 720 Td " + b"(x) Tj " * operators + b"ET", 9)
    font = 4 + pages
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (4 + i) for i in range(pages)), pages),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    objects += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R"
        b" /Resources << /Font << /F1 %d 0 R >> >> >>" % font
        for _ in range(pages)
    ]
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    return _pdf(objects)


def self_referencing_pdf() -> bytes:
    """A page tree whose ``/Kids`` is a stream whose ``/Length`` is that stream itself:
    pypdf stops with ``LimitReachedError`` (not a ``PdfReadError``)."""
    return _pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids 3 0 R /Count 1 >>",
        b"<< /Length 3 0 R >>\nstream\nxx\nendstream",
    ])


def plain_text(size: int) -> bytes:
    """``size`` bytes of English prose lines with no blank line: one endless paragraph,
    the slowest shape for the section parsers (the issue's 4.9 MB upload)."""
    line = b"the quick brown fox jumps over the lazy dog and the rule says so\n"
    return (line * (size // len(line) + 1))[:size]


def billion_laughs(levels: int) -> str:
    """YAML whose every level repeats the previous one nine times: 9**(levels+1) strings."""
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"l{i}: &l{i} [{','.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def deep_nesting(depth: int = 100_000) -> str:
    """``[[[[…`` unclosed: recursion in a JSON parser, depth in a YAML one."""
    return "[" * depth

