"""Reading vmaf-tune's JSONL rows in the tests, each checked against
docs/vmaf-tune-row.schema.json (the contract for people who parse them)."""
import json
import os

SCHEMA = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                                   "vmaf-tune-row.schema.json")))
schema_errors = []  # every violation seen so far, "path: message"


def rows(path):
    """Every row of a JSONL file; violations of the schema go to schema_errors."""
    with open(path) as f:
        out = [json.loads(l) for l in f if l.strip()]
    try:
        import jsonschema
        for r in out:
            for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(r):
                schema_errors.append(f"{path}: {e.message}")
    except ImportError:
        schema_errors.append("python3-jsonschema is not installed")
    return out
