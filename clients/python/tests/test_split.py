"""Splitting a bundle (docs/split.md): the type a bundle is sent as, and against the real service
``split()``, ``extractions.documents`` and ``list(parent_id=)``. ``tests/clients/python.test.ts``
writes the bundle, whose documents the model stand-in tells apart by their titles, and names it
in XT_TEST_BUNDLE: a cover letter (``other``), an invoice on pages 2-3, a contract, an invoice."""

from __future__ import annotations

import os
import unittest
from pathlib import Path

from xt_sdk import ApiError, SplitClass, XtClient
from xt_sdk.client import _split_type  # pyright: ignore[reportPrivateUsage]

INVOICE = {"type": "object", "properties": {"total": {"type": "number"}}}


class SplitTypeTest(unittest.TestCase):
    def test_a_bundle_is_sent_as_its_name_says_else_as_auto(self) -> None:
        self.assertEqual(_split_type(None, "mail/bundle.PDF", None), "pdf")
        self.assertEqual(_split_type(None, Path("scan.jpeg"), None), "image")
        self.assertEqual(_split_type(None, b"%PDF", "papers.docx"), "document")
        self.assertEqual(_split_type("https://example.com/in/bundle.pdf?v=2", None, None), "pdf")
        # No extension, or a kind no bundle can be: the service recognises it by its content.
        self.assertEqual(_split_type("https://example.com/bundle", None, None), "auto")
        self.assertEqual(_split_type(None, b"%PDF", None), "auto")
        self.assertEqual(_split_type(None, "letter.eml", None), "auto")


class SplitServiceTest(unittest.TestCase):
    client: XtClient
    schema_id: str
    bundle: str

    @classmethod
    def setUpClass(cls) -> None:
        missing = [n for n in ("XT_BASE_URL", "XT_API_KEY", "XT_TEST_BUNDLE") if not os.environ.get(n)]
        if missing:
            raise RuntimeError(f"these tests run against the service: set {', '.join(missing)}")
        cls.client = XtClient(backoff_base=0.02, backoff_cap=3.0)
        cls.schema_id = cls.client.schemas.create("Python bundle invoice", INVOICE)["id"]
        cls.bundle = os.environ["XT_TEST_BUNDLE"]

    def test_splits_a_bundle_and_answers_each_documents_extraction(self) -> None:
        classes: list[SplitClass] = [
            {"name": "invoice", "description": "A bill asking for payment", "schema_id": self.schema_id},
            {"name": "contract"},
        ]
        done = self.client.split(file=self.bundle, classes=classes)
        parent = done["parent"]
        self.assertEqual(parent["status"], "completed")
        self.assertIsNone(parent["schemaId"])
        split = parent.get("split")
        assert split is not None
        self.assertEqual([c["name"] for c in split["classes"]], ["invoice", "contract"])
        self.assertTrue(split["other"])
        documents = done["documents"]
        self.assertEqual(
            [(d["class"], d["pages"]["from"], d["pages"]["to"]) for d in documents],
            [("other", 1, 1), ("invoice", 2, 3), ("contract", 4, 4), ("invoice", 5, 5)],
        )
        # Only the invoices name a schema: they alone are extracted.
        self.assertEqual([d["extractionId"] is not None for d in documents], [False, True, False, True])
        for document in documents:
            record = document["extraction"]
            if document["extractionId"] is None:
                self.assertIsNone(record)
                continue
            assert record is not None
            self.assertEqual(record["status"], "completed")
            self.assertEqual(record.get("parentId"), parent["id"])
            self.assertEqual(record.get("pages"), document["pages"])
            self.assertEqual(record["schemaId"], self.schema_id)
            self.assertEqual(record["source"]["type"], "pdf")
        children = self.client.extractions.list(parent_id=parent["id"])
        self.assertEqual(
            sorted(c["id"] for c in children["data"]),
            sorted(d["extractionId"] for d in documents if d["extractionId"]),
        )
        # The same answer again, from the bundle's id alone.
        again = self.client.extractions.documents(parent["id"])
        self.assertEqual([d["extractionId"] for d in again["documents"]], [d["extractionId"] for d in documents])

    def test_a_refused_split_names_the_field(self) -> None:
        both = {"classes": [{"name": "invoice", "schema_id": self.schema_id}]}
        with self.assertRaises(ApiError) as caught:
            self.client.create_extraction(self.schema_id, "pdf", file=self.bundle, split=both)
        self.assertEqual(caught.exception.status, 422)
        self.assertIn("schema_id", caught.exception.fields)
        with self.assertRaises(ApiError) as reserved:
            self.client.split(file=self.bundle, classes=[{"name": "other"}])
        self.assertIn("split.classes[0].name", reserved.exception.fields)


if __name__ == "__main__":
    unittest.main()
