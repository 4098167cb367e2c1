"""The one exception hierarchy of pageindex-platform.

    PageIndexError
    ├── ConfigurationError      settings that cannot work (and how to fix them)
    ├── DatabaseError           the database cannot be reached, started or migrated
    ├── CorpusClosedError       a closed Corpus was used
    ├── DocumentNotFoundError   a command names a document that is not stored
    ├── PageNotFoundError       a page number outside a stored document
    ├── EmptyCorpusError        a question asked before anything is ingested
    ├── QuestionError           a question that cannot be searched (exit code 2)
    ├── EmptySelectionError     filters on a question that no stored filing matches (exit 2)
    ├── MetadataError           a metadata correction that cannot be stored (exit 2)
    ├── UnsafeSQLError          generated SQL that is not one read-only SELECT over the view
    ├── LLMError                the language model could not give a usable answer
    │   ├── LLMUnavailableError     network errors, timeouts, 429/5xx after bounded retries
    │   ├── LLMRequestError         the endpoint refused the request (4xx: auth, model name)
    │   └── LLMOutputError          the reply did not validate, even after one corrective retry
    └── InputError              a file that cannot be ingested; carries the path
        ├── UnsupportedFileError    an extension we do not read
        ├── UnreadableFileError     missing, not a regular file, or permission denied
        ├── EmptyFileError          zero bytes
        ├── NotAPdfError            named .pdf but not a PDF
        ├── CorruptPdfError         damaged or truncated PDF
        ├── EncryptedPdfError       needs a password
        └── NoTextLayerError        scanned pages without text (no OCR)

Library code raises these; only the CLI prints them (one line each, and a JSON error object
under --json) and exits with their `exit_code`.
"""

from __future__ import annotations

from pathlib import Path


class PageIndexError(Exception):
    """Base class of every error this package raises on purpose."""

    exit_code = 1


class ConfigurationError(PageIndexError):
    """A setting is missing or wrong; the message says how to fix it."""


class DatabaseError(PageIndexError):
    """The database cannot be reached, started or migrated."""


class CorpusClosedError(PageIndexError):
    """A `Corpus` used after `close()` (or after its `with` block ended)."""


class DocumentNotFoundError(PageIndexError):
    """No stored document has that name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no document named '{name}' (see `pi docs list`)")
        self.name = name


class PageNotFoundError(PageIndexError):
    """A page number outside a stored document's pages."""

    def __init__(self, name: str, page: int, page_count: int) -> None:
        super().__init__(f"{name} has no page {page} (pages 1-{page_count})")
        self.name, self.page, self.page_count = name, page, page_count


class EmptyCorpusError(PageIndexError):
    """No document is stored yet."""


class QuestionError(PageIndexError):
    """A question with nothing to search for: empty, punctuation or common words only, not
    valid UTF-8, or too long."""

    exit_code = 2


class EmptySelectionError(PageIndexError):
    """Filters on a question (--doc, --company, --year, --type, --period) that leave no
    stored filing, or that cannot be read."""

    exit_code = 2


class MetadataError(PageIndexError):
    """A correction of a document's metadata with a value that is no company, filing type,
    fiscal year or period."""

    exit_code = 2


class UnsafeSQLError(PageIndexError):
    """SQL that is not exactly one SELECT over the metadata view with allowed functions."""


class LLMError(PageIndexError):
    """The language model could not give a usable answer; callers fall back."""


class LLMUnavailableError(LLMError):
    """Network errors, timeouts, rate limits or server errors outlasted the retries."""


class LLMRequestError(LLMError):
    """The endpoint refused the request (bad key, unknown model, unsupported parameter)."""


class LLMOutputError(LLMError):
    """The reply was not valid JSON for the schema, even after one corrective retry."""


class InputError(PageIndexError):
    """A file that cannot be ingested. `str()` is one line naming the file and the problem."""

    problem = "cannot be ingested"

    def __init__(self, path: Path | str, problem: str | None = None) -> None:
        self.path = Path(path)
        self.detail = problem or self.problem
        super().__init__(f"{self.path}: {self.detail}")


class UnsupportedFileError(InputError):
    problem = "unsupported file type (supported: .pdf, .htm, .html, .txt, .md, .markdown)"


class UnreadableFileError(InputError):
    problem = "cannot be read"


class EmptyFileError(InputError):
    problem = "empty file (0 bytes)"


class NotAPdfError(InputError):
    problem = "not a PDF file (no %PDF header)"


class CorruptPdfError(InputError):
    problem = "corrupt or truncated PDF"


class EncryptedPdfError(InputError):
    problem = "encrypted PDF (password required)"


class NoTextLayerError(InputError):
    problem = "no text layer; OCR is not supported"
