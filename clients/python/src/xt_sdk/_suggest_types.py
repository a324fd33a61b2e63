"""The wire types of suggesting a schema and converting a JSON Schema (docs/api.md)."""

from __future__ import annotations

from typing import Any, TypedDict

from .types import Citation, ExtractionWarning, Structure, UploadedFile


class FieldsFound(TypedDict):
    """Which of a draft's fields one sample gave a value for (docs/api.md#suggest-a-schema)."""

    found: list[str]
    missing: list[str]
    #: found / all of the draft's fields, 0 to 1
    share: float


class _SuggestedSampleOptional(TypedDict, total=False):
    citations: dict[str, Citation]
    warnings: list[ExtractionWarning]


class SuggestedSample(_SuggestedSampleOptional):
    file: UploadedFile
    #: the draft run on this sample
    extractionId: str
    output: Any
    fields: FieldsFound


class SuggestionUsage(TypedDict):
    #: every extraction the suggestion made, drafting and draft runs: what it is charged as
    extractions: list[str]
    totalTokens: int
    costUsd: float


class SchemaSuggestion(TypedDict):
    """``POST /schemas/suggest``: a draft structure and its run on each sample."""

    #: the suggestion; its extractions name it as ``schema_id``
    id: str
    #: ``schemas.create()`` takes it as it is
    structure: Structure
    samples: list[SuggestedSample]
    usage: SuggestionUsage


class DroppedPart(TypedDict):
    #: JSON Pointer into the JSON Schema sent
    path: str
    reason: str


class SchemaConversion(TypedDict):
    """``POST /schemas/convert``: the structure and what could not be kept."""

    structure: Structure
    dropped: list[DroppedPart]
