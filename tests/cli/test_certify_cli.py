"""``sudoku verify --certify DIR`` and ``sudoku check-certificate`` through a subprocess:
what they write, what they print, their exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "sudoku_model.cli"]
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
UNSOLVABLE = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."


def sudoku(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


def test_verify_certify_then_check(tmp_path: Path) -> None:
    out = tmp_path / "certs"
    run = sudoku(
        "verify",
        HARD,
        UNSOLVABLE,
        "12......34......",
        "-o",
        str(tmp_path / "v.jsonl"),
        "--certify",
        str(out),
    )
    assert run.returncode == 1  # not every puzzle is unique: the verify answer is "no"
    assert "certificates in" in run.stderr and "multiple 1, unique 1, unsolvable 1" in run.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["solver"] == "pysat:cadical195"
    assert manifest["solver_version"].startswith("python-sat ")
    assert manifest["encoding"] == "sudoku-cert-1"
    assert manifest["toolkit"].startswith("sudoku-model ")
    entry = manifest["puzzles"][0]
    for info in entry["files"].values():
        assert (out / info["path"]).is_file() and len(info["sha256"]) == 64
    assert set(manifest["rules_files"]) == {entry["rules_cnf"]}

    check = sudoku("check-certificate", str(out))
    assert check.returncode == 0, check.stderr
    lines = check.stdout.splitlines()
    assert [ln.split()[-1] for ln in lines] == ["valid"] * 3
    assert "unsolvable: valid" in lines[1]
    assert "3 of 3 valid" in check.stderr


def test_check_reports_the_reason_and_exits_1(tmp_path: Path) -> None:
    out = tmp_path / "certs"
    assert sudoku("verify", HARD, "-q", "--certify", str(out)).returncode == 0
    proof = next((out / "puzzles").glob("*.drat"))
    proof.write_text("0\n")
    check = sudoku("check-certificate", str(out / "manifest.json"), "--invalid-only")
    assert check.returncode == 1
    assert "INVALID: proof puzzles/000000.drat: sha256 does not match the manifest" in check.stdout


def test_usage_errors_exit_2_without_a_traceback(tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("")
    cases = [
        (["verify", HARD, "--certify", str(full)], "directory not empty"),
        (
            ["verify", HARD, "--certify", str(tmp_path / "a"), "--certify-with", "native"],
            "native cannot certify",
        ),
        (
            ["verify", HARD, "--certify", str(tmp_path / "b"), "--certify-with", "pysat:maplesat"],
            "proofs are wrong",
        ),
        (["check-certificate", str(tmp_path / "none")], "no such file"),
        (["check-certificate", str(full), "--jobs", "0"], "--jobs must be at least 1"),
    ]
    for argv, message in cases:
        run = sudoku(*argv)
        assert run.returncode == 2, (argv, run.stderr)
        assert message in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "a").exists()  # nothing created before every option is checked


ROOT = Path(__file__).resolve().parents[2]
REFERENCE = "sudoku_model/docs/REFERENCE.md"  # where the certificate recipes live


def readme_block(marker: str) -> str:
    text = (ROOT / REFERENCE).read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker}:begin -->")[1].split(f"<!-- {marker}:end -->")[0]
    return block.split("```python\n")[1].split("```")[0]


def test_the_readme_recipes_check_a_certificate(tmp_path: Path) -> None:
    assert (
        sudoku("verify", "bundled:hardest", "-q", "--certify", str(tmp_path / "certs")).returncode
        == 0
    )
    run = subprocess.run(
        [sys.executable, "-c", readme_block("certificate-recipe")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"
    if shutil.which("drat-trim"):
        text = (ROOT / REFERENCE).read_text(encoding="utf-8")
        shell = text.split("To\ncheck one with drat-trim by hand:\n\n```\n")[1].split("```")[0]
        done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True)
        assert "s VERIFIED" in done.stdout
