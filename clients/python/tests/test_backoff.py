import unittest
from email.utils import formatdate

from xt_sdk._backoff import backoff_delay, parse_retry_after


class BackoffTest(unittest.TestCase):
    def test_jitters_under_a_doubling_cap_and_never_goes_below_retry_after(self) -> None:
        self.assertEqual(backoff_delay(3, 0.5, 30, rand=lambda: 1.0), 4.0)
        self.assertEqual(backoff_delay(10, 0.5, 30, rand=lambda: 1.0), 30)
        self.assertEqual(backoff_delay(0, 0.5, 30, retry_after=2, rand=lambda: 0.1), 2)
        self.assertEqual(backoff_delay(0, 0.5, 30, retry_after=100, rand=lambda: 0.1), 30)

    def test_reads_seconds_and_http_dates(self) -> None:
        self.assertEqual(parse_retry_after("7"), 7.0)
        from_date = parse_retry_after(formatdate(1_000_010, usegmt=True), now=1_000_000)
        assert from_date is not None
        self.assertAlmostEqual(from_date, 10, delta=1)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))


if __name__ == "__main__":
    unittest.main()
