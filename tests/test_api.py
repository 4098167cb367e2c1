"""The Python API as a caller uses it: a `Corpus` owns its store (two corpora open in one
process are independent; a closed one raises the package's error), and its boundary turns
arguments of the wrong type or holding a NUL into the package's InputError."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_platform.api import Corpus
from pageindex_platform.errors import CorpusClosedError, InputError, PageIndexError

from .conftest import SAMPLES

NOTE = "# {title}\n\n## Retail\n\nThe {title} desk watches inventory turns.\n"


def _folder(tmp_path: Path, name: str, title: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{name}.md").write_text(NOTE.format(title=title))
    return folder


def test_two_corpora_in_one_process_are_independent(tmp_path: Path) -> None:
    """Each corpus writes to and reads from its own database: removing a document from one
    leaves the other's untouched, and neither sees the other's documents."""
    with (
        Corpus.open(home=tmp_path / "home-a") as a,
        Corpus.open(home=tmp_path / "home-b") as b,
    ):
        a.ingest(_folder(tmp_path, "alpha", "Alpha"))
        b.ingest(_folder(tmp_path, "beta", "Beta"))
        b.ingest(_folder(tmp_path, "shared", "Shared"))
        a.ingest(tmp_path / "shared")
        assert [d.name for d in a.documents()] == ["alpha", "shared"]
        assert [d.name for d in b.documents()] == ["beta", "shared"]
        assert a.remove("shared").removed
        assert [d.name for d in a.documents()] == ["alpha"]
        assert [d.name for d in b.documents()] == ["beta", "shared"]  # untouched
        with pytest.raises(PageIndexError, match="no document named 'alpha'"):
            b.document("alpha")
    for home in ("home-a", "home-b"):
        from pageindex_platform.db import stop_embedded

        stop_embedded(tmp_path / home / "pgdata")


def test_a_closed_corpus_raises_and_creates_nothing(tmp_path: Path) -> None:
    corpus = Corpus.open(home=tmp_path / "home")
    corpus.close()
    for call in (
        lambda: corpus.documents(),
        lambda: corpus.ask("Best Buy revenue"),
        lambda: corpus.ingest(SAMPLES),
        lambda: corpus.remove("x"),
    ):
        with pytest.raises(CorpusClosedError, match="closed"):
            call()
    assert not (tmp_path / "home").exists()  # no database started for a closed corpus


def test_wrong_types_and_nul_are_input_errors(corpus: Path) -> None:
    with Corpus.open() as api:
        with pytest.raises(InputError, match="question: must be text, not NoneType"):
            api.ask(None)  # type: ignore[arg-type]
        with pytest.raises(InputError, match="contains a NUL character"):
            api.document("BESTBUY\x002024")
        with pytest.raises(InputError, match="the page: must be a whole number"):
            api.page("BESTBUY_2024Q2_10Q", "17")  # type: ignore[arg-type]
        with pytest.raises(InputError, match="documents: must be a text or a list"):
            api.ask("revenue", documents=17)  # type: ignore[arg-type]
        # one document's name given as a string is that document, not its letters
        answer = api.ask("comparable sales", documents="BESTBUY_2024Q2_10Q")
        assert {c.document for c in answer.citations} == {"BESTBUY_2024Q2_10Q"}


def test_the_answer_is_typed_end_to_end(corpus: Path) -> None:
    """Citations, figures, the working and the evidence lines are typed values made with
    the answer; `to_dict()` (the --json shape) renders the same values."""
    with Corpus.open() as api:
        answer = api.ask("operating margin", documents="ULTABEAUTY_2023Q4_EARNINGS")
    assert answer.working is not None and answer.working.shown.endswith("%")
    assert all(i.document == "ULTABEAUTY_2023Q4_EARNINGS" for i in answer.working.inputs)
    assert answer.evidence and all(e.document and e.page >= 1 for e in answer.evidence)
    shape = answer.to_dict()
    assert shape["working"]["shown"] == answer.working.shown
    assert [e["text"] for e in shape["evidence"]] == [e.text for e in answer.evidence]
    with Corpus.open() as api:
        for line in answer.evidence:  # each evidence line's words are printed on its page
            page = api.page(line.document, line.page).text
            words = [w for w in line.text.split()[:3] if w.isalpha()]
            assert words and all(w in page for w in words), (line, page[:200])
