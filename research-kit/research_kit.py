#!/usr/bin/env python3
"""Complete, source-consistent capture of one Evidence Desk dataset (Python 3.8+, stdlib only).

    python3 research_kit.py --base https://desk.example --dataset money_markets --out capture-1
    python3 research_kit.py --base https://desk.example --desk --out desk-1

Every page of the table is read from one snapshot: the first page names its snapshot_id and
each further page asks for it. Each page is checked (schema, constants, echoes, progress, and
the same sources and total on every page); any failed check refuses the whole capture, so a
partial export is never written. The output directory must not exist yet. It receives
evidence.json (sorted keys), rows.csv (nulls blank, formula-like text escaped with an
apostrophe, numbers as sent) and receipt.json (SHA-256 of both).

Exit status: 0 written, 1 capture refused (reason printed), 2 could not run.
One JSON line is printed on stdout; a progress bar goes to stderr when it is a terminal.
"""

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

VERSION = "1"
TABLE_SCHEMA = "liquidity-lab.openbb-table.v1"
CAPTURE_SCHEMA = "financial-evidence.research-capture.v1"
CSV_POLICY = "nulls_empty_formula_strings_escaped_original_values_in_json"
HISTORY_SCOPE = "currently_published_not_as_published_vintages"
MAX_PAGE_BYTES = 4 * 1024 * 1024
DATASETS = ("money_markets", "money_market_history", "capital_markets", "bank_risk",
            "market_liquidity", "china_economy", "source_health")
DESK = ("money_markets", "bank_risk", "market_liquidity")
SNAPSHOT = re.compile(r"^[0-9a-f]{32}$")
HASH = re.compile(r"^(?:sha256:)?([0-9a-f]{64})$")
DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


class Refused(Exception):
    """The server answered, but not with something a complete capture can be made of."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


class CouldNotRun(Exception):
    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def check_inputs(args, dataset):
    if dataset not in DATASETS:
        raise CouldNotRun("invalid_input", "--dataset must be one of " + ", ".join(DATASETS))
    if len(args.entity) > 100:
        raise CouldNotRun("invalid_input", "--entity must be at most 100 characters")
    for name, value in (("--start-date", args.start_date), ("--end-date", args.end_date)):
        if value:
            if not DATE.match(value):
                raise CouldNotRun("invalid_input", name + " must be a calendar date written YYYY-MM-DD")
            try:
                import datetime
                datetime.date(int(value[:4]), int(value[5:7]), int(value[8:]))
            except ValueError:
                raise CouldNotRun("invalid_input", name + " must be a calendar date written YYYY-MM-DD")
    if args.start_date and args.end_date and args.start_date > args.end_date:
        raise CouldNotRun("invalid_input", "--start-date must not be after --end-date")
    if not 1 <= args.page_size <= 2000:
        raise CouldNotRun("invalid_input", "--page-size must be a whole number from 1 to 2000")
    if not 1 <= args.max_pages <= 20:
        raise CouldNotRun("invalid_input", "--max-pages must be a whole number from 1 to 20")
    if args.snapshot and not SNAPSHOT.match(args.snapshot):
        raise CouldNotRun("invalid_input", "--snapshot must be a snapshot id (32 lowercase hexadecimal characters)")
    parts = urllib.parse.urlsplit(args.base)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment or "@" in parts.netloc:
        raise CouldNotRun("invalid_input", "--base must be an absolute http or https URL without query, fragment or credentials")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def get(url, headers):
    request = urllib.request.Request(url, headers=headers, method="GET")
    try:
        response = OPENER.open(request, timeout=30)
    except urllib.error.HTTPError as error:
        response = error
    except (urllib.error.URLError, OSError) as error:
        raise CouldNotRun("unreachable", "the server could not be reached (%s)" % type(error).__name__)
    with response:
        body = response.read(MAX_PAGE_BYTES + 1)
        return response.status if hasattr(response, "status") else response.code, response.headers.get("Content-Type"), body


def page_url(args, dataset, offset, snapshot):
    params = [("dataset", dataset)]
    if args.entity:
        params.append(("entity", args.entity))
    if args.start_date:
        params.append(("start_date", args.start_date))
    if args.end_date:
        params.append(("end_date", args.end_date))
    params += [("limit", str(args.page_size)), ("offset", str(offset))]
    if snapshot:
        params.append(("snapshot", snapshot))
    return args.base.rstrip("/") + "/api/v1/query?" + urllib.parse.urlencode(params)


def _no_constants(text):
    raise ValueError("non-finite number " + text)


def _pairs(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError("duplicate key")
        seen[key] = value
    return seen


def _finite_float(text):
    value = float(text)
    if math.isinf(value):
        raise ValueError("number out of range")
    return value


def read_page(status, content_type, body):
    if 300 <= status < 400:
        raise Refused("redirect", "the server answered %d (a redirect); redirects are not followed" % status)
    if status != 200:
        raise Refused("http_status", "the server answered HTTP %d" % status)
    media = (content_type or "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("content_type", "the server sent %s, not application/json" % (media or "no media type"))
    if len(body) > MAX_PAGE_BYTES:
        raise Refused("too_large", "a page is larger than %d bytes" % MAX_PAGE_BYTES)
    try:
        page = json.loads(body.decode("utf-8"), parse_constant=_no_constants,
                          object_pairs_hook=_pairs, parse_float=_finite_float)
    except (ValueError, UnicodeDecodeError):
        raise Refused("invalid_json", "a page is not strict JSON (non-finite numbers, duplicate keys or bad syntax)")
    if not isinstance(page, dict):
        raise Refused("invalid_page", "a page is not a JSON object")
    return page


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def acceptable_source_url(url, sample):
    if not isinstance(url, str) or not url:
        return False
    if url.startswith("https://") or (sample and url.startswith("sample:")):
        return True
    parts = urllib.parse.urlsplit(url)
    return parts.scheme == "http" and parts.hostname in ("localhost", "127.0.0.1", "::1")


def source_set(page):
    sources = page.get("sources")
    if not isinstance(sources, list) or not sources:
        raise Refused("invalid_page", "a page lists no sources")
    out = []
    for source in sources:
        if not isinstance(source, dict) or not acceptable_source_url(source.get("source_url"), page.get("sample") is True):
            raise Refused("invalid_page", "a page lists a source without an acceptable source_url")
        digest = source.get("content_sha256")
        match = HASH.match(digest) if isinstance(digest, str) else None
        if not match:
            raise Refused("invalid_page", "source %s has no content hash" % source.get("source_url"))
        out.append(source["source_url"] + " " + match.group(1))
    return "\n".join(sorted(out))


def check_page(page, dataset, page_size, offset):
    if page.get("schema") != TABLE_SCHEMA:
        raise Refused("invalid_page", "a page's schema is not " + TABLE_SCHEMA)
    if page.get("dataset") != dataset:
        raise Refused("invalid_page", "a page is for another dataset")
    if page.get("transport_status") != "complete":
        raise Refused("transport_incomplete", "transport_status is %s, not complete: some source could not be retrieved (inspect /api/v1/sources)"
                      % json.dumps(page.get("transport_status")))
    if page.get("evidence_status") != "not_evaluated" or page.get("carrier_verification") != "not_performed":
        raise Refused("invalid_page", "a page claims an evidence or carrier status this kit does not accept")
    for name in ("offset", "limit", "returned_rows", "total_rows"):
        if not is_int(page.get(name)):
            raise Refused("invalid_page", name + " is not an integer")
    if page["offset"] != offset or page["limit"] != page_size:
        raise Refused("invalid_page", "a page does not echo the offset and limit asked for")
    if "next_offset" not in page:
        raise Refused("invalid_page", "a page has no next_offset")
    if page["next_offset"] is not None and not is_int(page["next_offset"]):
        raise Refused("invalid_page", "next_offset is neither null nor an integer")
    if page["total_rows"] < 0:
        raise Refused("invalid_page", "total_rows is negative")
    results = page.get("results")
    if not isinstance(results, list):
        raise Refused("invalid_page", "results is not a list")
    if page["returned_rows"] != len(results) or len(results) > page_size:
        raise Refused("invalid_page", "returned_rows does not count the rows sent")
    for row in results:
        if not isinstance(row, dict) or row.get("dataset") != dataset:
            raise Refused("invalid_page", "a row belongs to another dataset")


def progress(dataset, page, rows, total):
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width if total == 0 else min(width, round(rows / total * width))
    sys.stderr.write("\r%s [%s%s] %d/%d rows, page %d" % (dataset, "#" * filled, "." * (width - filled), rows, total, page))
    if rows >= total:
        sys.stderr.write("\n")


def collect(args, dataset, headers):
    rows, pages = [], []
    pinned = args.snapshot or None
    first = None
    retrieved_at = None
    offset = 0
    while True:
        if len(pages) >= args.max_pages:
            raise Refused("max_pages", "the table needs more than %d pages of %d rows; raise --max-pages or --page-size, or narrow the request"
                          % (args.max_pages, args.page_size))
        page = read_page(*get(page_url(args, dataset, offset, pinned), headers))
        check_page(page, dataset, args.page_size, offset)
        sources = source_set(page)
        snapshot_id = page.get("snapshot_id")
        if snapshot_id is not None and (not isinstance(snapshot_id, str) or not SNAPSHOT.match(snapshot_id)):
            raise Refused("invalid_page", "snapshot_id is malformed")
        if first is None:
            if pinned is not None and snapshot_id != pinned:
                raise Refused("snapshot_changed", "the server did not answer from the snapshot asked for")
            pinned = snapshot_id
            value = page.get("snapshot_retrieved_at")
            retrieved_at = value if isinstance(value, str) else None
            first = (sources, page["total_rows"])
        elif (sources, page["total_rows"]) != first or (pinned is not None and snapshot_id is not None and snapshot_id != pinned):
            raise Refused("snapshot_changed", "the sources changed between pages (another snapshot answered); start the capture again")
        pages.append(page)
        batch = page["results"]
        rows.extend(batch)
        total = page["total_rows"]
        progress(dataset, len(pages), len(rows), total)
        if page["next_offset"] is None:
            if len(rows) != total:
                raise Refused("incomplete", "the last page came after %d of %d rows" % (len(rows), total))
            break
        if page["next_offset"] != len(rows) or page["next_offset"] >= total or not batch:
            raise Refused("no_progress", "next_offset does not continue right after the rows received")
        offset = page["next_offset"]
    return {"dataset": dataset, "snapshot_id": pinned, "retrieved_at": retrieved_at, "rows": rows, "pages": pages}


def sorted_json(value):
    return json.dumps(value, indent=2, sort_keys=True, allow_nan=False) + "\n"


def csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, str):
        text = "'" + value if re.match(r"^ *[=+\-@]", value) or value[:1] in ("\t", "\r", "\n") else value
    else:
        text = json.dumps(value)
    if re.search(r'[",\r\n]', text):
        text = '"' + text.replace('"', '""') + '"'
    return text


def rows_csv(rows):
    columns = sorted({key for row in rows for key in row})
    lines = [",".join(csv_cell(c) for c in columns)]
    for row in rows:
        lines.append(",".join(csv_cell(row.get(c)) for c in columns))
    return "".join(line + "\r\n" for line in lines)


def envelope(page):
    out = {k: v for k, v in page.items() if k != "results"}
    if isinstance(out.get("sources"), list):
        out["sources"] = [{k: v for k, v in s.items() if k != "cache"} if isinstance(s, dict) else s for s in out["sources"]]
    return out


def export_files(args, capture):
    # A capture from a sample-mode service says so in every file; a live one keeps the plain shape.
    pages = capture["pages"]
    sample = {"sample": True} if pages and all(p.get("sample") is True for p in pages) else {}
    evidence = sorted_json({
        **sample,
        "schema": CAPTURE_SCHEMA,
        "dataset": capture["dataset"],
        "captured_at": capture["retrieved_at"],
        "snapshot_id": capture["snapshot_id"],
        "request": {"dataset": capture["dataset"], "entity": args.entity, "start_date": args.start_date,
                    "end_date": args.end_date, "limit": args.page_size},
        "results": capture["rows"],
        "returned_rows": len(capture["rows"]),
        "pages": [envelope(p) for p in capture["pages"]],
        "transport_status": "complete",
        "evidence_status": "not_evaluated",
        "carrier_verification": "not_performed",
        "financial_authority": "none",
        "history_scope": HISTORY_SCOPE,
    })
    csv_text = rows_csv([{**row, **sample} for row in capture["rows"]] if sample else capture["rows"])
    receipt = sorted_json({
        **sample,
        "dataset": capture["dataset"],
        "captured_at": capture["retrieved_at"],
        "snapshot_id": capture["snapshot_id"],
        "row_count": len(capture["rows"]),
        "pages_read": len(capture["pages"]),
        "csv_policy": CSV_POLICY,
        "sha256": {"evidence.json": hashlib.sha256(evidence.encode("utf-8")).hexdigest(),
                   "rows.csv": hashlib.sha256(csv_text.encode("utf-8")).hexdigest()},
        "external_user_or_payment_verified": False,
    })
    return {"evidence.json": evidence, "rows.csv": csv_text, "receipt.json": receipt}


def write_dir(directory, files):
    os.makedirs(directory)
    for name in ("evidence.json", "rows.csv", "receipt.json"):
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="") as handle:
            handle.write(files[name])


def whole_number(text):
    if not re.match(r"^[0-9]+$", text):
        raise argparse.ArgumentTypeError("must be a whole number")
    return int(text)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Capture every page of an Evidence Desk dataset from one snapshot.")
    parser.add_argument("--base", required=True, help="service base URL, e.g. https://desk.example")
    parser.add_argument("--dataset", default=None)
    parser.add_argument("--desk", action="store_true", help="capture money_markets, bank_risk and market_liquidity")
    parser.add_argument("--entity", default="")
    parser.add_argument("--start-date", default="")
    parser.add_argument("--end-date", default="")
    parser.add_argument("--page-size", type=whole_number, default=200)
    parser.add_argument("--max-pages", type=whole_number, default=10)
    parser.add_argument("--snapshot", default="")
    parser.add_argument("--synthetic", action="store_true", help="mark the requests as test traffic")
    parser.add_argument("--out", required=True, help="output directory; must not exist yet")
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        print(json.dumps({"ok": False, "refused": False, "reason": "invalid_input", "error": "see usage above"}))
        return 2
    try:
        if args.desk and (args.dataset or args.entity or args.snapshot):
            raise CouldNotRun("invalid_input", "--desk captures its three datasets unfiltered: leave out --dataset, --entity and --snapshot")
        datasets = DESK if args.desk else (args.dataset,)
        for dataset in datasets:
            check_inputs(args, dataset)
        out = os.path.abspath(args.out)
        if os.path.lexists(out):
            raise CouldNotRun("output_exists", "the output directory already exists; choose a new one")
        headers = {"Accept": "application/json", "User-Agent": "evidence-desk-research-kit-python/" + VERSION}
        if args.synthetic:
            headers["X-Traffic-Class"] = "synthetic"
        captures = [collect(args, d, headers) for d in datasets]
        staging = tempfile.mkdtemp(prefix="." + os.path.basename(out) + ".partial-", dir=os.path.dirname(out))
        try:
            if args.desk:
                for capture in captures:
                    write_dir(os.path.join(staging, capture["dataset"]), export_files(args, capture))
            else:
                files = export_files(args, captures[0])
                for name in ("evidence.json", "rows.csv", "receipt.json"):
                    with open(os.path.join(staging, name), "w", encoding="utf-8", newline="") as handle:
                        handle.write(files[name])
            if os.path.lexists(out):
                raise CouldNotRun("output_exists", "the output directory appeared while capturing; nothing was written")
            os.rename(staging, out)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    except Refused as error:
        print(json.dumps({"ok": False, "refused": True, "reason": error.reason, "error": str(error)}))
        return 1
    except CouldNotRun as error:
        print(json.dumps({"ok": False, "refused": False, "reason": error.reason, "error": str(error)}))
        return 2
    except OSError as error:
        # A folder that is missing or cannot be written: the run could not be made, as the CLI says.
        print(json.dumps({"ok": False, "refused": False, "reason": "could_not_run", "error": "the output could not be written: %s" % error}))
        return 2
    print(json.dumps({"ok": True, "out": out, "captures": [
        {"dataset": c["dataset"], "snapshot_id": c["snapshot_id"], "rows": len(c["rows"]), "pages": len(c["pages"])} for c in captures]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
