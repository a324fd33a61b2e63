"""multipart/form-data bodies, which the standard library can parse but not write."""

from __future__ import annotations

import uuid
from typing import Mapping, Optional


def encode_multipart(
    fields: Mapping[str, str],
    file_field: str,
    filename: str,
    data: bytes,
    content_type: Optional[str],
) -> tuple[bytes, str]:
    """The body and its Content-Type header. The file is whole in memory: a retry must resend
    the same bytes, and the service caps uploads (``MAX_UPLOAD_BYTES``, 50 MiB by default)."""
    boundary = f"xt-{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"\r\n\r\n'.encode()
            + value.encode("utf-8")
            + b"\r\n"
        )
    parts.append(
        (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="{_quote(file_field)}"; filename="{_quote(filename)}"\r\n'
            f"Content-Type: {content_type or 'application/octet-stream'}\r\n\r\n"
        ).encode("utf-8")
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _quote(value: str) -> str:
    # As browsers do (WHATWG multipart): escape what would end or break the quoted string.
    return value.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
