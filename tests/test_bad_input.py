"""Bad files: one clear error line naming the file and the problem; the batch goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import encrypted_pdf, image_only_pdf, run_cli, run_json


def _make(kind: str, folder: Path, small_pdf: Path) -> Path:
    if kind == "encrypted":
        return encrypted_pdf(folder / "locked.pdf")
    if kind == "truncated":
        path = folder / "truncated.pdf"
        data = small_pdf.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        return path
    if kind == "garbage_inside":
        path = folder / "damaged.pdf"
        path.write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
        return path
    if kind == "empty":
        path = folder / "empty.pdf"
        path.write_bytes(b"")
        return path
    if kind == "not_pdf":
        path = folder / "notes.pdf"
        path.write_text("These are plain-text notes, not a PDF.")
        return path
    if kind == "no_text":
        return image_only_pdf(folder / "scanned.pdf")
    if kind == "broken_link":
        path = folder / "gone.pdf"
        path.symlink_to(folder / "does-not-exist.pdf")
        return path
    if kind == "missing":
        return folder / "missing.pdf"
    if kind == "html_garbage":
        path = folder / "filing.html"
        path.write_bytes(os.urandom(4096))
        return path
    if kind == "html_no_text":
        path = folder / "filing.htm"
        path.write_text("<html><head><script>var x = 1;</script></head><body> </body></html>")
        return path
    if kind == "unsupported":
        path = folder / "report.docx"
        path.write_bytes(b"PK\x03\x04 not really a docx")
        return path
    raise AssertionError(kind)


CASES = {
    "encrypted": "encrypted PDF (password required)",
    "truncated": "corrupt or truncated PDF",
    "garbage_inside": "corrupt or truncated PDF",
    "empty": "empty file (0 bytes)",
    "not_pdf": "not a PDF file (no %PDF header)",
    "no_text": "no text layer; OCR is not supported",
    "broken_link": "not a regular file",
    "missing": "no such file",
    "unsupported": "unsupported file type '.docx'",
    "html_garbage": "not an HTML document (no HTML tags at its start)",
    "html_no_text": "no text in this HTML document",
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_bad_file_is_reported_and_good_file_still_stored(
    kind: str, tmp_path: Path, small_pdf: Path
) -> None:
    bad = _make(kind, tmp_path, small_pdf)
    code, out, err = run_cli("ingest", str(bad), str(small_pdf))
    assert code == 1
    error_lines = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert len(error_lines) == 1, err
    assert str(bad) in error_lines[0] and CASES[kind] in error_lines[0]
    assert "1 stored" in out and "1 failed" in out
    assert [d["name"] for d in run_json("docs", "list")] == [small_pdf.stem]


def test_json_summary_reports_the_failure(tmp_path: Path, small_pdf: Path) -> None:
    bad = _make("not_pdf", tmp_path, small_pdf)
    code, out, _err = run_cli("ingest", str(bad), str(small_pdf), "--json")
    assert code == 1
    import json

    files = {f["name"]: f for f in json.loads(out)["files"]}
    assert files["notes"]["status"] == "failed"
    assert files["notes"]["error"] == "not a PDF file (no %PDF header)"
    assert files[small_pdf.stem]["status"] == "stored"


def test_unsupported_files_inside_folders_are_ignored_not_failed(
    tmp_path: Path, small_pdf: Path
) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / small_pdf.name).write_bytes(small_pdf.read_bytes())
    (folder / "readme.txt").write_text("not a filing")
    code, out, err = run_cli("ingest", str(folder))
    assert code == 0
    assert "ignored 1 file(s)" in err and "1 stored" in out


def test_a_file_name_that_is_not_utf8_fails_alone(tmp_path: Path, small_pdf: Path) -> None:
    """A file named with bytes that are not UTF-8 fails with one line showing its name
    escaped; the other files of the folder are stored and no claim is left behind."""
    folder = tmp_path / "names"
    folder.mkdir()
    bad = os.path.join(os.fsencode(folder), b"report\xff\xfe.pdf")
    with open(bad, "wb") as f:
        f.write(small_pdf.read_bytes())
    (folder / "good.pdf").write_bytes(small_pdf.read_bytes())
    code, out, err = run_cli("ingest", str(folder))
    assert code == 1
    errors = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and "report\\xff\\xfe.pdf" in errors[0], err
    assert "not valid UTF-8" in errors[0] and "1 stored" in out
    assert [d["name"] for d in run_json("docs", "list")] == ["good"]
    from sqlalchemy import text

    from .helpers import session_scope

    with session_scope() as session:
        assert session.execute(text("SELECT count(*) FROM ingest_claims")).scalar() == 0


def test_a_document_over_the_full_text_limit_fails_alone(tmp_path: Path, small_pdf: Path) -> None:
    """Over 1 MB of distinct words is more than PostgreSQL's full-text index holds: that file
    fails with one line saying so, the batch goes on, and nobody is told the database is
    unreachable (it is not)."""
    import random

    folder = tmp_path / "limit"
    folder.mkdir()
    rng = random.Random(7)
    words = " ".join(f"w{rng.getrandbits(48):012x}" for _ in range(120_000))
    (folder / "a_words.md").write_text(f"# Words\n\n{words}\n")
    (folder / "b_good.pdf").write_bytes(small_pdf.read_bytes())
    code, out, err = run_cli("ingest", str(folder))
    assert code == 1
    errors = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and "a_words.md" in errors[0], err
    assert "full-text index" in errors[0] and "reach" not in err
    assert "1 stored" in out
    assert [d["name"] for d in run_json("docs", "list")] == ["b_good"]


def test_a_pdf_cut_short_after_its_pages_is_stored_with_a_warning(
    tmp_path: Path, small_pdf: Path
) -> None:
    """A download that stopped inside the file's closing cross-reference table: its pages
    are all there, and they are stored, said to be what could be recovered."""
    data = small_pdf.read_bytes()
    cut = tmp_path / "cut" / "cut_short.pdf"
    cut.parent.mkdir()
    cut.write_bytes(data[: data.rfind(b"trailer") - 20])  # in the middle of the xref table
    report = run_json("ingest", str(cut.parent))
    assert report["stored"] == 1 and report["failed"] == 0
    (stored,) = report["files"]
    assert stored["pages"] == 5
    assert any("ends before %%EOF" in w and "5 pages recovered" in w for w in stored["warnings"])
