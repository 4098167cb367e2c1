"""LLM-mode indexing: PageIndex's tree generation, with the deterministic tree as first draft.

PageIndex detects a TOC in the first pages, extracts it, maps it to physical pages (TOC with
page numbers: offset voted over matched titles; without: titles located in page groups; no
TOC: structure generated from page groups), verifies that each title starts on its page
(fixing wrong ones, falling back to the next mode when accuracy is <= 0.6), then summarizes
every node. It makes roughly one call per TOC-check page, per title verified and per summary.

Here the deterministic builder does the first draft, and calls are spent only where it is
unsure, several items per call:
- a draft from the outline or printed TOC whose titles are found on their start pages is
  accepted; unverified titles are checked in one batched call, with up to 3 fixing rounds;
- without such a draft: one call for TOC detection over the first pages, one to extract the
  TOC, batched location of titles, and page-group generation as the last mode;
- summaries are written for many nodes per call, and the description in one call.
Whatever the model gets wrong or fails to answer, the result is a valid tree: the
deterministic part stands in, and a warning is recorded on the document.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from ..errors import LLMError
from ..llm import Message, StructuredChat, Usage
from ..records import FlatEntry, PreparedDocument, TreeNode, TreeSource
from ..tokens import count_tokens
from .build import BuildOptions
from .chunking import chunk_pages
from .llm_prompts import (
    SUMMARY_BATCH,
    LocatedList,
    Sections,
    TocItem,
    TocItems,
    TocPages,
    level,
    snippet,
    task,
)
from .llm_summaries import describe, summarize
from .text import item_label, part_label
from .toc import HeadingIndex
from .tree import check_tree, finish_tree

ACCEPT_ACCURACY = 0.6
FIX_ROUNDS = 3
GROUP_TOKENS = 6_000  # page text per call when generating structure from page groups


@dataclass
class LlmTree:
    tree: list[TreeNode]
    source: TreeSource
    sections: list[FlatEntry]
    description: str | None
    warnings: list[str] = field(default_factory=list)


class _Builder:
    def __init__(
        self,
        doc: PreparedDocument,
        chat: StructuredChat,
        usage: Usage,
        max_pages: int,
        max_tokens: int,
        toc_check_pages: int,
    ) -> None:
        self.doc = doc
        self.pages = doc.pages
        self.chat = chat
        self.usage = usage
        self.warnings: list[str] = []
        self.max_pages = max_pages
        self.max_tokens = max_tokens
        self.toc_check_pages = toc_check_pages
        self.index = HeadingIndex((p.page, p.text.splitlines()) for p in doc.pages)
        self._confirmed: set[int] = set()  # entries the model placed (verification round)

    async def ask(self, step: str, messages: list[Message], schema: type[BaseModel]) -> object:
        return await self.chat.ask(messages, schema, usage=self.usage, step=step)

    def verified(self, entry: FlatEntry) -> bool:
        """Does the title appear among the first rows of its start page?"""
        return entry.start_page in self.index.pages_for(entry.title)

    # -- verification and fixing (PageIndex: verify_toc / fix_incorrect_toc) --

    async def verify_and_fix(self, entries: list[FlatEntry]) -> tuple[list[FlatEntry], float]:
        """Check every start page; ask the model, in batches, about those not found on their
        page, widening the window on each round. Returns entries and the verified share."""
        if not entries:
            return entries, 0.0
        entries = list(entries)
        pending = [i for i, e in enumerate(entries) if not self.verified(e)]
        before = len(pending)
        for round_ in range(FIX_ROUNDS):
            if not pending or (round_ and len(pending) == before):
                break  # all placed, or the last round placed none
            before = len(pending)
            radius = 1 + 2 * round_
            still: list[int] = []
            for start in range(0, len(pending), SUMMARY_BATCH):
                batch = pending[start : start + SUMMARY_BATCH]
                payload = [
                    {
                        "index": i,
                        "title": entries[i].title,
                        "candidates": {
                            str(p): snippet(self.pages, p, 300)
                            for p in range(
                                entries[i].start_page - radius, entries[i].start_page + radius + 1
                            )
                            if 1 <= p <= len(self.pages)
                        },
                    }
                    for i in batch
                ]
                try:
                    reply = await self.ask(
                        "verify",
                        task(
                            "locate_sections",
                            "For each section title, say on which "
                            "candidate page the section starts (its heading appears there), "
                            "or null when none.",
                            payload,
                        ),
                        LocatedList,
                    )
                except LLMError as exc:
                    self.warnings.append(f"llm: title verification failed ({exc})")
                    return entries, self._accuracy(entries)
                assert isinstance(reply, LocatedList)
                answered = {r.index: r.page for r in reply.results if r.index in batch}
                for i in batch:
                    page = answered.get(i)
                    allowed = payload[batch.index(i)]["candidates"]
                    if page is not None and str(page) in allowed:  # type: ignore[operator]
                        entries[i] = FlatEntry(entries[i].level, entries[i].title, page)
                        self._confirmed.add(i)
                    else:
                        still.append(i)
            pending = still
        return self._ordered(entries), self._accuracy(entries)

    def _accuracy(self, entries: list[FlatEntry]) -> float:
        ok = sum(1 for i, e in enumerate(entries) if self.verified(e) or i in self._confirmed)
        return ok / len(entries) if entries else 0.0

    @staticmethod
    def _ordered(entries: list[FlatEntry]) -> list[FlatEntry]:
        """Drop entries whose start page would go backwards (a tree needs ordered siblings)."""
        out: list[FlatEntry] = []
        for e in entries:
            if not out or e.start_page >= out[-1].start_page:
                out.append(e)
        return out

    # -- the three processing modes --

    async def detect_toc(self) -> list[int]:
        first = self.pages[: self.toc_check_pages]
        payload = [{"page": p.page, "text": p.text[:900]} for p in first]
        reply = await self.ask(
            "toc_detect",
            task(
                "detect_toc",
                "Which of these pages hold a table of contents (a list of "
                "section titles, usually with page numbers)? [] if none.",
                payload,
            ),
            TocPages,
        )
        assert isinstance(reply, TocPages)
        return sorted({p for p in reply.toc_pages if 1 <= p <= len(first)})

    async def extract_toc(self, toc_pages: list[int]) -> list[TocItem]:
        text = "\n".join(self.pages[p - 1].text for p in toc_pages)
        reply = await self.ask(
            "toc_extract",
            task(
                "extract_toc",
                "Turn this table of contents into items with a hierarchy "
                "index (structure), the title and the printed page number (null if none).",
                {"toc": text[:12_000]},
            ),
            TocItems,
        )
        assert isinstance(reply, TocItems)
        return [i for i in reply.items if i.title.strip()]

    def map_printed(self, items: list[TocItem], after: int) -> list[FlatEntry]:
        """TOC with page numbers: physical = printed + the offset voted over titles found."""
        votes: dict[int, int] = {}
        for item in items:
            if item.page is None:
                continue
            for page in self.index.pages_for(item.title, after):
                votes[page - item.page] = votes.get(page - item.page, 0) + 1
        offset = max(votes, key=lambda k: votes[k]) if votes else 0
        out = []
        for item in items:
            if item.page is None:
                continue
            page = item.page + offset
            if 1 <= page <= len(self.pages):
                out.append(FlatEntry(level(item.structure), item.title.strip(), page))
        return self._ordered(out)

    async def locate_titles(self, items: list[TocItem], after: int) -> list[FlatEntry]:
        """TOC without page numbers: find each title in groups of pages, several per call."""
        found: dict[int, int] = {}
        titles = [{"index": i, "title": it.title} for i, it in enumerate(items)]
        for group in self.page_groups(after + 1):
            missing = [t for t in titles if t["index"] not in found]
            if not missing:
                break
            reply = await self.ask(
                "toc_locate",
                task(
                    "locate_titles",
                    "Which of these section titles start in these pages? "
                    "Give the physical page for those that do, null for the others.",
                    {"titles": missing, "pages": group},
                ),
                LocatedList,
            )
            assert isinstance(reply, LocatedList)
            pages = {g["page"] for g in group}
            for r in reply.results:
                if r.page is not None and r.page in pages and r.index < len(items):
                    found.setdefault(r.index, r.page)
        out = [
            FlatEntry(level(items[i].structure), items[i].title.strip(), page)
            for i, page in sorted(found.items())
        ]
        return self._ordered(out)

    async def generate(self) -> list[FlatEntry]:
        """No TOC: the structure generated from groups of pages."""
        out: list[FlatEntry] = []
        for group in self.page_groups(1):
            pages = {g["page"] for g in group}
            reply = await self.ask(
                "generate",
                task(
                    "generate_structure",
                    "List the sections that start in these pages: "
                    "hierarchy index (structure), title as printed, physical page.",
                    {"pages": group, "previous": [e.title for e in out[-5:]]},
                ),
                Sections,
            )
            assert isinstance(reply, Sections)
            out.extend(
                FlatEntry(level(s.structure), s.title.strip(), s.page)
                for s in reply.sections
                if s.page in pages and s.title.strip()
            )
        return self._ordered(out)

    def page_groups(self, first: int) -> list[list[dict[str, object]]]:
        groups: list[list[dict[str, object]]] = [[]]
        size = 0
        for page in self.pages[first - 1 :]:
            text = page.text[:6_000]
            tokens = count_tokens(text)
            if groups[-1] and size + tokens > GROUP_TOKENS:
                groups.append([])
                size = 0
            groups[-1].append({"page": page.page, "text": text})
            size += tokens
        return [g for g in groups if g]

    # -- structure: the modes with their fallbacks --

    async def structure(self) -> tuple[list[FlatEntry], TreeSource]:
        draft, source = self.doc.sections, self.doc.tree_source
        self._confirmed = set()
        # Sections from the outline, a printed TOC, or PART/Item headings are trusted drafts.
        itemized = any(item_label(e.title) or part_label(e.title) for e in draft)
        if draft and (source in (TreeSource.OUTLINE, TreeSource.TOC) or itemized):
            entries, accuracy = await self.verify_and_fix(draft)
            if accuracy > ACCEPT_ACCURACY:
                return entries, source
        modes = ("toc", "generate")
        for mode in modes:
            try:
                self._confirmed = set()
                if mode == "toc":
                    toc_pages = await self.detect_toc()
                    if not toc_pages:
                        continue
                    items = await self.extract_toc(toc_pages)
                    with_pages = sum(1 for i in items if i.page is not None)
                    entries = (
                        self.map_printed(items, toc_pages[-1])
                        if items and with_pages >= 0.5 * len(items)
                        else await self.locate_titles(items, toc_pages[-1])
                    )
                else:
                    entries = await self.generate()
                entries, accuracy = await self.verify_and_fix(entries)
                if len(entries) >= 2 and accuracy > ACCEPT_ACCURACY:
                    return entries, TreeSource.LLM
            except LLMError as exc:
                self.warnings.append(f"llm: {mode} structure failed ({exc})")
        if draft or source != TreeSource.WINDOWS:
            self.warnings.append("llm: kept the deterministic structure")
        return draft, source


async def build_llm_tree(
    doc: PreparedDocument,
    chat: StructuredChat,
    *,
    usage: Usage,
    max_pages: int,
    max_tokens: int,
    toc_check_pages: int = 20,
) -> LlmTree:
    """The LLM-mode tree of a prepared document; always valid, never raises LLMError."""
    builder = _Builder(doc, chat, usage, max_pages, max_tokens, toc_check_pages)
    source: TreeSource
    if doc.tree_source == TreeSource.MARKDOWN:
        entries, source = doc.sections, doc.tree_source  # headers are the structure
    else:
        entries, source = await builder.structure()
    if entries == doc.sections:
        tree = doc.tree  # the draft stands (with its heading-based splits)
    else:
        page_tokens = [count_tokens(p.text) for p in doc.pages]
        tree = finish_tree(
            entries, doc.pages, page_tokens, max_pages=max_pages, max_tokens=max_tokens
        )
    if check_tree(tree, doc.page_count):
        builder.warnings.append("llm: structure gave an invalid tree; kept the deterministic one")
        tree, source, entries = doc.tree, doc.tree_source, doc.sections
    await summarize(builder.ask, doc.pages, tree, builder.warnings)
    description = await describe(builder.ask, doc, tree, builder.warnings)
    return LlmTree(tree, source, entries, description, builder.warnings)


def refine_with_llm(
    doc: PreparedDocument, chat: StructuredChat, usage: Usage, options: BuildOptions
) -> None:
    """Replace the deterministic tree, summaries and description with the LLM-mode ones, and
    chunk the pages along the new tree. Never raises for model failures: those become
    warnings on the document."""
    result = chat.run(
        build_llm_tree(
            doc,
            chat,
            usage=usage,
            max_pages=options.split_max_pages,
            max_tokens=options.split_max_tokens,
            toc_check_pages=options.llm_toc_check_pages,
        )
    )
    doc.tree, doc.tree_source, doc.sections = result.tree, result.source, result.sections
    doc.warnings.extend(result.warnings)
    if result.description:
        doc.metadata.description = result.description
    doc.chunks = chunk_pages(doc.pages, doc.tree, max_tokens=options.chunk_tokens)
