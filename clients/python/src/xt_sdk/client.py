"""The client: resources, and ``extract`` (submit, wait, poll)."""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Callable, Mapping, Optional, Sequence, cast
from urllib.parse import urlsplit

from ._multipart import FileInput, FilePart, encode_multipart, read_file
from ._resources import Extractions, Models, Reviews, Schemas, Webhooks
from ._transport import RetryPolicy, Transport
from .errors import ApiError, ExtractionFailedError, XtError
from .types import (
    Extraction,
    ExtractionOutcome,
    Priority,
    Progress,
    PublicModel,
    SourceType,
    SplitClass,
    SplitOutcome,
    SplitSourceType,
)

_FINAL = ("completed", "failed")

# The names a bundle's kind is told by when ``split`` is not given a ``type``; any other name is
# sent as ``auto``, for the service to recognise by its content (the registry: docs/sources.md;
# apps/api/src/sdk/contract-types.test.ts holds this table to the TypeScript SDK's).
_SPLIT_TYPES: dict[str, SplitSourceType] = {
    **dict.fromkeys([".pdf"], "pdf"),
    **dict.fromkeys(
        [".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp", ".avif", ".heic", ".heif"],
        "image",
    ),
    **dict.fromkeys(
        [".docx", ".docm", ".dotx", ".doc", ".dot", ".odt", ".rtf", ".pptx", ".pptm", ".ppsx", ".ppt", ".pps", ".odp"],
        "document",
    ),
}


@dataclass
class CreatedExtraction:
    #: 200 when finished in time, 202 when still running
    http_status: int
    extraction: ExtractionOutcome
    #: seconds the service suggests before polling (202 only)
    retry_after: Optional[float]
    #: True when the service answered a repeat of an earlier request with the same key
    replayed: bool
    idempotency_key: str


class XtClient:
    """
    The extraction service's client for API keys. ``base_url`` and ``api_key`` default to the
    ``XT_BASE_URL`` and ``XT_API_KEY`` environment variables. Network errors, 429 and 503 are
    retried ``max_retries`` times with full-jitter backoff, never sooner than ``Retry-After``.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        max_retries: int = 3,
        backoff_base: float = 0.5,
        backoff_cap: float = 30.0,
        timeout: float = 330.0,
    ) -> None:
        base_url = base_url or os.environ.get("XT_BASE_URL")
        api_key = api_key or os.environ.get("XT_API_KEY")
        if not base_url or not api_key:
            raise XtError("pass base_url and api_key, or set XT_BASE_URL and XT_API_KEY")
        # The socket timeout outlasts the longest wait a create may ask for (Prefer: wait=300).
        self._http = Transport(
            base_url, api_key, RetryPolicy(max_retries, backoff_base, backoff_cap), timeout
        )
        self.schemas = Schemas(self._http)
        self.extractions = Extractions(self._http)
        self.webhooks = Webhooks(self._http)
        self.models = Models(self._http)
        self.reviews = Reviews(self._http)

    def create_extraction(
        self,
        schema_id: Optional[str],
        type: SourceType,
        source: Optional[str] = None,
        *,
        file: Optional[FileInput] = None,
        filename: Optional[str] = None,
        content_type: Optional[str] = None,
        model: Optional[PublicModel] = None,
        instruction: Optional[str] = None,
        metadata: Optional[dict[str, str]] = None,
        citations: bool = False,
        cache: bool = True,
        cache_max_age: Optional[int] = None,
        priority: Optional[Priority] = None,
        split: Optional[Mapping[str, Any]] = None,
        wait_seconds: Optional[int] = None,
        idempotency_key: Optional[str] = None,
    ) -> CreatedExtraction:
        """
        ``POST /extractions`` with ``source`` (text or a URL) or ``file`` (uploaded as multipart).
        ``cache=False`` does the work afresh; ``cache_max_age`` (seconds) is the oldest earlier
        answer to reuse (docs/reuse.md), the service's default when unset. ``priority="batch"``
        sends the model calls through the provider's batch interface: cheaper, within hours
        (docs/batch.md). ``split`` (``{"classes": [...], "other": bool}``) with ``schema_id``
        None cuts a bundle into documents, each extracted with its class's schema
        (docs/split.md; ``split()`` waits for one).
        ``wait_seconds`` sends ``Prefer: wait=N`` (0 answers at once). A synchronous failure
        raises ExtractionFailedError; a refused request ApiError.
        """
        if (source is None) == (file is None):
            raise XtError("give exactly one of source and file")
        if not cache and cache_max_age is not None:
            raise XtError("cache_max_age has no meaning with cache=False")
        key = idempotency_key or str(uuid.uuid4())
        headers = {"Idempotency-Key": key}
        if wait_seconds is not None:
            headers["Prefer"] = f"wait={wait_seconds}"
        fields: dict[str, Any] = {"type": type}
        # A split names its schemas per class: the service refuses a top-level schema_id with it.
        if schema_id is not None:
            fields["schema_id"] = schema_id
        if model is not None:
            fields["model"] = model
        if instruction is not None:
            fields["instruction"] = instruction
        if priority is not None:
            fields["priority"] = priority
        try:
            if file is not None:
                data, name = read_file(file, filename)
                form = {k: str(v) for k, v in fields.items()}
                if metadata:
                    form["metadata"] = json.dumps(metadata)
                if split is not None:
                    # Multipart carries the split as a JSON-encoded text field.
                    form["split"] = json.dumps(split)
                if citations:
                    form["citations"] = "true"
                if not cache:
                    form["cache"] = "false"
                elif cache_max_age is not None:
                    form["cache_max_age"] = str(cache_max_age)
                part = FilePart("source", name, data, content_type)
                body, ctype = encode_multipart(form, [part])
                res = self._http.request(
                    "POST", "/extractions", body=body, content_type=ctype, headers=headers
                )
            else:
                payload = {**fields, "source": source}
                if split is not None:
                    payload["split"] = dict(split)
                if metadata:
                    payload["metadata"] = metadata
                if citations:
                    payload["citations"] = True
                if not cache:
                    payload["cache"] = False
                elif cache_max_age is not None:
                    payload["cache"] = {"maxAge": cache_max_age}
                res = self._http.request("POST", "/extractions", json_body=payload, headers=headers)
        except ApiError as error:
            # A synchronous create that ended in a failed extraction names it; a refusal does not.
            if error.extraction_id:
                raise ExtractionFailedError(
                    error.extraction_id, error.code, error.message, error
                ) from error
            raise
        retry_after = res.headers.get("Retry-After")
        return CreatedExtraction(
            http_status=res.status,
            extraction=cast(ExtractionOutcome, res.data),
            retry_after=float(retry_after) if retry_after and retry_after.isdigit() else None,
            replayed=res.headers.get("Idempotent-Replayed") == "true",
            idempotency_key=key,
        )

    def wait(
        self,
        extraction_id: str,
        *,
        timeout: Optional[float] = None,
        initial_delay: float = 1.0,
        max_interval: float = 10.0,
        on_progress: Optional[Callable[[Progress], None]] = None,
    ) -> Extraction:
        """
        Polls ``GET /extractions/{id}`` until the record is final and returns it. Waits grow by
        half up to ``max_interval``: an extraction not done within seconds usually takes minutes,
        and every poll counts against the key's rate limit. Raises TimeoutError after ``timeout``.
        ``on_progress`` is given each record's ``progress`` while it is processing.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = min(max_interval, initial_delay)
        while True:
            if deadline is not None and time.monotonic() + delay > deadline:
                raise TimeoutError(f"extraction {extraction_id} is not final after {timeout} s")
            time.sleep(delay)
            record = self.extractions.get(extraction_id)
            if record["status"] in _FINAL:
                return record
            if on_progress is not None and "progress" in record:
                on_progress(record["progress"])
            delay = min(max_interval, max(0.25, delay * 1.5))

    def extract(
        self,
        schema_id: Optional[str],
        type: SourceType,
        source: Optional[str] = None,
        *,
        timeout: Optional[float] = None,
        max_poll_interval: float = 10.0,
        on_progress: Optional[Callable[[Progress], None]] = None,
        **options: Any,
    ) -> ExtractionOutcome:
        """
        Submits an extraction (the options of ``create_extraction``) and returns it completed:
        at once when the service answered 200, else by polling after the 202's Retry-After.
        With ``on_progress`` (and no ``wait_seconds``) the create answers at once and polling
        starts from the first page. Raises ExtractionFailedError when it fails.
        """
        if on_progress is not None and "wait_seconds" not in options:
            # Progress shows from the first page: a held create would show none until it answered.
            options["wait_seconds"] = 0
        created = self.create_extraction(schema_id, type, source, **options)
        outcome = created.extraction
        if outcome["status"] == "completed":
            return outcome
        record = self.wait(
            outcome["id"],
            timeout=timeout,
            initial_delay=created.retry_after if created.retry_after is not None else 1.0,
            max_interval=max_poll_interval,
            on_progress=on_progress,
        )
        if record["status"] == "failed":
            error = record["error"] or {"code": "INTERNAL", "message": "The extraction failed."}
            raise ExtractionFailedError(record["id"], error["code"], error["message"])
        done: ExtractionOutcome = {
            "id": record["id"],
            "status": "completed",
            "output": record["result"],
            "totalTokens": record["totalTokens"],
        }
        if "citations" in record:
            done["citations"] = record["citations"]
        if "warnings" in record:
            done["warnings"] = record["warnings"]
        if "reused" in record:
            done["reused"] = record["reused"]
        return done

    def split(
        self,
        source: Optional[str] = None,
        *,
        classes: Sequence[SplitClass],
        other: Optional[bool] = None,
        type: Optional[SplitSourceType] = None,
        file: Optional[FileInput] = None,
        filename: Optional[str] = None,
        **options: Any,
    ) -> SplitOutcome:
        """
        Cuts a bundle (``source`` a URL, or ``file`` a path, bytes or binary file) into its
        documents, each of a class of ``classes`` (``{"name", "description"?, "schema_id"?}``)
        and extracted with its schema, and waits for it as ``extract`` does (the other options
        are ``extract``'s): the bundle completes once every document's extraction is final.
        ``other=False``: no documents of class ``other`` for pages of no class. ``type`` defaults
        to ``pdf``, ``image`` or ``document`` by the name, else ``auto``. Returns the bundle's
        record and its documents in page order, each with its extraction's record (None for a
        class without a schema and for ``other``). Raises ExtractionFailedError when the split
        itself failed; a document's failed extraction is in its record, not raised.
        """
        spec: dict[str, Any] = {"classes": [dict(c) for c in classes]}
        if other is not None:
            spec["other"] = other
        kind = type or _split_type(source, file, filename)
        done = self.extract(None, kind, source, file=file, filename=filename, split=spec, **options)
        return self.extractions.documents(done["id"])


def _split_type(
    source: Optional[str], file: Optional[FileInput], filename: Optional[str]
) -> SplitSourceType:
    if filename is not None:
        name = filename
    elif source is not None:
        name = urlsplit(source).path
    elif isinstance(file, (str, os.PathLike)):
        name = os.fspath(file)
    else:
        name = str(getattr(file, "name", ""))
    return _SPLIT_TYPES.get(PurePath(name).suffix.lower(), "auto")
