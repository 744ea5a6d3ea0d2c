#!/usr/bin/python3
"""Validates JSON files meshmp wrote against their JSON Schema (sims/schema/*.schema.json).

Usage: validate_json.py SCHEMA FILE...      e.g. validate_json.py run.schema.json meshmp-stats.json
SCHEMA is a path, or the name of one of meshmp's schemas (run.schema.json, traffic.schema.json, ...), found
in the installed share/meshmp/schema or the source tree's sims/schema. It may name a part of a schema after
'#' (a JSON pointer): bench.schema.json#/properties/cases/items. A schema's "$ref" to another file is read
beside it. Prints "FILE: valid (SCHEMA)" for each file that matches and every violation with its place in
the file; exits 1 when there is one, 2 when a file cannot be read.
"""
import json
import os
import sys
import warnings

import jsonschema

# RefResolver is deprecated in newer jsonschema releases, and the only way in Debian 12's (4.10).
warnings.filterwarnings("ignore", category=DeprecationWarning)


class Unreadable(Exception):
    """A schema or a file that cannot be read as JSON (exit 2)."""


def read_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Unreadable(f"validate_json: {what}{path}: {e}") from e


def find_schema(path):
    """A schema given by path, or by name beside this script's installed share/meshmp/schema or sims/schema."""
    if os.path.exists(path) or os.sep in path:
        return path
    here = os.path.dirname(os.path.realpath(__file__))
    for directory in (os.path.join(here, "..", "share", "meshmp", "schema"), os.path.join(here, "schema")):
        candidate = os.path.join(directory, path)
        if os.path.exists(candidate):
            return candidate
    return path


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    path, _, pointer = sys.argv[1].partition("#")
    path = find_schema(path)
    directory = os.path.dirname(os.path.abspath(path))
    whole = read_json(path, "schema ")
    store = {}
    for name in os.listdir(directory):
        if name.endswith(".schema.json"):
            schema = read_json(os.path.join(directory, name), "schema ")
            store[schema.get("$id", name)] = schema
    resolver = jsonschema.RefResolver(base_uri=whole.get("$id", ""), referrer=whole, store=store)
    schema = resolver.resolve("#" + pointer)[1] if pointer else whole
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    status = 0
    for name in sys.argv[2:]:
        document = read_json(name, "")
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors:
            place = "/".join(str(p) for p in error.absolute_path) or "(the whole file)"
            print(f"{name}: {place}: {error.message}", file=sys.stderr)
            status = 1
        if not errors:
            print(f"{name}: valid ({os.path.basename(path)}{'#' + pointer if pointer else ''})")
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Unreadable as e:
        print(e, file=sys.stderr)
        sys.exit(2)
