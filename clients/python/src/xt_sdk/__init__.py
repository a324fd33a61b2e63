"""Python client for the extraction service (standard library only)."""

from .client import CreatedExtraction, FileInput, XtClient
from .errors import (
    ApiError,
    ExtractionFailedError,
    NetworkError,
    WebhookVerificationError,
    XtError,
)
from .types import (
    Citation,
    DatasetCase,
    Extraction,
    ExtractionListItem,
    ExtractionOutcome,
    ExtractionWarning,
    Model,
    ModelCapabilities,
    Page,
    PaginationMeta,
    Review,
    ReviewPolicy,
    ReviewReason,
    Schema,
    Structure,
    Usage,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEndpointWithSecret,
    WebhookEvent,
)
from .webhooks import verify_webhook

__version__ = "0.1.0"

__all__ = [
    "ApiError",
    "Citation",
    "CreatedExtraction",
    "DatasetCase",
    "Extraction",
    "ExtractionFailedError",
    "ExtractionListItem",
    "ExtractionOutcome",
    "ExtractionWarning",
    "FileInput",
    "Model",
    "ModelCapabilities",
    "NetworkError",
    "Page",
    "PaginationMeta",
    "Review",
    "ReviewPolicy",
    "ReviewReason",
    "Schema",
    "Structure",
    "Usage",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookEndpointWithSecret",
    "WebhookEvent",
    "WebhookVerificationError",
    "XtClient",
    "XtError",
    "verify_webhook",
]
