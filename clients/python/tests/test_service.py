"""The SDK against the real service (API, worker, PostgreSQL, Redis, the model stand-in), as
`tests/clients/python.test.ts` starts it: XT_BASE_URL and XT_API_KEY say where, and
XT_TEST_WEBHOOK_PORT is a port the service may deliver webhooks to."""

from __future__ import annotations

import json
import os
import queue
import tempfile
import threading
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from xt_sdk import (
    ApiError,
    ExtractionFailedError,
    NetworkError,
    XtClient,
    verify_webhook,
)

from .flaky_proxy import FlakyProxy

INVOICE = {
    "type": "object",
    "properties": {"total": {"type": "number"}, "vendor": {"type": "string"}},
}


def setUpModule() -> None:
    missing = [n for n in ("XT_BASE_URL", "XT_API_KEY") if not os.environ.get(n)]
    if missing:
        raise RuntimeError(f"these tests run against the service: set {', '.join(missing)}")


def _client(**options: object) -> XtClient:
    # Short backoff so retries do not slow the suite; Retry-After still sets the floor.
    return XtClient(backoff_base=0.02, backoff_cap=3.0, **options)  # type: ignore[arg-type]


class ServiceTest(unittest.TestCase):
    client: XtClient
    schema_id: str

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = _client()
        cls.schema_id = cls.client.schemas.create("Python invoice", INVOICE)["id"]


class SchemasTest(ServiceTest):
    def test_creates_reads_changes_and_deletes_a_schema(self) -> None:
        created = self.client.schemas.create("Receipt py", INVOICE, description="till slips")
        self.assertEqual(created["description"], "till slips")
        self.assertEqual(self.client.schemas.get(created["id"]), created)
        patched = self.client.schemas.update(created["id"], description=None)
        self.assertIsNone(patched["description"])
        replaced = self.client.schemas.replace(
            created["id"], "Receipt py v2", {"type": "object", "properties": {"vat": {"type": "number"}}}
        )
        self.assertEqual(replaced["name"], "Receipt py v2")
        self.client.schemas.delete(created["id"])
        with self.assertRaises(ApiError) as caught:
            self.client.schemas.get(created["id"])
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "NOT_FOUND"))

    def test_walks_every_page(self) -> None:
        prefix = f"paged-{uuid.uuid4().hex[:8]}"
        ids = {self.client.schemas.create(f"{prefix}-{i}", INVOICE)["id"] for i in range(5)}
        page = self.client.schemas.list(search=prefix, limit=2)
        self.assertEqual((page["meta"]["total"], page["meta"]["lastPage"]), (5, 3))
        walked = [s["id"] for s in self.client.schemas.all(search=prefix, page_size=2)]
        self.assertEqual(len(walked), 5)
        self.assertEqual(set(walked), ids)

    def test_a_refusal_carries_the_envelope(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.client.schemas.create("bad", {"type": "object", "properties": {"x": {"type": "date"}}})
        error = caught.exception
        self.assertEqual(error.status, 422)
        self.assertEqual(error.fields, ["structure.properties.x.type"])
        self.assertEqual(error.body["status"], False)  # type: ignore[index]
        self.assertTrue(error.request_id)

    def test_suggests_a_structure_from_sample_files(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            sample = Path(folder) / "invoice.txt"
            sample.write_text("Invoice number: INV-7\n取引先: 株式会社サンプル\n", encoding="utf-8")
            suggestion = self.client.schemas.suggest(
                [sample, b"Invoice number: INV-8\nTotal due: 12.50 EUR"], prompt="supplier invoices"
            )
        self.assertEqual(
            list(suggestion["structure"].get("properties", {})), ["invoice_number", "取引先", "total_due"]
        )
        self.assertEqual([s["file"]["name"] for s in suggestion["samples"]], ["invoice.txt", "upload"])
        self.assertEqual(len(suggestion["usage"]["extractions"]), 4)
        created = self.client.schemas.create("Suggested py", suggestion["structure"])
        self.assertEqual(created["structure"], suggestion["structure"])
        with self.assertRaises(ApiError) as caught:
            self.client.schemas.suggest([])
        self.assertEqual((caught.exception.status, caught.exception.fields), (422, ["files"]))

    def test_converts_a_json_schema(self) -> None:
        pydantic = {
            "$defs": {"Line": {"properties": {"amount": {"type": "number"}}, "type": "object"}},
            "properties": {
                "lines": {"items": {"$ref": "#/$defs/Line"}, "type": "array"},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                "code": {"type": "string", "pattern": "^[A-Z]+$"},
            },
            "required": ["lines"],
            "type": "object",
        }
        conversion = self.client.schemas.convert(pydantic)
        self.assertEqual(
            conversion["structure"],
            {
                "type": "object",
                "properties": {
                    "lines": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"amount": {"type": "number"}}},
                        "required": True,
                    },
                    "note": {"type": "string"},
                    "code": {"type": "string"},
                },
            },
        )
        self.assertEqual([d["path"] for d in conversion["dropped"]], ["/properties/code/pattern"])


class ModelsTest(ServiceTest):
    def test_lists_the_models_the_service_serves(self) -> None:
        models = self.client.models.list()
        # The test service's default configuration: the two GPT-4.1 names, the first the default.
        self.assertEqual([m["id"] for m in models], ["gpt-4.1", "gpt-4.1-mini"])
        self.assertEqual([m["default"] for m in models], [True, False])
        self.assertEqual(set(models[0]), {"id", "default", "capabilities", "probedAt"})


class ExtractionsTest(ServiceTest):
    def test_extracts_text_and_waits_for_the_answer(self) -> None:
        done = self.client.extract(self.schema_id, "text", "Invoice. Total due: 12.50 EUR")
        self.assertEqual(done["status"], "completed")
        self.assertEqual(set(done["output"]), {"total", "vendor"})
        self.assertNotIn("citations", done)

    def test_polls_when_the_service_answers_202(self) -> None:
        created = self.client.create_extraction(self.schema_id, "text", "Total 3", wait_seconds=0)
        self.assertEqual(created.http_status, 202)
        self.assertIn(created.extraction["status"], ("pending", "processing"))
        record = self.client.wait(created.extraction["id"], initial_delay=0.2, timeout=60)
        self.assertEqual(record["status"], "completed")
        done = self.client.extract(self.schema_id, "text", "Total 4", wait_seconds=0, timeout=60)
        self.assertEqual(done["status"], "completed")

    def test_uploads_a_file_from_a_path_bytes_or_an_open_file(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "invoice.md")
            path.write_text("# Invoice\n\nTotal 9", encoding="utf-8")
            by_path = self.client.extract(self.schema_id, "text", file=path, metadata={"batch": "py"})
            with open(path, "rb") as handle:
                by_handle = self.client.extract(self.schema_id, "text", file=handle)
        by_bytes = self.client.extract(self.schema_id, "text", file=b"Total 10", filename="b.txt")
        record = self.client.extractions.get(by_path["id"])
        self.assertEqual(record["source"]["file"]["name"], "invoice.md")  # type: ignore[typeddict-item]
        self.assertEqual(record["metadata"], {"batch": "py"})
        self.assertEqual(self.client.extractions.get(by_handle["id"])["source"]["file"]["name"], "invoice.md")  # type: ignore[typeddict-item]
        self.assertEqual(self.client.extractions.get(by_bytes["id"])["source"]["file"]["name"], "b.txt")  # type: ignore[typeddict-item]

    def test_asks_for_citations(self) -> None:
        done = self.client.extract(self.schema_id, "text", "Invoice. Total 12.50", citations=True)
        self.assertIn("citations", self.client.extractions.get(done["id"]))
        item = next(i for i in self.client.extractions.all(schema_id=self.schema_id) if i["id"] == done["id"])
        self.assertIn("citations", item)

    def test_reuses_an_earlier_answer_unless_told_not_to(self) -> None:
        text = f"Invoice {uuid.uuid4()}. Total 21.50"
        first = self.client.extract(self.schema_id, "text", text)
        self.assertNotIn("reused", first)
        again = self.client.extract(self.schema_id, "text", text, cache_max_age=3600)
        self.assertEqual(again.get("reused"), {"extractionId": first["id"]})
        self.assertEqual(again["totalTokens"], 0)
        self.assertEqual(again["output"], first["output"])
        self.assertFalse(self.client.extractions.get(again["id"])["charged"])
        fresh = self.client.extract(self.schema_id, "text", text, cache=False)
        self.assertNotIn("reused", fresh)
        form = self.client.extract(
            self.schema_id, "text", file=text.encode(), filename="t.txt", cache_max_age=3600
        )
        self.assertNotIn("reused", form)  # a file is keyed by its bytes and content type
        form_again = self.client.extract(
            self.schema_id, "text", file=text.encode(), filename="u.txt", cache_max_age=3600
        )
        self.assertEqual(form_again.get("reused"), {"extractionId": form["id"]})

    def test_a_failed_extraction_raises_with_its_code(self) -> None:
        with self.assertRaises(ExtractionFailedError) as caught:
            self.client.extract(self.schema_id, "pdf", file=b"%PDF-1.7\nnot really a PDF\n%%EOF\n", filename="x.pdf")
        failed = caught.exception
        self.assertTrue(failed.failure_code.startswith("SOURCE_"))
        self.assertEqual(self.client.extractions.get(failed.extraction_id)["status"], "failed")

    def test_a_refused_request_is_an_api_error_naming_the_field(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.client.extract(str(uuid.uuid4()), "text", "Total 1")
        self.assertEqual(caught.exception.status, 422)
        self.assertIn("schema_id", caught.exception.fields)

    def test_lists_filters_and_deletes(self) -> None:
        schema = self.client.schemas.create(f"list-{uuid.uuid4().hex[:8]}", INVOICE)["id"]
        ids = {self.client.extract(schema, "text", f"Total {i}")["id"] for i in range(3)}
        listed = [e["id"] for e in self.client.extractions.all(schema_id=schema, page_size=2)]
        self.assertEqual(set(listed), ids)
        self.assertEqual(self.client.extractions.list(schema_id=schema, status="failed")["meta"]["total"], 0)
        gone = listed[0]
        self.client.extractions.delete(gone)
        with self.assertRaises(ApiError) as caught:
            self.client.extractions.get(gone)
        self.assertEqual(caught.exception.status, 404)

    def test_reviews_a_queued_extraction_and_exports_it(self) -> None:
        review = {"minConfidence": 0.5, "sample": 1}
        schema = self.client.schemas.create(f"review-{uuid.uuid4().hex[:8]}", INVOICE, review=review)
        self.assertEqual(schema.get("review"), review)
        done = self.client.extract(schema["id"], "text", "Total 5")
        queued = [e["id"] for e in self.client.reviews.all(schema_id=schema["id"], status="needs_review")]
        self.assertEqual(queued, [done["id"]])
        with self.assertRaises(ApiError) as caught:
            self.client.extractions.review(done["id"], "approve", corrections={"/total": "five"})
        self.assertEqual(caught.exception.fields, ['corrections["/total"]'])
        reviewed = self.client.extractions.review(
            done["id"], "approve", corrections={"/total": 5}, note="checked"
        )
        self.assertEqual((reviewed.get("review") or {}).get("status"), "approved")
        self.assertEqual((reviewed.get("reviewedResult") or {}).get("total"), 5)
        cases = list(self.client.schemas.all_dataset(schema["id"]))
        self.assertEqual([(c["case"], c["expected"]["total"]) for c in cases], [(done["id"], 5)])

    def test_the_same_idempotency_key_gives_the_same_extraction(self) -> None:
        key = f"py-{uuid.uuid4()}"
        first = self.client.create_extraction(self.schema_id, "text", "Total 5", idempotency_key=key)
        second = self.client.create_extraction(self.schema_id, "text", "Total 5", idempotency_key=key)
        self.assertEqual(first.extraction["id"], second.extraction["id"])
        self.assertEqual((first.replayed, second.replayed), (False, True))


class RetriesTest(ServiceTest):
    def setUp(self) -> None:
        self.proxy = FlakyProxy(os.environ["XT_BASE_URL"])
        self.via = _client(base_url=self.proxy.url)

    def tearDown(self) -> None:
        self.proxy.close()

    def _count(self) -> int:
        return self.client.extractions.list(schema_id=self.schema_id, limit=1)["meta"]["total"]

    def test_retries_503_and_429_after_retry_after_with_the_same_idempotency_key(self) -> None:
        before = self._count()
        self.proxy.plan = ["503", "429"]
        done = self.via.extract(self.schema_id, "text", "Total 6")
        self.assertEqual(done["status"], "completed")
        keys = [h["idempotency-key"] for h in self.proxy.planned_requests()]
        self.assertEqual(len(keys), 3)
        self.assertEqual(len(set(keys)), 1)
        self.assertEqual(self._count(), before + 1)

    def test_a_lost_answer_is_asked_again_and_replayed_not_made_twice(self) -> None:
        before = self._count()
        self.proxy.plan = ["drop"]
        created = self.via.create_extraction(self.schema_id, "text", "Total 7")
        self.assertTrue(created.replayed)
        self.assertEqual(created.extraction["status"], "completed")
        self.assertEqual(len({h["idempotency-key"] for h in self.proxy.planned_requests()}), 1)
        self.assertEqual(self._count(), before + 1)

    def test_a_progress_callback_asks_not_to_be_held(self) -> None:
        done = self.via.extract(self.schema_id, "text", "Total 9", on_progress=lambda _: None, timeout=60)
        self.assertEqual(done["status"], "completed")
        self.assertEqual([h.get("prefer") for h in self.proxy.planned_requests()], ["wait=0"])
        self.via.extract(self.schema_id, "text", "Total 10", on_progress=lambda _: None, wait_seconds=20)
        self.assertEqual(self.proxy.planned_requests()[-1].get("prefer"), "wait=20")

    def test_gives_up_after_max_retries(self) -> None:
        client = _client(base_url=self.proxy.url, max_retries=1)
        self.proxy.plan = ["503", "503"]
        with self.assertRaises(ApiError) as caught:
            client.create_extraction(self.schema_id, "text", "Total 8")
        self.assertEqual((caught.exception.status, caught.exception.retry_after), (503, 1.0))
        refused = _client(base_url="http://127.0.0.1:9", max_retries=1)
        with self.assertRaises(NetworkError):
            refused.schemas.list()


class WebhookDeliveryTest(ServiceTest):
    def test_verifies_what_the_service_delivers(self) -> None:
        port = int(os.environ["XT_TEST_WEBHOOK_PORT"])
        received: "queue.Queue[tuple[dict[str, str], bytes]]" = queue.Queue()

        class Receiver(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                received.put((dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

        server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            endpoint = self.client.webhooks.create(
                f"http://127.0.0.1:{port}/hook", ["extraction.completed"]
            )
            done = self.client.extract(self.schema_id, "text", "Total 11")
            headers, body = received.get(timeout=30)
            event = verify_webhook(endpoint["secret"], headers, body)
            self.assertEqual((event["type"], event["data"]["id"]), ("extraction.completed", done["id"]))
            self.assertEqual(json.loads(body), event)
            # The attempt is recorded before it is sent, so it is listed once it has arrived.
            attempts = list(self.client.webhooks.all_deliveries(endpoint["id"], page_size=1))
            self.assertEqual([(a["eventId"], a["type"]) for a in attempts], [(event["id"], "extraction.completed")])
            walked = [e["id"] for e in self.client.webhooks.all(search=f"127.0.0.1:{port}/hook", page_size=1)]
            self.assertEqual(walked, [endpoint["id"]])
            rotated = self.client.webhooks.rotate_secret(endpoint["id"])
            self.assertNotEqual(rotated["secret"], endpoint["secret"])
            self.client.webhooks.delete(endpoint["id"])
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main()
