#!/usr/bin/env python3
"""Validates every corpus file and example against `arvis schema` with an independent validator (jsonschema).

Trailing commas (which iARVis accepts) are removed first with a small tokenizer that respects strings.
Usage: check_schema.py SCHEMA.json FILE...
"""
import json
import sys

import jsonschema


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
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    for path in sys.argv[2:]:
        document = json.loads(without_trailing_commas(open(path, encoding="utf-8").read()))
        errors = list(validator.iter_errors(document))
        if errors:
            failures += 1
            best = jsonschema.exceptions.best_match(errors)
            print(f"FAIL {path}: {best.message} at {'/'.join(map(str, best.absolute_path))}")
    print(f"schema check: {len(sys.argv) - 2 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
