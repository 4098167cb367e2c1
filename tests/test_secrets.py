"""Secrets in the endpoint's URL (PI_LLM_BASE_URL) are never printed, logged or stored: every
query value, the userinfo, key-shaped path segments and the fragment are masked wherever a URL
or an error text is shown — the mode banner, errors and warnings, `-vv` logs, `query_log`,
stored ingest warnings — while the host, the port and ordinary path words stay readable."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from pageindex_platform.errors import LLMRequestError
from pageindex_platform.llm import StructuredChat
from pageindex_platform.settings import get_settings, redact_text, redact_url

from .fake_llm import FakeLLM, Response, competent, serving
from .helpers import run_cli, session_scope
from .llm.client import ask, make_chat

# Each of these is a secret; none may appear anywhere a user or a log can see it.
USER = "svc7Q2mW9xK"
PASSWORD = "pw-Zr8Lq3Nt"
PATH_KEY = "sk-proj-4fG7hJ2kL9mN3pQ8"
KEY_SEGMENT = "AbCdEf0123456789GhIj"
CODE = "c0deS3CR3TAlpha"
SIG = "s1gS3CR3TBeta"
FRAGMENT = "fr4gS3CR3TGamma"
SECRETS = (USER, PASSWORD, PATH_KEY, KEY_SEGMENT, CODE, SIG, FRAGMENT)
QUESTION = "Best Buy comparable sales in the second quarter of fiscal 2024"


def secret_url(port: int) -> str:
    return (
        f"http://{USER}:{PASSWORD}@127.0.0.1:{port}/key/{KEY_SEGMENT}/{PATH_KEY}/v1"
        f"?code={CODE}&sig={SIG}#token={FRAGMENT}"
    )


def _leaks(seen: str) -> list[str]:
    return [s for s in SECRETS if s in seen]


def _nothing_leaks(printed: str, caplog: pytest.LogCaptureFixture) -> None:
    """No secret in what the command printed, in any log record, or in the database."""
    assert _leaks(printed) == [], printed
    logged = "\n".join(f"{r.name} {r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
    assert _leaks(logged) == [], logged
    assert _leaks(_stored()) == []


def _port(server: FakeLLM) -> int:
    return int(server.url.split(":")[2].split("/")[0])


def _stored() -> str:
    """Everything the corpus stored about questions and documents, as text."""
    with session_scope() as session:
        rows = session.execute(
            text(
                "SELECT coalesce((SELECT string_agg(q::text, ' ') FROM query_log q), '') || "
                "coalesce((SELECT string_agg(d::text, ' ') FROM documents d), '')"
            )
        )
        return str(rows.scalar())


@pytest.fixture
def ingested(samples: Path) -> Path:
    code, _, err = run_cli("ingest", str(samples / "BESTBUY_2024Q2_10Q.pdf"), "--mode", "local")
    assert code == 0, err
    return samples


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    """A working fake model, configured through a URL full of secrets."""
    with serving(monkeypatch, competent, PI_LLM_MAX_ATTEMPTS="1") as server:
        monkeypatch.setenv("PI_LLM_BASE_URL", secret_url(_port(server)))
        get_settings.cache_clear()
        yield server


def _ask_verbose(caplog: pytest.LogCaptureFixture) -> tuple[dict[str, Any], str]:
    caplog.set_level(logging.DEBUG)
    code, out, err = run_cli("-vv", "ask", QUESTION, "--mode", "llm", "--json")
    assert code == 0, err
    return json.loads(out), out + err


def test_a_working_endpoint_url_shows_its_host_and_never_its_secrets(
    ingested: Path, endpoint: FakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    result, printed = _ask_verbose(caplog)
    assert result["usage"]["calls"] >= 2 and result["warnings"] == []  # the model answered
    # ...at the URL's path, its query intact (not garbled by the request's own path)
    assert set(endpoint.targets) == {
        f"/key/{KEY_SEGMENT}/{PATH_KEY}/v1/chat/completions?code={CODE}&sig={SIG}"
    }
    assert f"at http://***@127.0.0.1:{_port(endpoint)}/key/***/***/v1?code=***&sig=***#***" in (
        printed
    )  # the banner: host, port and path words readable
    _nothing_leaks(printed, caplog)


ECHOING = {  # what real servers and gateways send back: each one echoes the URL it was asked
    "server_error": lambda url: Response(f"upstream failed for {url}", status=500),
    "refused": lambda url: Response(f"invalid credentials for {url}", status=401),
    "not_found": lambda url: Response(f"no route for POST {url.split('@', 1)[1]}", status=404),
    "bad_request": lambda url: Response(f"unknown model at {url}", status=400),
}


@pytest.mark.parametrize("case", sorted(ECHOING))
def test_errors_echoing_the_url_never_show_its_secrets(
    ingested: Path, endpoint: FakeLLM, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    """Every model step fails with an error whose text holds the whole URL: the answer still
    comes (from local steps), and the warnings, the route's reason, the logs and `query_log`
    show the failure without a secret."""
    endpoint.script = lambda request: ECHOING[case](secret_url(_port(endpoint)))
    result, printed = _ask_verbose(caplog)
    assert result["answer"] and any("Query-to-SQL failed" in w for w in result["warnings"])
    assert "Query-to-SQL failed" in result["route_reason"]
    _nothing_leaks(printed, caplog)


def test_an_unreachable_endpoint_never_shows_its_secrets(
    ingested: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    monkeypatch.setenv("PI_LLM_BASE_URL", secret_url(closed))
    monkeypatch.setenv("PI_LLM_MODEL", "absent-model")
    monkeypatch.setenv("PI_LLM_MAX_ATTEMPTS", "1")
    get_settings.cache_clear()
    result, printed = _ask_verbose(caplog)
    assert result["answer"] and any("Query-to-SQL failed" in w for w in result["warnings"])
    assert f"127.0.0.1:{closed}" in printed
    _nothing_leaks(printed, caplog)
    get_settings.cache_clear()


def test_llm_ingest_warnings_never_store_the_secrets(
    samples: Path, endpoint: FakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    endpoint.script = lambda request: ECHOING["server_error"](secret_url(_port(endpoint)))
    caplog.set_level(logging.DEBUG)
    code, out, err = run_cli(
        "-vv", "ingest", str(samples / "BESTBUY_2024Q2_10Q.pdf"), "--mode", "llm", "--json"
    )
    assert code == 0 and json.loads(out)["stored"] == 1, err
    assert "llm" in _stored()  # the failed model steps were recorded as warnings
    _nothing_leaks(out + err, caplog)


# -- the redaction functions, on many shapes -------------------------------------------------

REDACTED_URLS = {
    "http://127.0.0.1:8080/v1": "http://127.0.0.1:8080/v1",
    "https://api.openai.com/v1/chat/completions": "https://api.openai.com/v1/chat/completions",
    "http://user:pass@host:11434/v1": "http://***@host:11434/v1",
    "http://justauser@host/v1": "http://***@host/v1",
    "http://:pw@host/v1": "http://***@host/v1",
    "https://gw.example.com/v1?code=abc&sig=def": "https://gw.example.com/v1?code=***&sig=***",
    "https://gw.example.com/v1?api-version=2024-06-01": "https://gw.example.com/v1?api-version=***",
    "https://gw.example.com/v1?flag": "https://gw.example.com/v1?***",
    "https://gw.example.com/v1#frag": "https://gw.example.com/v1#***",
    "https://gw.example.com/v1/sk-abc123def456ghi789/chat": "https://gw.example.com/v1/***/chat",
    "https://gw.example.com/key/short/v1": "https://gw.example.com/key/***/v1",
    "https://gw.example.com/token/abc/v1": "https://gw.example.com/token/***/v1",
    "https://gw.example.com/AbCdEf0123456789XyZ/v1": "https://gw.example.com/***/v1",
    "https://gw.example.com/123e4567-e89b-12d3-a456-426614174000/v1": (
        "https://gw.example.com/***/v1"
    ),
    "https://x.openai.azure.com/openai/deployments/gpt-4o-mini-2024-07-18/chat/completions": (
        "https://x.openai.azure.com/openai/deployments/gpt-4o-mini-2024-07-18/chat/completions"
    ),
    "http://[::1]:8000/v1?k=v": "http://[::1]:8000/v1?k=***",
    "http://host:99999999999/v1": "<unparsable URL>",
}


@pytest.mark.no_database
@pytest.mark.parametrize("url", sorted(REDACTED_URLS))
def test_redact_url_masks_secrets_and_keeps_the_rest(url: str) -> None:
    assert redact_url(url) == REDACTED_URLS[url]


@pytest.mark.no_database
def test_redact_url_masks_every_secret_of_a_url_at_once() -> None:
    shown = redact_url(secret_url(8443))
    assert shown == "http://***@127.0.0.1:8443/key/***/***/v1?code=***&sig=***#***"
    assert _leaks(shown) == []


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "HTTP 401 for https://u:p@gw.example.com/v1?code=abc123, try again",
            "HTTP 401 for https://***@gw.example.com/v1?code=***, try again",
        ),
        ("(see http://host/v1#secret).", "(see http://host/v1#***)."),
        ("no route for POST /v1?code=abc&sig=d/chat", "no route for POST /v1?code=***&sig=***"),
        ("Authorization: Bearer abc.def.ghi failed", "Authorization: Bearer *** failed"),
        (
            "Incorrect API key provided: sk-proj-4fG7hJ2kL9mN3pQ8xx",
            "Incorrect API key provided: ***",
        ),
        ("no route /key/AbCdEf0123456789/v1/chat", "no route /key/***/v1/chat"),
        (
            "BESTBUY_2024Q2_10Q: llm tree search failed; risk-adjusted",
            "BESTBUY_2024Q2_10Q: llm tree search failed; risk-adjusted",
        ),
        ("cannot read /tmp/pi-test-x/BESTBUY_2024Q2_10Q.pdf", None),
    ],
)
def test_redact_text_masks_secrets_in_messages(message: str, expected: str | None) -> None:
    assert redact_text(message) == (message if expected is None else expected)


@pytest.mark.no_database
def test_an_api_key_a_server_echoes_is_masked_in_the_error() -> None:
    """A gateway that quotes the key it refused (as OpenAI's 401 does) and the URL it was
    asked: the error names the model and the refusal, not the key or the URL's secrets."""
    key = "gw-9fK2mQ7xL4pZ8wR3"

    def refuse(request: dict[str, Any]) -> Response:
        return Response(f"Incorrect API key provided: {key} at {secret_url(1)}", status=401)

    chats: list[StructuredChat] = []
    with FakeLLM(refuse) as server:
        url = secret_url(_port(server))
        chat = make_chat(server, chats, llm_api_key=key, llm_base_url=url)
        assert chat.transport.settings.llm_api_key == key  # type: ignore[attr-defined]
        with pytest.raises(LLMRequestError) as refused:
            ask(chat)
        chat.close()
    message = str(refused.value)
    assert "HTTP 401" in message and "Incorrect API key provided: ***" in message
    assert key not in message and _leaks(message) == []
