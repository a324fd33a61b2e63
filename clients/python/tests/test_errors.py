import unittest

from xt_sdk.errors import ApiError


class ApiErrorTest(unittest.TestCase):
    def test_names_each_field_of_a_422_once(self) -> None:
        error = ApiError(
            422,
            {
                "status": False,
                "message": "Validation failed",
                "errors": [
                    {"field": "source", "message": "source is not a spreadsheet"},
                    {"field": "schema_id", "message": "must be a schema of this account"},
                ],
            },
        )
        self.assertEqual(
            str(error),
            "422 Validation failed (source is not a spreadsheet; "
            "schema_id: must be a schema of this account)",
        )


if __name__ == "__main__":
    unittest.main()
