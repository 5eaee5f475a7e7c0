"""`kb prices`, `kb prices import`, `kb check`, and the cost/time cases of the shared examples through `ask --json`."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.console.cli import main

EXAMPLES = Path(__file__).resolve().parents[4] / "shared/examples/advice.yaml"
COST_KEYS = ("query.tokens", "speed.train_hours", "cost", "prices")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_prices_lists_rows_with_date_and_source() -> None:
    code, out, _ = _run("kb", "prices", "--gpu", "H100", "--cloud", "lambda")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("lambda")]
    assert rows and all("h100" in r and "USD/h" in r and "date unknown" in r and "skypilot" in r for r in rows)
    code, out, _ = _run("kb", "prices", "--gpu", "a10", "--cloud", "alibaba")
    assert code == 0 and "2024-12-31" in out and "CNY/h" in out


def test_prices_for_a_card_without_any_says_so() -> None:
    code, out, _ = _run("kb", "prices", "--gpu", "h20")
    assert code == 0 and "no price known" in out and "kb prices import" in out


def test_import_writes_the_operator_file_and_the_loader_merges_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = tmp_path / "vms.csv"
    catalog.write_text("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\n"
                       "x.l4,L4,1,8,32,0.50,,r1\nx.l4,L4,1,8,32,0.60,,r2\nx.zz,NoSuchCard,1,8,32,1.0,,r1\n")
    code, out, _ = _run("kb", "prices", "import", str(catalog), "--cloud", "mycloud", "--date", "2026-11-30",
                        "--dir", str(tmp_path / "kb"))
    assert code == 0 and "imported 1 prices" in out and "NoSuchCard" in out
    monkeypatch.setenv("GPU_ADVISOR_KB", str(tmp_path / "kb"))
    from knowledge.loader import load_knowledge

    rows = [p for p in load_knowledge().prices.values() if p.cloud == "mycloud"]
    assert len(rows) == 1 and rows[0].price_per_hour == 0.5 and rows[0].date == "2026-11-30"
    assert rows[0].median_price_per_hour == pytest.approx(0.55)


def test_import_refuses_a_malformed_date(tmp_path: Path) -> None:
    catalog = tmp_path / "vms.csv"
    catalog.write_text("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,L4,1,0.5,r1\n")
    code, _, err = _run("kb", "prices", "import", str(catalog), "--cloud", "c", "--date", "30/11/2026",
                        "--dir", str(tmp_path))
    assert code == 2 and "kb prices import" in err


def test_check_counts_prices() -> None:
    code, out, _ = _run("kb", "check")
    assert code == 0 and " prices" in out


def _get(data: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(data, list):
            data = data[int(part)] if part.isdigit() and int(part) < len(data) else None
        elif isinstance(data, dict):
            data = data.get(part)
        else:
            return None
    return data


def _holds(data: dict[str, Any], check: dict[str, Any]) -> bool:
    if "any" in check:
        return any(_holds(data, c) for c in check["any"])
    value = _get(data, check["path"])
    if "eq" in check:
        return bool(value == check["eq"])
    if "between" in check:
        low, high = (float(x) for x in check["between"])
        return value is not None and low <= value <= high
    if "present" in check:
        return (value not in (None, [], {})) == check["present"]
    if "contains" in check:
        return value is not None and str(check["contains"]) in str(value)
    if "in" in check:
        return value in check["in"]
    raise AssertionError(f"check kind not handled here: {check}")


def _cost_cases() -> list[dict[str, Any]]:
    if not EXAMPLES.exists():
        return []
    cases = yaml.safe_load(EXAMPLES.read_text(encoding="utf-8"))
    def touches(check: dict[str, Any]) -> bool:
        if "any" in check:
            return any(touches(c) for c in check["any"])
        return any(check["path"] == key or check["path"].startswith(key + ".") for key in COST_KEYS)
    return [c for c in cases if any(touches(ch) for ch in c["checks"])]


@pytest.mark.skipif(not EXAMPLES.exists(), reason="shared examples not present")
@pytest.mark.parametrize("case", _cost_cases(), ids=lambda c: c["text"][:40])
def test_shared_cost_and_time_examples_pass_through_ask_json(case: dict[str, Any]) -> None:
    code, out, _ = _run("ask", "--json", case["text"])
    assert code == 0
    data = json.loads(out)
    failed = [c for c in case["checks"] if not _holds(data, c)]
    assert not failed, (failed, data.get("query"), data.get("speed"), data.get("cost"))
