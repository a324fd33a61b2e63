"""Schemas, extractions, webhook endpoints and models: one class each over the transport."""

from __future__ import annotations

import uuid
from typing import Any, Iterator, Mapping, Optional, Sequence, Union, cast
from urllib.parse import quote

from ._multipart import FileInput, FilePart, encode_multipart, read_file
from ._pages import Listing
from ._transport import Transport
from .errors import ApiError, XtError
from .types import (
    DatasetCase,
    Extraction,
    ExtractionListItem,
    ExtractionStatus,
    Model,
    Page,
    PublicModel,
    ReviewDecision,
    ReviewStatus,
    Schema,
    SchemaConversion,
    SchemaSuggestion,
    SplitDocumentRecord,
    SplitOutcome,
    SplitResult,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEndpointWithSecret,
    WebhookEventType,
)


def _id(value: str) -> str:
    return quote(value, safe="")


def _list_query(
    page: Optional[int],
    limit: Optional[int],
    search: Optional[str],
    start_date: Optional[str],
    end_date: Optional[str],
    **filters: Optional[str],
) -> dict[str, Any]:
    """The query every list route takes, then the route's own filters (None: not sent)."""
    return {
        "page": page,
        "limit": limit,
        "search": search,
        "startDate": start_date,
        "endDate": end_date,
        **filters,
    }


class Schemas:
    def __init__(self, http: Transport) -> None:
        self._http = http
        self._listing = Listing(http, "/schemas")

    def create(
        self,
        name: str,
        structure: Mapping[str, Any],
        *,
        description: Optional[str] = None,
        review: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> Schema:
        """Creates a schema; the Idempotency-Key (a UUID unless given) is kept across retries."""
        body: dict[str, Any] = {"name": name, "structure": dict(structure)}
        if description is not None:
            body["description"] = description
        if review is not None:
            body["review"] = dict(review)
        key = idempotency_key or str(uuid.uuid4())
        res = self._http.request(
            "POST", "/schemas", json_body=body, headers={"Idempotency-Key": key}
        )
        return cast(Schema, res.data)

    def list(
        self,
        *,
        page: Optional[int] = None,
        limit: Optional[int] = None,
        search: Optional[str] = None,
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
    ) -> Page:
        return self._listing.page(_list_query(page, limit, search, start_date, end_date))

    def all(
        self,
        *,
        search: Optional[str] = None,
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
        page_size: int = 100,
    ) -> Iterator[Schema]:
        """Every schema matching, fetched page by page (``page_size`` a request) as the loop asks."""
        return self._listing.every(_list_query(None, page_size, search, start_date, end_date))

    def get(self, schema_id: str) -> Schema:
        return cast(Schema, self._http.request("GET", f"/schemas/{_id(schema_id)}").data)

    def replace(
        self, schema_id: str, name: str, structure: Mapping[str, Any], *, description: Optional[str] = None
    ) -> Schema:
        """PUT: replaces name, description and structure."""
        body: dict[str, Any] = {
            "name": name,
            "structure": dict(structure),
            "description": description,
        }
        res = self._http.request("PUT", f"/schemas/{_id(schema_id)}", json_body=body)
        return cast(Schema, res.data)

    def update(self, schema_id: str, **changes: Any) -> Schema:
        """PATCH: changes only the fields given (``name``, ``description``, ``structure``)."""
        res = self._http.request("PATCH", f"/schemas/{_id(schema_id)}", json_body=changes)
        return cast(Schema, res.data)

    def delete(self, schema_id: str) -> None:
        self._http.request("DELETE", f"/schemas/{_id(schema_id)}")

    def suggest(
        self,
        files: Sequence[FileInput],
        *,
        prompt: Optional[str] = None,
        model: Optional[PublicModel] = None,
    ) -> SchemaSuggestion:
        """
        Drafts a structure from 1 to 5 sample files (paths, bytes or binary file objects) and
        runs it on each (docs/api.md#suggest-a-schema). Nothing is stored as a schema; the model
        calls are charged as extractions. A 503 is retried: a repeat reuses the calls that
        finished.
        """
        parts: list[FilePart] = []
        for file in files:
            data, name = read_file(file, None)
            parts.append(FilePart("files", name, data, None))
        fields: dict[str, str] = {}
        if prompt is not None:
            fields["prompt"] = prompt
        if model is not None:
            fields["model"] = model
        body, ctype = encode_multipart(fields, parts)
        res = self._http.request("POST", "/schemas/suggest", body=body, content_type=ctype)
        return cast(SchemaSuggestion, res.data)

    def convert(self, json_schema: Mapping[str, Any]) -> SchemaConversion:
        """A JSON Schema (Pydantic's ``model_json_schema()``, ...) as a structure, with what could
        not be kept (docs/api.md#import-a-json-schema). No model call, no charge."""
        res = self._http.request(
            "POST", "/schemas/convert", json_body={"jsonSchema": dict(json_schema)}
        )
        return cast(SchemaConversion, res.data)

    def dataset(self, schema_id: str, *, page: Optional[int] = None, limit: Optional[int] = None) -> Page:
        """The schema's approved extractions as evaluation cases (docs/review.md)."""
        return self._dataset(schema_id).page({"page": page, "limit": limit})

    def all_dataset(self, schema_id: str, *, page_size: int = 100) -> Iterator[DatasetCase]:
        """Every case of ``dataset``, fetched page by page as the loop asks."""
        return self._dataset(schema_id).every({"page": None, "limit": page_size})

    def _dataset(self, schema_id: str) -> Listing:
        return Listing(self._http, f"/schemas/{_id(schema_id)}/dataset")


class Extractions:
    def __init__(self, http: Transport) -> None:
        self._http = http
        self._listing = Listing(http, "/extractions")

    def get(self, extraction_id: str) -> Extraction:
        res = self._http.request("GET", f"/extractions/{_id(extraction_id)}")
        return cast(Extraction, res.data)

    def list(
        self,
        *,
        page: Optional[int] = None,
        limit: Optional[int] = None,
        search: Optional[str] = None,
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
        status: Optional[ExtractionStatus] = None,
        schema_id: Optional[str] = None,
        parent_id: Optional[str] = None,
    ) -> Page:
        """``parent_id``: only the extractions of a bundle's documents (docs/split.md)."""
        query = _list_query(
            page, limit, search, start_date, end_date,
            status=status, schema_id=schema_id, parent_id=parent_id,
        )
        return self._listing.page(query)

    def all(
        self,
        *,
        search: Optional[str] = None,
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
        status: Optional[ExtractionStatus] = None,
        schema_id: Optional[str] = None,
        parent_id: Optional[str] = None,
        page_size: int = 100,
    ) -> Iterator[ExtractionListItem]:
        """Every extraction matching, fetched page by page (``page_size`` a request)."""
        query = _list_query(
            None, page_size, search, start_date, end_date,
            status=status, schema_id=schema_id, parent_id=parent_id,
        )
        return self._listing.every(query)

    def delete(self, extraction_id: str) -> None:
        self._http.request("DELETE", f"/extractions/{_id(extraction_id)}")

    def documents(self, bundle: Union[str, Extraction]) -> SplitOutcome:
        """
        A bundle's record (docs/split.md) and its documents in page order, each with its
        extraction's record: what ``XtClient.split`` returns, for a bundle created otherwise or
        told of by a webhook. Read once it is completed; before that it has no documents.
        """
        parent = self.get(bundle) if isinstance(bundle, str) else bundle
        result = parent.get("result")
        if "split" not in parent or not isinstance(result, dict) or "documents" not in result:
            raise XtError(f"extraction {parent['id']} is not a completed bundle: it has no documents")
        documents: list[SplitDocumentRecord] = []
        for document in cast(SplitResult, result)["documents"]:
            child = document["extractionId"]
            record = cast(SplitDocumentRecord, {**document, "extraction": None})
            if child is not None:
                record["extraction"] = self._get_unless_deleted(child)
            documents.append(record)
        return {"parent": parent, "documents": documents}

    def _get_unless_deleted(self, extraction_id: str) -> Optional[Extraction]:
        # Deleting one document's extraction alone is allowed; the bundle still names it.
        try:
            return self.get(extraction_id)
        except ApiError as error:
            if error.status == 404:
                return None
            raise

    def review(
        self,
        extraction_id: str,
        decision: ReviewDecision,
        *,
        corrections: Optional[Mapping[str, Any]] = None,
        note: Optional[str] = None,
    ) -> Extraction:
        """
        Approves (with corrections, JSON Pointer to value) or rejects an extraction queued for
        review. Sent once: a repeat of a review that went through answers 409.
        """
        body: dict[str, Any] = {"decision": decision}
        if corrections is not None:
            body["corrections"] = dict(corrections)
        if note is not None:
            body["note"] = note
        res = self._http.request(
            "POST", f"/extractions/{_id(extraction_id)}/review", json_body=body, resendable=False
        )
        return cast(Extraction, res.data)


class Reviews:
    def __init__(self, http: Transport) -> None:
        self._listing = Listing(http, "/reviews")

    def list(
        self,
        *,
        page: Optional[int] = None,
        limit: Optional[int] = None,
        search: Optional[str] = None,
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
        status: Optional[ReviewStatus] = None,
        schema_id: Optional[str] = None,
    ) -> Page:
        """Extractions queued for review, newest first; ``status`` is the review's."""
        query = _list_query(page, limit, search, start_date, end_date, status=status, schema_id=schema_id)
        return self._listing.page(query)

    def all(
        self,
        *,
        status: Optional[ReviewStatus] = None,
        schema_id: Optional[str] = None,
        page_size: int = 100,
    ) -> Iterator[Extraction]:
        """Every queued extraction matching, fetched page by page (``page_size`` a request)."""
        query = _list_query(None, page_size, None, None, None, status=status, schema_id=schema_id)
        return self._listing.every(query)


class Webhooks:
    def __init__(self, http: Transport) -> None:
        self._http = http
        self._listing = Listing(http, "/webhooks")

    def create(
        self,
        url: str,
        events: list[WebhookEventType],
        *,
        description: Optional[str] = None,
    ) -> WebhookEndpointWithSecret:
        """The answer shows the secret once. Not re-sent after a network error: the route takes
        no Idempotency-Key, so a lost answer could otherwise make two endpoints."""
        body: dict[str, Any] = {"url": url, "events": events}
        if description is not None:
            body["description"] = description
        res = self._http.request("POST", "/webhooks", json_body=body, resendable=False)
        return cast(WebhookEndpointWithSecret, res.data)

    def list(
        self,
        *,
        page: Optional[int] = None,
        limit: Optional[int] = None,
        search: Optional[str] = None,
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
    ) -> Page:
        return self._listing.page(_list_query(page, limit, search, start_date, end_date))

    def all(
        self, *, search: Optional[str] = None, page_size: int = 100
    ) -> Iterator[WebhookEndpoint]:
        return self._listing.every(_list_query(None, page_size, search, None, None))

    def get(self, endpoint_id: str) -> WebhookEndpoint:
        res = self._http.request("GET", f"/webhooks/{_id(endpoint_id)}")
        return cast(WebhookEndpoint, res.data)

    def update(self, endpoint_id: str, **changes: Any) -> WebhookEndpoint:
        """PATCH: ``url``, ``events``, ``description``, ``enabled``."""
        res = self._http.request("PATCH", f"/webhooks/{_id(endpoint_id)}", json_body=changes)
        return cast(WebhookEndpoint, res.data)

    def delete(self, endpoint_id: str) -> None:
        self._http.request("DELETE", f"/webhooks/{_id(endpoint_id)}")

    def rotate_secret(self, endpoint_id: str) -> WebhookEndpointWithSecret:
        """A new secret; the old one stops verifying at once."""
        res = self._http.request(
            "POST", f"/webhooks/{_id(endpoint_id)}/rotate-secret", resendable=False
        )
        return cast(WebhookEndpointWithSecret, res.data)

    def deliveries(
        self, endpoint_id: str, *, page: Optional[int] = None, limit: Optional[int] = None
    ) -> Page:
        return self._deliveries(endpoint_id).page({"page": page, "limit": limit})

    def all_deliveries(self, endpoint_id: str, *, page_size: int = 100) -> Iterator[WebhookDelivery]:
        return self._deliveries(endpoint_id).every({"page": None, "limit": page_size})

    def _deliveries(self, endpoint_id: str) -> Listing:
        return Listing(self._http, f"/webhooks/{_id(endpoint_id)}/deliveries")


class Models:
    def __init__(self, http: Transport) -> None:
        self._http = http

    def list(self) -> list[Model]:
        """The names ``model`` takes on create, the default among them, and what each can do."""
        return cast(list[Model], self._http.request("GET", "/models").data)
