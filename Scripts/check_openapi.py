"""Checks openapi.yaml: a valid OpenAPI 3.1 document (openapi-spec-validator), every operation with
an operationId, a unique one, and every error response in the one error shape.

Usage: python3 Scripts/check_openapi.py openapi.yaml
Prints one line per check and ends with `N passed, N failed`.
"""
import os
import sys

from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402

METHODS = ("get", "put", "post", "patch", "delete")
ERROR_SHAPES = ("#/components/schemas/Error", "#/components/schemas/InvalidSpec")


def main():
    check = Checks()
    spec, _ = read_from_filename(sys.argv[1])
    try:
        validate(spec)
        problem = None
    except OpenAPIValidationError as error:
        problem = error.message
    check(f"{sys.argv[1]} is a valid OpenAPI document", problem is None, problem)
    unnamed, twice, not_error_shape, seen, operations = [], [], [], set(), 0
    responses = spec["components"]["responses"]
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            operations += 1
            name = operation.get("operationId")
            if not name:
                unnamed.append(f"{method.upper()} {path}")
            elif name in seen:
                twice.append(name)
            seen.add(name)
            for status, response in operation["responses"].items():
                if "$ref" in response:
                    response = responses[response["$ref"].split("/")[-1]]
                content = response.get("content", {}).get("application/json", {})
                schema = content.get("schema", {})
                is_error = status.startswith("4") or status.startswith("5")
                if is_error and status != "304" and content and schema.get("$ref") not in ERROR_SHAPES:
                    not_error_shape.append(f"{method.upper()} {path} {status}")
    check(f"every operation ({operations}) has an operationId", not unnamed, f"none on {', '.join(unnamed)}")
    check("no operationId is used twice", not twice, f"used twice: {', '.join(twice)}")
    check("every error response is in the error shape", not not_error_shape, f"not in it: {', '.join(not_error_shape)}")
    check.finish()


if __name__ == "__main__":
    main()
