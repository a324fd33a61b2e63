"""The registry of source kinds (packages/contract/src/source-kinds.ts), as the wire types name it.

Written by `npm run kinds:copies`: edit the registry, not this file (scripts/kinds/copies.test.ts).
"""

from __future__ import annotations

from typing import Literal

SourceType = Literal[
    "text",
    "image",
    "pdf",
    "webpage",
    "document",
    "spreadsheet",
    "email",
    "markdown",
    "auto",
]
#: what a single record shows as ``source.type`` (webpages are ``url`` there)
RecordSourceType = Literal[
    "text",
    "image",
    "pdf",
    "url",
    "document",
    "spreadsheet",
    "email",
    "markdown",
    "auto",
]
