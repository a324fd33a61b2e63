"""HTTP with urllib: JSON and multipart bodies, the envelope, retries."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from typing import Any, Mapping, Optional, cast

from ._backoff import backoff_delay, parse_retry_after
from .errors import ApiError, NetworkError

RETRY_STATUSES = frozenset({429, 503})


@dataclass
class Response:
    status: int
    headers: Message
    data: Any


@dataclass
class RetryPolicy:
    """Retries after the first try, for network errors, 429 and 503."""

    max_retries: int = 3
    #: first delay cap in seconds
    base: float = 0.5
    #: largest delay in seconds, Retry-After included
    cap: float = 30.0


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A 202 carries Location; following it would turn a create into a GET.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Transport:
    def __init__(
        self, base_url: str, api_key: str, retry: RetryPolicy, timeout: float
    ) -> None:
        trimmed = base_url.rstrip("/")
        self.base = trimmed if trimmed.endswith("/v1") else f"{trimmed}/v1"
        self.api_key = api_key
        self.retry = retry
        self.timeout = timeout
        self._opener = urllib.request.build_opener(_NoRedirect)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = None,
        body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        resendable: bool = True,
    ) -> Response:
        """
        One call, retried: network errors only when ``resendable`` (a read, a delete, or a create
        carrying an Idempotency-Key, which the service answers with the same resource); 429 and
        503 always, since the service did not act on them.
        """
        url = self._url(path, query)
        sent = {"Accept": "application/json", **(headers or {})}
        sent["Authorization"] = f"Bearer {self.api_key}"
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            content_type = "application/json"
        if content_type is not None:
            sent["Content-Type"] = content_type

        attempt = 0
        while True:
            req = urllib.request.Request(url, data=body, headers=sent, method=method)
            try:
                with self._opener.open(req, timeout=self.timeout) as res:
                    return Response(res.status, res.headers, _data(_read_json(res.read())))
            except urllib.error.HTTPError as error:
                status, res_headers = error.code, error.headers
                payload = _read_json(error.read())
                retry_after = parse_retry_after(res_headers.get("Retry-After"))
                if status in RETRY_STATUSES and attempt < self.retry.max_retries:
                    time.sleep(backoff_delay(attempt, self.retry.base, self.retry.cap, retry_after))
                    attempt += 1
                    continue
                if status < 400:
                    # 202 and other non-2xx successes urllib reports as errors (no redirect).
                    return Response(status, res_headers, _data(payload))
                raise ApiError(
                    status,
                    cast("dict[str, Any]", payload) if isinstance(payload, dict) else None,
                    request_id=res_headers.get("x-request-id"),
                    retry_after=retry_after,
                ) from None
            except (urllib.error.URLError, http.client.HTTPException, OSError, socket.timeout) as error:
                if not resendable or attempt >= self.retry.max_retries:
                    raise NetworkError(f"{method} {url} got no answer: {error}") from error
                time.sleep(backoff_delay(attempt, self.retry.base, self.retry.cap))
                attempt += 1

    def _url(self, path: str, query: Optional[Mapping[str, Any]]) -> str:
        url = self.base + path
        pairs = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        return f"{url}?{urllib.parse.urlencode(pairs)}" if pairs else url


def _query_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _read_json(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        # A proxy's HTML error page: the status still says what happened.
        return {"status": False, "message": raw[:200].decode("utf-8", "replace")}


def _data(payload: Any) -> Any:
    return cast("dict[str, Any]", payload).get("data") if isinstance(payload, dict) else None
