"""The webhook endpoints' and deliveries' wire types (docs/webhooks.md)."""

from __future__ import annotations

from typing import Literal, Optional, TypedDict

from .types import Extraction, WebhookEventType


class WebhookEndpoint(TypedDict):
    id: str
    url: str
    events: list[WebhookEventType]
    description: Optional[str]
    enabled: bool
    createdAt: str


class WebhookEndpointWithSecret(WebhookEndpoint):
    """Only ``webhooks.create`` and ``rotate_secret`` show the secret; store it then."""

    secret: str


class WebhookDelivery(TypedDict):
    id: str
    eventId: str
    type: WebhookEventType
    attempt: int
    status: Literal["pending", "delivered", "failed"]
    responseStatus: Optional[int]
    error: Optional[str]
    createdAt: str


class WebhookEvent(TypedDict):
    """The body of a webhook request (docs/webhooks.md)."""

    id: str
    type: WebhookEventType
    createdAt: str
    data: Extraction
    metadata: dict[str, str]
