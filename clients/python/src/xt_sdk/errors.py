"""What the SDK raises on purpose; everything derives from XtError."""

from __future__ import annotations

from typing import Any, Optional

from .types import FieldError


def _field_problem(error: FieldError) -> str:
    # The service's messages name their field already ("source is not a spreadsheet"): prefixing
    # it again would name it twice; a message that does not start with it still gets it.
    field, message = error["field"], error["message"]
    return message if message.startswith(field) else f"{field}: {message}"


class XtError(Exception):
    """Base of every error the SDK raises on purpose."""


class ApiError(XtError):
    """The service answered with an error status; carries its envelope."""

    def __init__(
        self,
        status: int,
        body: Optional[dict[str, Any]],
        *,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        self.status = status
        self.body = body
        envelope = body or {}
        self.message: str = str(envelope.get("message") or "request failed")
        #: The stable UPPER_SNAKE code, e.g. ``VALIDATION_FAILED``, ``NOT_FOUND``.
        self.code: str = str(envelope.get("code") or f"HTTP_{status}")
        #: One entry per problem on a 422, naming the request field.
        self.errors: list[FieldError] = list(envelope.get("errors") or [])
        #: Set when a synchronous create ended in a failed extraction.
        self.extraction_id: Optional[str] = envelope.get("extractionId")
        self.request_id = request_id
        #: Seconds the service asked to wait (429, 503), when it said.
        self.retry_after = retry_after
        detail = "; ".join(_field_problem(e) for e in self.errors)
        super().__init__(f"{status} {self.message}" + (f" ({detail})" if detail else ""))

    @property
    def fields(self) -> list[str]:
        """The field names of a 422, e.g. ``['schema_id']``."""
        return [e["field"] for e in self.errors]


class ExtractionFailedError(XtError):
    """The extraction ended ``failed``: the synchronous answer said so, or polling found it."""

    def __init__(
        self,
        extraction_id: str,
        failure_code: str,
        message: str,
        api_error: Optional[ApiError] = None,
    ) -> None:
        self.extraction_id = extraction_id
        self.failure_code = failure_code
        self.api_error = api_error
        super().__init__(f"extraction {extraction_id} failed ({failure_code}): {message}")


class NetworkError(XtError):
    """No answer (connection refused or reset, DNS, time-out) after all retries."""


class WebhookVerificationError(XtError):
    """A webhook whose signature, headers or timestamp do not check out."""
