"""The wire types of the API (docs/api.md) as TypedDicts: records are plain dicts, typed."""

from __future__ import annotations

from typing import Any, Literal, Optional, TypedDict

from ._source_kinds import RecordSourceType as RecordSourceType
from ._source_kinds import SourceType as SourceType

ExtractionStatus = Literal["pending", "processing", "completed", "failed"]
# A model name the service serves: `gpt-4.1` and `gpt-4.1-mini` by default, or any name its
# operator configured (`client.models.list()` lists them).
PublicModel = str
#: ``batch``: through the provider's batch interface, cheaper, within hours (docs/batch.md)
Priority = Literal["standard", "batch"]
WebhookEventType = Literal["extraction.completed", "extraction.failed", "extraction.reviewed"]
ReviewStatus = Literal["needs_review", "approved", "rejected"]
ReviewDecision = Literal["approve", "reject"]
#: the types a bundle (``split``, docs/split.md) may be sent as
SplitSourceType = Literal["pdf", "image", "document", "auto"]


class FieldError(TypedDict):
    field: str
    message: str


class PaginationMeta(TypedDict):
    total: int
    perPage: int
    currentPage: int
    lastPage: int
    firstPage: int
    firstPageUrl: str
    lastPageUrl: str
    nextPageUrl: Optional[str]
    previousPageUrl: Optional[str]


class Page(TypedDict):
    data: list[Any]
    meta: PaginationMeta


#: how the model's server holds answers to the schema (docs/models.md)
StructuredOutputMode = Literal["json_schema", "json_object", "prompt"]


class ModelCapabilities(TypedDict):
    structuredOutput: StructuredOutputMode
    #: False: pages and images reach the model as OCR text
    images: bool
    logprobs: bool
    contextTokens: Optional[int]
    outputTokens: Optional[int]


class Model(TypedDict):
    """One entry of ``GET /models``: a name ``model`` takes on create."""

    id: str
    default: bool
    #: None until the model has been probed (on its first extraction)
    capabilities: Optional[ModelCapabilities]
    probedAt: Optional[str]


class _StructureOptional(TypedDict, total=False):
    describe: str
    description: str
    required: bool
    enum: list[str]
    properties: dict[str, Any]
    items: Any


class Structure(_StructureOptional):
    """A schema's root: ``object`` with ``properties``, or ``array`` with ``items``."""

    type: str


class _ReviewPolicyOptional(TypedDict, total=False):
    #: structure paths the checks look at, array items written ``*`` (``/lines/*/amount``)
    fields: list[str]
    #: the share 0-1 of completed extractions queued whatever their values
    sample: float


class ReviewPolicy(_ReviewPolicyOptional):
    """A schema's review settings (docs/review.md)."""

    #: a value whose citation confidence is below this queues the extraction
    minConfidence: float


class _SchemaOptional(TypedDict, total=False):
    #: only when set: when completed extractions are queued for review
    review: ReviewPolicy


class Schema(_SchemaOptional):
    id: str
    name: str
    description: Optional[str]
    structure: Structure
    createdAt: str
    updatedAt: str


class _UploadedFileOptional(TypedDict, total=False):
    removedAt: str


class UploadedFile(_UploadedFileOptional):
    name: str
    size: int
    contentType: str
    sha256: str


class _CitationOptional(TypedDict, total=False):
    #: spreadsheets: the sheet's name
    sheet: str
    #: spreadsheets: the cell, an A1 reference such as ``B7``
    cell: str
    #: emails: ``body``, or the attachment's file name; ``page`` and ``boxes`` are within it
    part: str
    #: found on OCR words (a scan, an image): the engine's lowest confidence in them, 0–1
    ocrConfidence: float
    #: ``uncertain``: found only on OCR words read with low confidence; the reading may be wrong
    reading: str


class Citation(_CitationOptional):
    """Where a leaf value was found in the source (docs/citations.md)."""

    grounded: bool
    quote: Optional[str]
    page: Optional[int]
    boxes: list[list[float]]
    start: Optional[int]
    end: Optional[int]
    confidence: Optional[float]


class ExtractionWarning(TypedDict):
    code: str
    path: str
    message: str


class ExtractionError(TypedDict):
    code: str
    message: str


class _SourceOptional(TypedDict, total=False):
    file: UploadedFile
    #: a file source's format, recognised from its content (for example ``docx``, ``xlsx``, ``eml``)
    format: str


class ExtractionSource(_SourceOptional):
    type: RecordSourceType
    content: str


class Reused(TypedDict):
    #: the earlier extraction whose answer this one took (docs/reuse.md)
    extractionId: str


class Progress(TypedDict):
    #: pages whose model calls have finished
    pagesDone: int
    #: pages the source was read as; 0 until read, and for a source read as one piece
    pagesTotal: int


class Usage(TypedDict):
    """Model tokens as the provider reported them and their estimated cost (docs/cost.md)."""

    inputTokens: int
    outputTokens: int
    #: the part of ``inputTokens`` read from the provider's prompt cache
    cachedInputTokens: int
    estimatedCostUsd: float


class ReviewReason(TypedDict):
    code: Literal["LOW_CONFIDENCE", "REQUIRED_NOT_FOUND", "SAMPLED"]
    #: the value's JSON Pointer; None for ``SAMPLED``
    path: Optional[str]
    message: str


class Review(TypedDict):
    """On an extraction its schema's review settings queued (docs/review.md)."""

    status: ReviewStatus
    reasons: list[ReviewReason]
    reviewedAt: Optional[str]
    #: ``key:<api key id>`` or ``user:<dashboard user id>``
    reviewedBy: Optional[str]
    note: Optional[str]


class DatasetCase(TypedDict):
    """One case of ``GET /schemas/{id}/dataset``: an approved extraction as an evaluation case."""

    case: str
    extractionId: str
    type: SourceType
    #: the text, the URL, or an uploaded file's name
    source: str
    file: Optional[UploadedFile]
    #: the reviewed result
    expected: Any
    #: the result as the model read it
    recorded: Any


#: pages of a bundle, numbered from 1, both ends included (``from`` is a keyword: dict syntax)
SplitPages = TypedDict("SplitPages", {"from": int, "to": int})


class _SplitClassOptional(TypedDict, total=False):
    #: what such a document is, in words, for the classification
    description: str
    #: the schema each document of the class is extracted with; none: classified only
    schema_id: str


class SplitClass(_SplitClassOptional):
    """One kind of document a bundle may hold (docs/split.md)."""

    #: 1-64 letters, digits, ``_``, ``-`` or spaces, unique case-insensitively; not ``other``
    name: str


class SplitRequest(TypedDict):
    """The split as a bundle's record echoes it."""

    classes: list[SplitClass]
    #: pages of no class became documents of class ``other``
    other: bool


#: one document of a completed bundle's ``result["documents"]``, in page order; ``extractionId``
#: is None when its class names no schema (or is ``other``)
SplitDocument = TypedDict(
    "SplitDocument",
    {"class": str, "pages": SplitPages, "confidence": float, "extractionId": Optional[str]},
)


class SplitResult(TypedDict):
    """A completed bundle's ``result`` (``output`` on list records)."""

    documents: list[SplitDocument]


class _GroundedOptional(TypedDict, total=False):
    #: only when queued for review
    review: Review
    #: once reviewed: the corrected result (approved) or None (rejected)
    reviewedResult: Any
    #: only when created with ``citations=True``; keyed by JSON Pointer into the output
    citations: Optional[dict[str, Citation]]
    #: only when non-empty
    warnings: list[ExtractionWarning]
    #: only when the answer was reused from an earlier extraction: 0 tokens, uncharged
    reused: Reused
    #: only while ``processing``: how far the work has come (updated about once a second)
    progress: Progress


class _RecordOptional(_GroundedOptional, total=False):
    #: only on a bundle's document: the bundle's id
    parentId: str
    #: only on a bundle's document: its pages in the bundle (citations use these numbers)
    pages: SplitPages


class _ExtractionOptional(_RecordOptional, total=False):
    #: only on a bundle: the split it was created with; its ``result`` is a ``SplitResult``
    split: SplitRequest


class Extraction(_ExtractionOptional):
    """``GET /extractions/{id}``: ``source`` and ``result``; ``totalTokens`` a number."""

    id: str
    #: None on a bundle (created with ``split``)
    schemaId: Optional[str]
    source: ExtractionSource
    result: Any
    status: ExtractionStatus
    createdAt: str
    totalTokens: int
    usage: Usage
    charged: bool
    error: Optional[ExtractionError]
    metadata: dict[str, str]
    updatedAt: str
    priority: Priority


class ExtractionListItem(_RecordOptional):
    """``GET /extractions`` records: ``input`` and ``output``; ``totalTokens`` numeric text."""

    id: str
    createdAt: str
    charged: bool
    input: dict[str, Any]
    output: Any
    status: ExtractionStatus
    totalTokens: str
    usage: Usage
    error: Optional[ExtractionError]
    metadata: dict[str, str]
    priority: Priority


class ExtractionOutcome(_GroundedOptional):
    """What ``POST /extractions`` answers: 200 when finished in time, 202 otherwise."""

    id: str
    status: ExtractionStatus
    output: Any
    totalTokens: int


class SplitDocumentRecord(SplitDocument):
    """A document of a bundle with its extraction's record."""

    #: final (completed or failed); None when the class names no schema, for ``other``, and for
    #: a document whose extraction was deleted since
    extraction: Optional[Extraction]


class SplitOutcome(TypedDict):
    """What ``XtClient.split`` returns: the bundle's record and its documents in page order."""

    parent: Extraction
    documents: list[SplitDocumentRecord]


# Kept in files of their own (this one stays readable); importable from here as before.
from ._suggest_types import DroppedPart as DroppedPart  # noqa: E402
from ._suggest_types import FieldsFound as FieldsFound  # noqa: E402
from ._suggest_types import SchemaConversion as SchemaConversion  # noqa: E402
from ._suggest_types import SchemaSuggestion as SchemaSuggestion  # noqa: E402
from ._suggest_types import SuggestedSample as SuggestedSample  # noqa: E402
from ._suggest_types import SuggestionUsage as SuggestionUsage  # noqa: E402
from ._webhook_types import WebhookDelivery as WebhookDelivery  # noqa: E402
from ._webhook_types import WebhookEndpoint as WebhookEndpoint  # noqa: E402
from ._webhook_types import WebhookEndpointWithSecret as WebhookEndpointWithSecret  # noqa: E402
from ._webhook_types import WebhookEvent as WebhookEvent  # noqa: E402
