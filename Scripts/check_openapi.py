"""Checks openapi.yaml: a valid OpenAPI 3.1 document (openapi-spec-validator), every operation with
an operationId, a unique one, and every error response in the one error shape.

Usage: python3 Scripts/check_openapi.py openapi.yaml
"""
import sys

from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

METHODS = ("get", "put", "post", "patch", "delete")


def main():
    spec, _ = read_from_filename(sys.argv[1])
    validate(spec)
    problems, seen = [], set()
    responses = spec["components"]["responses"]
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            name = operation.get("operationId")
            if not name:
                problems.append(f"{method.upper()} {path} has no operationId")
            elif name in seen:
                problems.append(f"operationId {name} is used twice")
            seen.add(name)
            for status, response in operation["responses"].items():
                if "$ref" in response:
                    response = responses[response["$ref"].split("/")[-1]]
                content = response.get("content", {}).get("application/json", {})
                schema = content.get("schema", {})
                is_error = status.startswith("4") or status.startswith("5")
                if is_error and status != "304" and content and schema.get("$ref") not in ("#/components/schemas/Error", "#/components/schemas/InvalidSpec"):
                    problems.append(f"{method.upper()} {path} {status} is not the error shape")
    for problem in problems:
        print(problem)
    print(f"openapi: {len(seen)} operations, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
