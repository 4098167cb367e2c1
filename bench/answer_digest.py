"""Every answer a corpus gives to question sets, to compare two versions of the code: each
question asked through the API (local mode) as `pi ask` asks it, its whole answer (headline,
text, citations, evidence, warnings, route; not the timings) written as one JSON line.

    PI_HOME=DIR python bench/answer_digest.py --out A.jsonl eval/held_out/*.jsonl ...
    PYTHONPATH=OLD_CHECKOUT PI_HOME=DIR python bench/answer_digest.py --out B.jsonl ...
    python bench/answer_digest.py --compare A.jsonl B.jsonl

Question files are JSONL rows with a "question" (and an "id"). `--compare` prints how many
answers differ, and the first lines where the first few do.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _digest(out: Path, sets: list[Path]) -> int:
    import pageindex_platform
    from pageindex_platform import Corpus

    print(f"code: {Path(pageindex_platform.__file__).parent}", file=sys.stderr)
    started, asked = time.perf_counter(), 0
    with Corpus.open() as corpus, out.open("w", encoding="utf-8") as sink:
        for path in sets:
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                try:
                    shown = corpus.ask(row["question"]).to_dict()
                    shown.pop("timings", None)
                    answer = json.dumps(shown, sort_keys=True, default=str)
                except Exception as exc:  # a failure is an answer to compare too
                    answer = f"ERROR {type(exc).__name__}: {exc}"
                record = {"set": path.stem, "id": row.get("id"), "question": row["question"]}
                sink.write(json.dumps({**record, "answer": answer}) + "\n")
                asked += 1
    print(f"{asked} questions in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


def _compare(first: Path, second: Path) -> int:
    def read(path: Path) -> dict[tuple[str, str], str]:
        rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
        return {(r["set"], r["question"]): r["answer"] for r in rows}

    a, b = read(first), read(second)
    common = sorted(set(a) & set(b))
    differ = [key for key in common if a[key] != b[key]]
    print(f"{len(differ)} of {len(common)} answers differ ({len(a)} and {len(b)} asked)")
    for key in differ[:5]:
        print(f"  {key[0]}: {key[1][:100]}")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, help="question files (JSONL)")
    parser.add_argument("--out", type=Path, help="write the answers here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    args = parser.parse_args()
    if args.compare:
        return _compare(*args.compare)
    if not args.out or not args.sets:
        parser.error("give --out and question files, or --compare A B")
    return _digest(args.out, args.sets)


if __name__ == "__main__":
    sys.exit(main())
