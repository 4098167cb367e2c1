"""Questions of two figures in freer words: one line's change between two periods ("How much
did Orbit's shipping costs grow in 2023 compared with 2022?", "... increase in 2023?", "By
what percentage did ... decrease ..."), two named parts combined ("the combined 2023 revenues
in the Asia Pacific and Europe, Middle East & Africa regions"); each side asked as a question
of its own and checked, the working cited. And the single figures those sides stand on: a
region named with commas, a region's row under an unlabelled total, a share said of one
customer among several, a count of the rest of the world on a wrapped line, a part named after
the company ("Orbit China's")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pageindex_platform.search.two_figures import two_asked

from .conftest import ingest_once
from .helpers import annual_filing, run_json

TEXT = """# Item 7. Management's Discussion and Analysis

Revenues by geographical region consisted of the following (in millions):
Years Ended December 31,
2023 2022 2021
Americas $ 5,000 $ 4,800 $ 4,500
Europe, Middle East and Africa 2,500 2,400 2,300
Asia Pacific 1,500 1,300 1,200
$ 9,000 $ 8,500 $ 8,000

Shipping costs, which include sortation and delivery centers and transportation costs, were
$27.7 billion and $37.9 billion in 2022 and 2023.
Advertising expenses for the years ended December 31, 2023, 2022, and 2021 were $641 million,
$523 million, and $495 million, respectively, and are included in marketing expense.
In 2023, our three largest customers accounted for 39% of our net revenue, with Northwind Inc.
accounting for 17%, Contoso Group accounting for 12% and Fabrikam accounting for 10%.
Orbit China net revenues were $674 million in 2023, compared to $1.2 billion in 2022.
Tail-Spin Toys Inc. and its affiliates accounted for 20 percent of our consolidated net sales
and 29 percent of net sales of our Retail segment.
In fiscal year 2023, Flexibles accounted for approximately 76% of consolidated net sales.
At year end we had 5,477 full-time employees worldwide with 662 full-time employees outside the
US. We also engage temporary employees and consultants.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Net revenue 9,000 8,500 8,000
Cost of sales 4,000 3,800 3,600
Gross margin 5,000 4,700 4,400
Research and development 1,800 1,700 1,600
Marketing, general and administrative 1,700 1,600 1,500
Operating income 1,500 1,400 1,300
Provision for taxes 300 400 200
Net income 1,200 1,000 1,100
"""


@pytest.fixture
def orbit(tmp_path: Path) -> None:
    files = {"orbit-10k-2023.md": annual_filing(2023, TEXT, name="ORBIT CORPORATION")}
    ingest_once("orbit", tmp_path / "orbit", files)


def _headline(question: str) -> dict[str, Any]:
    out = run_json("ask", question)
    assert out["headline"] is not None, out["answer"]
    return dict(out["headline"])


FREER = [
    # an amount said in a sentence for each year, the later less the earlier
    ("How much did Orbit's shipping costs grow in 2023 compared with 2022?", 10.2e9),
    ("By how much did Orbit's advertising expenses in 2023 exceed those of 2022?", 118e6),
    # one period named: the change from the year before; rows of a statement
    ("How much did Orbit's research and development expenses increase in 2023?", 100e6),
    (
        "By how much did Orbit's research and development expenses rise year over year in 2023?",
        100e6,
    ),
    ("How much more did Orbit spend on research and development in 2023 than in 2022?", 100e6),
    # an abbreviation of the row's words ("R&D": "Research and development")
    ("How much did Orbit's R&D expenses go up in 2023 versus 2022?", 100e6),
    # a region's rows, a fall asked as a positive amount
    ("How much did Orbit's Asia Pacific revenues increase from 2022 to 2023?", 200e6),
    ("What was the year-over-year decrease in Orbit's net income in fiscal 2022?", 100e6),
    # two parts combined: the words both share ("regions") said of each
    (
        "What were Orbit's combined 2023 net revenues in the Asia Pacific and Europe, "
        "Middle East & Africa regions?",
        4000e6,
    ),
]


def test_a_change_or_a_sum_asked_in_freer_words(orbit: None) -> None:
    for question, value in FREER:
        headline = _headline(question)
        assert headline["value"] == pytest.approx(value), question
        assert headline["kind"] == "metric", question
        assert any(c["name"] == "inputs" for c in headline["checks"]), question


def test_a_change_in_percent_of_a_named_part(orbit: None) -> None:
    headline = _headline(
        "By what percentage did Orbit's revenues in the Americas increase in 2023 compared with "
        "2022?"
    )
    assert headline["value"] == pytest.approx(200 / 4800 * 100, abs=0.05)  # one decimal
    assert headline["unit"] == "%"
    # a decrease asked: the fall as a share of the earlier year's figure
    fall = _headline(
        "By what percentage did Orbit's net income decrease in 2022 compared with 2021?"
    )
    assert fall["value"] == pytest.approx(100 / 1100 * 100, abs=0.05)


SIDES = [
    # a region named with commas, its row printed "and" for "&"
    ("What were Orbit's 2022 net revenues in the Europe, Middle East & Africa region?", 2400e6),
    # a region's row in a table whose total is printed without a label
    ("How much revenue did Orbit generate in its Americas region in 2021?", 4500e6),
    # of a sentence's shares, the one said of the customer asked
    ("What share of Orbit's 2023 net revenue came from Contoso?", 12),
    ("What percentage of Orbit's net revenue in 2023 did Northwind account for?", 17),
    # the share of the whole asked, of those the sentence gives of the part
    (
        "What percentage of Orbit's Retail segment net sales did Tailspin account for in 2023?",
        29,
    ),
    # the part's kind, unsaid by the sentence
    (
        "What percentage of Orbit's consolidated net sales did the Flexibles segment account "
        "for in 2023?",
        76,
    ),
    # a count of the rest of the world whose place is on the next line, and the whole's
    (
        "How many of Orbit's full-time employees were based outside the US at the end of 2023?",
        662,
    ),
    ("How many full-time employees did Orbit have at the end of 2023?", 5477),
]


def test_the_figures_the_sides_stand_on(orbit: None) -> None:
    for question, value in SIDES:
        assert _headline(question)["value"] == pytest.approx(value), question


def test_one_figure_is_never_two_combined(orbit: None) -> None:
    # a part the filing does not print: neither the other part's row nor the whole line
    out = run_json(
        "ask", "What were the combined 2023 net revenues of Orbit's Americas and Atlantis regions?"
    )
    headline = out["headline"]
    assert headline is None or headline["value"] not in (5000e6, 9000e6), out["answer"]


NO_CHANGE = [
    "By how many did Orbit's full-time employees increase in 2023?",
    "How many full-time employees did Orbit add in 2023 compared with 2022?",
]


def test_a_count_a_sentence_says_is_no_change(orbit: None) -> None:
    # "we had 5,477 full-time employees": the year's level, not the change asked
    for question in NO_CHANGE:
        out = run_json("ask", question)
        assert out["headline"] is None or out["headline"]["value"] != 5477, out["answer"]


def test_a_part_named_after_the_company_is_not_the_company(orbit: None) -> None:
    out = run_json("ask", "What were Orbit China's net revenues in 2023?")
    headline = out["headline"]
    assert headline is None or headline["value"] != pytest.approx(9000e6), out["answer"]
    # nor is the whole company's change the part's
    out = run_json(
        "ask",
        "By what percentage did Orbit China's net revenues decrease in 2023 compared with 2022?",
    )
    headline = out["headline"]
    whole = (9000 - 8500) / 8500 * 100
    stated = None if headline is None else abs(headline["value"])
    assert stated != pytest.approx(whole, abs=0.1), out["answer"]


@pytest.mark.no_database
def test_the_sides_of_a_question() -> None:
    change = two_asked("How much did Acme's revenue fall from 2021 to 2022?")
    assert change is not None and change.periods and change.less
    assert (change.first, change.second) == (
        "How much was Acme's revenue in 2022?",
        "How much was Acme's revenue in 2021?",
    )
    # "and" inside a name: each reading, in order, until both sides are found
    combined = two_asked(
        "What were the combined 2021 operating revenues of Acme's Small and Medium Business and "
        "Global Enterprise customer groups?"
    )
    assert combined is not None and combined.added
    readings = [(combined.first, combined.second), *(other[:2] for other in combined.others)]
    assert (
        "What were the 2021 operating revenues of Acme's Small and Medium Business customer group?",
        "What were the 2021 operating revenues of Acme's Global Enterprise customer group?",
    ) in readings
    # the kind of part said after both names is no word of the second name
    units = two_asked("What were the combined 2016 revenues of Acme's Andes and Brazil SBUs?")
    assert units is not None and units.parts == ("Andes", "Brazil")
    assert units.first == "What were the 2016 revenues of Acme's Andes SBU?"
    # two periods are not two parts; a period earlier than the first is no change asked
    assert two_asked("What were Acme's combined revenues in 2021 and 2022?") is None
    assert two_asked("How much did Acme's revenue grow from 2022 to 2021?") is None
    # one line in two quarters: each side the line in its own quarter
    quarters = two_asked(
        "How much higher was Acme's product development expense in the second quarter of 2023 "
        "than in the second quarter of 2022?"
    )
    assert quarters is not None and quarters.periods
    assert quarters.second == (
        "What was Acme's product development expense in the second quarter of 2022?"
    )
    # the first months of two years, or the months ended at two dates
    months = two_asked(
        "By how much did Acme's product development expense for the first six months of 2023 "
        "exceed that of the first six months of 2022?"
    )
    assert months is not None and months.second == (
        "How much was Acme's product development expense in the first six months of 2022?"
    )
    ended = two_asked(
        "By how much did Acme's capital expenditures for the nine months ended September 30, "
        "2022 exceed those for the nine months ended September 30, 2021?"
    )
    assert ended is not None and ended.second.endswith("nine months ended September 30, 2021?")
    # periods of two lengths are no change of one line
    assert (
        two_asked("How much higher was Acme's revenue in the second quarter of 2023 than in 2022?")
        is None
    )
    assert (
        two_asked(
            "By how much did Acme's revenue in Q2 2023 exceed that of the first six months of 2022?"
        )
        is None
    )
    # one line asked of two places: the second side keeps the first's line
    places = two_asked("How much higher were Acme's revenues from the Americas than from EMEA?")
    assert places is not None
    assert places.second == "What were Acme's revenues from EMEA?"
