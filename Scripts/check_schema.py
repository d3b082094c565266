#!/usr/bin/env python3
"""Validates every corpus file and example against `arvis schema` with an independent validator (jsonschema).

Trailing commas (which iARVis accepts) are removed first with a small tokenizer that respects strings.
Usage: check_schema.py SCHEMA.json FILE...
Prints one line per file and ends with `N passed, N failed`.
"""
import json
import os
import sys

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402


def without_trailing_commas(text):
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c == ",":
            j = i + 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if j < len(text) and text[j] in "]}":
                i += 1
                continue
            out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def main():
    check = Checks()
    schema = json.load(open(sys.argv[1]))
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
        problem = None
    except jsonschema.exceptions.SchemaError as error:
        problem = error.message
    check.require(f"{sys.argv[1]} is a valid JSON Schema (2020-12)", problem is None, problem)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        document = json.loads(without_trailing_commas(open(path, encoding="utf-8").read()))
        error = jsonschema.exceptions.best_match(validator.iter_errors(document))
        check(path, error is None, "" if error is None else f"{error.message} at {'/'.join(map(str, error.absolute_path))}")
    check.finish()


if __name__ == "__main__":
    main()
