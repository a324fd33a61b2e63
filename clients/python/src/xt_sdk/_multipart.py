"""multipart/form-data bodies, which the standard library can parse but not write."""

from __future__ import annotations

import mimetypes
import os
import uuid
from pathlib import Path
from typing import IO, Mapping, Optional, Sequence, Union

#: a path, bytes, or a binary file object
FileInput = Union[str, "os.PathLike[str]", bytes, IO[bytes]]


class FilePart:
    """One file of a form: its field, name, bytes and type (guessed from the name when not given)."""

    def __init__(self, field: str, filename: str, data: bytes, content_type: Optional[str]) -> None:
        self.field = field
        self.filename = filename
        self.data = data
        self.content_type = content_type or mimetypes.guess_type(filename)[0]


def read_file(file: FileInput, filename: Optional[str]) -> tuple[bytes, str]:
    """The bytes and the name of a file given as a path, bytes or a binary file object."""
    if isinstance(file, bytes):
        return file, filename or "upload"
    if isinstance(file, (str, os.PathLike)):
        path = Path(file)
        return path.read_bytes(), filename or path.name
    data = file.read()
    name = filename or os.path.basename(str(getattr(file, "name", "") or "upload"))
    return data, name


def encode_multipart(fields: Mapping[str, str], files: Sequence[FilePart]) -> tuple[bytes, str]:
    """The body and its Content-Type header. The files are whole in memory: a retry must resend
    the same bytes, and the service caps uploads (``MAX_UPLOAD_BYTES``, 50 MiB by default)."""
    boundary = f"xt-{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"\r\n\r\n'.encode()
            + value.encode("utf-8")
            + b"\r\n"
        )
    for file in files:
        parts.append(
            (
                f"--{boundary}\r\n"
                f'Content-Disposition: form-data; name="{_quote(file.field)}"; filename="{_quote(file.filename)}"\r\n'
                f"Content-Type: {file.content_type or 'application/octet-stream'}\r\n\r\n"
            ).encode("utf-8")
            + file.data
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _quote(value: str) -> str:
    # As browsers do (WHATWG multipart): escape what would end or break the quoted string.
    return value.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
