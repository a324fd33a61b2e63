import base64
import hashlib
import hmac
import json
import time
import unittest

from xt_sdk import WebhookVerificationError, verify_webhook

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
BODY = json.dumps({"id": "evt_1", "type": "extraction.completed", "data": {"id": "x"}})


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    key = base64.b64decode(secret[len("whsec_") :])
    mac = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def headers(timestamp: int, signature: str) -> dict:
    return {"Webhook-Id": "msg_1", "Webhook-Timestamp": str(timestamp), "Webhook-Signature": signature}


class VerifyWebhookTest(unittest.TestCase):
    def test_accepts_a_signed_body_and_returns_the_event(self) -> None:
        now = int(time.time())
        event = verify_webhook(SECRET, headers(now, sign(SECRET, "msg_1", now, BODY)), BODY.encode())
        self.assertEqual(event["type"], "extraction.completed")

    def test_accepts_any_of_several_signatures_during_a_rotation(self) -> None:
        now = int(time.time())
        other = "whsec_" + base64.b64encode(b"another secret of 32 bytes......").decode()
        both = f"{sign(other, 'msg_1', now, BODY)} {sign(SECRET, 'msg_1', now, BODY)}"
        self.assertEqual(verify_webhook(SECRET, headers(now, both), BODY)["id"], "evt_1")

    def test_refuses_a_changed_body_a_wrong_secret_and_an_old_timestamp(self) -> None:
        now = int(time.time())
        good = sign(SECRET, "msg_1", now, BODY)
        with self.assertRaisesRegex(WebhookVerificationError, "no signature matches"):
            verify_webhook(SECRET, headers(now, good), BODY.replace("x", "y"))
        wrong = "whsec_" + base64.b64encode(b"w" * 32).decode()
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(wrong, headers(now, good), BODY)
        old = now - 301
        with self.assertRaisesRegex(WebhookVerificationError, "tolerance"):
            verify_webhook(SECRET, headers(old, sign(SECRET, "msg_1", old, BODY)), BODY)
        with self.assertRaisesRegex(WebhookVerificationError, "missing"):
            verify_webhook(SECRET, {}, BODY)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, headers(now, "v2," + good[3:]), BODY)


if __name__ == "__main__":
    unittest.main()
