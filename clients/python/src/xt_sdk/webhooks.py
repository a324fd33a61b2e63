"""Standard Webhooks verification (docs/webhooks.md#headers-and-signature)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union, cast

from .errors import WebhookVerificationError
from .types import WebhookEvent

SECRET_PREFIX = "whsec_"


def verify_webhook(
    secret: str,
    headers: Mapping[str, Any],
    body: Union[bytes, str],
    *,
    tolerance_seconds: float = 300,
    now: Optional[float] = None,
) -> WebhookEvent:
    """
    Checks a webhook request and returns its parsed event; raises WebhookVerificationError
    otherwise. ``body`` is the raw body as received (re-serialised JSON does not verify);
    ``headers`` any mapping (names in any case, as ``http.server`` or a framework gives them).
    ``webhook-signature`` may list several space-separated signatures during a rotation: one
    matching ``v1`` is enough, compared in constant time.
    """
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    if not timestamp.isdigit():
        raise WebhookVerificationError("malformed webhook-timestamp")
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    if not secret.startswith(SECRET_PREFIX):
        raise WebhookVerificationError("the secret does not start with whsec_")
    try:
        key = base64.b64decode(secret[len(SECRET_PREFIX) :], validate=True)
    except binascii.Error:
        raise WebhookVerificationError("the secret is not base64") from None
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    expected = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + raw, hashlib.sha256).digest()
    for entry in signatures.split(" "):
        version, _, mac = entry.partition(",")
        if version != "v1" or not mac:
            continue
        try:
            given = base64.b64decode(mac, validate=True)
        except binascii.Error:
            continue
        if hmac.compare_digest(given, expected):
            break
    else:
        raise WebhookVerificationError("no signature matches")
    try:
        return cast(WebhookEvent, json.loads(raw))
    except ValueError:
        raise WebhookVerificationError("the body is not JSON") from None


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    value: Any = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if k.lower() == name), None)
    if isinstance(value, (list, tuple)):
        items = cast("list[Any]", value)  # as some frameworks give repeated headers
        value = items[0] if items else None
    return None if value is None else str(value)
