"""Walking every page of a list route."""

from __future__ import annotations

from typing import Any, Callable, Iterator, TypeVar

from .types import Page

T = TypeVar("T")


def iterate_pages(fetch: Callable[[dict[str, Any]], Page], query: dict[str, Any]) -> Iterator[Any]:
    """
    Every record, page after page (100 a request unless ``limit`` says), until
    ``meta.nextPageUrl`` is null. Records are newest first with stable ties, so a walk sees each
    once unless records are created meanwhile (they land on page 1 and shift later pages).
    """
    page = int(query.get("page") or 1)
    while True:
        result = fetch({**query, "page": page, "limit": query.get("limit") or 100})
        yield from result["data"]
        if result["meta"]["nextPageUrl"] is None or not result["data"]:
            return
        page += 1
