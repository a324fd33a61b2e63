"""A list route: one page of it, or every record walked page by page."""

from __future__ import annotations

from typing import Any, Iterator, Mapping, cast

from ._transport import Transport
from .types import Page


class Listing:
    """One list route (``GET path``) that every resource's ``list`` and ``all`` go through."""

    def __init__(self, http: Transport, path: str) -> None:
        self._http = http
        self._path = path

    def page(self, query: Mapping[str, Any]) -> Page:
        """One page; a query value of None is not sent."""
        return cast(Page, self._http.request("GET", self._path, query=query).data)

    def every(self, query: Mapping[str, Any]) -> Iterator[Any]:
        """
        Every record, page after page (100 a request unless ``limit`` says), until
        ``meta.nextPageUrl`` is null. Records are newest first with stable ties, so a walk sees
        each once unless records are created meanwhile (they land on page 1 and shift later pages).
        """
        page = int(query.get("page") or 1)
        while True:
            result = self.page({**query, "page": page, "limit": query.get("limit") or 100})
            yield from result["data"]
            if result["meta"]["nextPageUrl"] is None or not result["data"]:
                return
            page += 1
