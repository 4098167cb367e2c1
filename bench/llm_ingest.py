"""`pi ingest --mode llm` on a folder (default: the dev set) against a competent fake
OpenAI-compatible server, three times: a first ingest, an unchanged re-ingest and a --force
rebuild (served from the response cache). Prints stored/failed, LLM calls and cache hits per
run, and checks every stored tree's invariants. Embeddings use the hash embedder: this
measures the LLM side, not embedding.

    python bench/llm_ingest.py [FOLDER]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEV_PDFS = Path(__file__).resolve().parents[2] / "shared" / "financebench-dev" / "pdfs"


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEV_PDFS
    from tests.fake_llm import FakeLLM

    home = tempfile.mkdtemp(prefix="pi-llm-ingest-")
    with FakeLLM() as fake:
        env = {
            **os.environ,
            "PI_HOME": home,
            "PI_EMBEDDER": "hash",
            "PI_LLM_BASE_URL": fake.url,
            "PI_LLM_MODEL": "fake-model",
        }
        env.pop("PI_DATABASE_URL", None)
        pi = str(Path(sys.executable).parent / "pi")
        for label, extra in (("first ingest", []), ("re-ingest", []), ("--force", ["--force"])):
            before = fake.calls
            run = subprocess.run(
                [pi, "ingest", "--mode", "llm", str(folder), "--json", *extra],
                env=env,
                capture_output=True,
                text=True,
            )
            report = json.loads(run.stdout)
            cached = sum(f.get("usage", {}).get("cached", 0) for f in report["files"])
            calls = fake.calls - before
            print(
                f"{label:<13} exit {run.returncode}: stored {report['stored']}, skipped "
                f"{report['skipped']}, failed {report['failed']}; LLM calls {calls}, "
                f"cache hits {cached}, {report['seconds']:.0f}s"
            )
    os.environ["PI_HOME"] = home
    os.environ.pop("PI_DATABASE_URL", None)
    from pageindex_platform import Corpus, catalog
    from pageindex_platform.db import stop_embedded
    from pageindex_platform.settings import get_settings

    get_settings.cache_clear()  # PI_HOME changed after the settings were first read

    with Corpus.open().db.session() as session:
        docs = catalog.list_documents(session=session)
        invalid = len(catalog.invalid_trees(session=session))
        warned = sum(
            bool(catalog.show_document(session=session, name=d.name).warnings) for d in docs
        )
    print(f"stored documents {len(docs)}, invalid trees {invalid}, with warnings {warned}")
    stop_embedded(get_settings().pgdata)
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
