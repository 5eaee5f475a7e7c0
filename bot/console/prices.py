"""`kb prices`: list the known GPU prices, and import a SkyPilot-format catalog into the operator's directory.

    gpu-advisor kb prices [--gpu H100] [--cloud aws]
    gpu-advisor kb prices import vms.csv --cloud lambda --date 2026-11-30 [--currency USD] [--dir DIR]

Every row shows its date ("date unknown" when the source gave none) and its source, so a listed price can
be traced to where it was read.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, TextIO

from knowledge.base import KnowledgeBase
from knowledge.loader import USER_DIR_ENV
from knowledge.price_import import read_skypilot_catalog, write_user_prices
from knowledge.prices import list_prices

DEFAULT_USER_DIR = Path.home() / ".config/gpu-advisor/kb"


def add_prices_parser(kb_sub: Any) -> None:
    """`prices` under `kb`, with an optional `import` below it."""
    prices = kb_sub.add_parser("prices", help="list GPU prices; 'kb prices import FILE' adds a catalog")
    prices.add_argument("--gpu", help="GPU id or name (H100, A10, l40s)")
    prices.add_argument("--cloud", help="cloud id (aws, alibaba, lambda, ...)")
    sub = prices.add_subparsers(dest="prices_command")
    imp = sub.add_parser("import", help="read a SkyPilot vms.csv (or the same columns as YAML/CSV)")
    imp.add_argument("file", type=Path)
    imp.add_argument("--cloud", required=True, dest="import_cloud", help="cloud id the rows belong to")
    imp.add_argument("--date", required=True, help="when the catalog was pulled, YYYY-MM-DD")
    imp.add_argument("--currency", default="USD", help="currency of the file's prices (default USD)")
    imp.add_argument("--dir", type=Path, help=f"knowledge dir (default ${USER_DIR_ENV} or {DEFAULT_USER_DIR})")


def format_price_row(p: Any) -> str:
    gpus = f"{p.gpu}×{p.count}"
    date = p.date or "date unknown"
    return (f"{p.cloud:11} {p.instance:34} {gpus:16} {p.price_per_hour:>10.4g} {p.currency:3}/h  "
            f"{p.region:18} {date:12}  {'; '.join(p.source)}")


def prices_command(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    if getattr(args, "prices_command", None) == "import":
        return _import(args, kb, out, err)
    rows = list_prices(kb, gpu=args.gpu, cloud=args.cloud)
    if not rows:
        what = " ".join(x for x in (args.gpu, f"on {args.cloud}" if args.cloud else None) if x) or "any GPU"
        out.write(f"no price known for {what}: no public list price was found, none is guessed. "
                  f"Add your own with: gpu-advisor kb prices import FILE --cloud NAME --date YYYY-MM-DD\n")
        return 0
    out.write(f"{'cloud':11} {'instance':34} {'GPU×count':16} {'price':>10} {'':5}  {'region':18} "
              f"{'date':12}  source\n")
    for p in rows:
        out.write(format_price_row(p) + "\n")
    out.write(f"{len(rows)} prices\n")
    return 0


def _import(args: argparse.Namespace, kb: KnowledgeBase, out: TextIO, err: TextIO) -> int:
    directory = args.dir or Path(os.environ.get(USER_DIR_ENV) or DEFAULT_USER_DIR)
    try:
        result = read_skypilot_catalog(args.file, args.import_cloud, args.date, kb=kb, currency=args.currency)
    except (ValueError, OSError) as exc:
        err.write(f"kb prices import: {exc}\n")
        return 2
    if not result.prices:
        err.write(f"kb prices import: no row of {args.file} maps to a known GPU\n")
        return 1
    path = write_user_prices(result.prices, args.import_cloud, directory)
    out.write(f"imported {len(result.prices)} prices for {args.import_cloud} (as of {args.date}) into {path}\n")
    for name, count in sorted(result.unmapped.items()):
        out.write(f"left out {count} row(s) of {name!r}: no known GPU matches it\n")
    if result.skipped_rows:
        out.write(f"left out {result.skipped_rows} row(s) without an accelerator, a whole count or a price\n")
    if not os.environ.get(USER_DIR_ENV):
        out.write(f"use it with: export {USER_DIR_ENV}={directory}\n")
    return 0
