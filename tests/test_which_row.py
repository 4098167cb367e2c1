"""Which row or amount a question means where a filing prints several: the table the question
names ("per the electricity operating statistics"), a rate per unit printed as it is, a share
written after its name and a colon, an amount of one acquisition, the amount a sentence gives
rather than its revision. Where nothing tells two rows apart, nothing is stated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import annual_filing, ingest_files, run_json
from .helpers import stated_value as _stated

FILING = """# Item 1. Business

Electricity Operating Statistics
The following table shows certain of the Utility's operating statistics from 2021 to 2023 for
electricity sold or delivered, including the classification of revenues by type of service.
2023 2022 2021
Revenues (in millions):
Residential 5,100 4,900 4,700
Commercial 4,300 4,100 3,900
Total operating revenues 9,400 9,000 8,600
Selected Statistics:
Average annual residential usage (kWh) 6,179 5,750 5,772
Average billed revenues per kWh:
Residential 0.1852 0.1762 0.1838
Commercial 0.1730 0.1585 0.1627
Net plant investment per customer 8,889 8,375 7,950

Natural Gas Operating Statistics
The following table shows the Utility's operating statistics from 2021 through 2023 for natural
gas, including the classification of revenues by type of service.
2023 2022 2021
Revenues (in millions):
Residential 2,100 2,000 1,900
Commercial 800 760 720
Total operating revenues 2,900 2,760 2,620
Selected Statistics:
Average annual residential usage (Mcf) 37 38 38
Average billed bundled gas sales revenues per Mcf:
Residential 15.09 13.88 12.67
Net plant investment per customer 3,794 3,522 3,417

# Item 7. Management's Discussion and Analysis

Research and development expenses (in millions):
Year Ended December 31,
2023 2022
Research and development 2,150 2,000
% of Total Revenues 17% 16%

Our provision for income taxes reflects the transition tax of the Tax Act, partially offset by:
• $820 million of income tax benefit, which we refined by a $76 million increase as of
December 31, 2023 from our initial estimate, related to the remeasurement of our net
deferred tax liabilities; and
• the net favorable impacts of the Tax Act on our effective tax rate.

# Item 8. Financial Statements

CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
Years Ended December 31,
2023 2022 2021
Total revenues 12,300 12,100 11,500
Research and development 2,150 2,000 1,900
Operating income 2,400 2,300 2,100
Net income 1,600 1,500 1,400

CONSOLIDATED BALANCE SHEETS
(In millions)
December 31, 2023 December 31, 2022
Cash and cash equivalents 1,200 1,100
Goodwill 4,244 4,096
Total assets 25,000 24,000
Total stockholders' equity 9,000 8,800

# Note 3. Business Combinations

On May 31, 2023, we completed the acquisition of Zephyr Labs. The following table summarizes
the revised allocation of the aggregate purchase consideration (in millions):
Goodwill 148
Purchased intangible assets 109
Deferred taxes (18)
Total 239
"""


@pytest.fixture
def utility(tmp_path: Path) -> None:
    files = {"corvane-10k-2023.md": annual_filing(2023, FILING, name="CORVANE ENERGY INC.")}
    ingest_files(tmp_path / "corvane", files)


def _asked(question: str) -> dict[str, Any]:
    return dict(run_json("ask", question))


def test_the_table_the_question_names_of_two_rows_so_named(utility: None) -> None:
    # the electricity table's row, printed per customer: not the gas table's, not in millions
    assert _stated(
        "Corvane Energy electric operations: net plant investment per customer in 2023, per the "
        "FY2023 10-K electricity operating statistics (USD)."
    ) == pytest.approx(8_889)
    # nothing tells the two tables apart: neither figure is stated
    out = _asked("Corvane Energy net plant investment per customer in 2023")
    assert out["headline"] is None, out["answer"]
    assert {c["value"] for c in out["candidates"]} >= {8_889, 3_794}


def test_a_share_written_after_its_name_and_a_colon(utility: None) -> None:
    # computed to the place asked, not the MD&A's "17%" printed to none
    assert _stated(
        "Corvane Energy FY2023 R&D intensity: research and development expense as a percentage of "
        "total revenues, rounded to one decimal."
    ) == pytest.approx(17.5, abs=0.05)


def test_an_amount_of_one_acquisition_is_no_balance_sheet_line(utility: None) -> None:
    out = _asked(
        "How much goodwill was recognized in the revised purchase price allocation for Zephyr "
        "Labs (USD millions)?"
    )
    headline = out["headline"]
    assert headline is None or headline["value"] != pytest.approx(4_244e6), out["answer"]


def test_a_sentences_amount_not_the_revision_said_after_it(utility: None) -> None:
    assert _stated(
        "In fiscal 2023, how much income tax benefit did Corvane Energy record for the "
        "remeasurement of its net deferred tax liabilities under the Tax Act (USD millions)?"
    ) == pytest.approx(820e6)


def test_a_percentage_printed_to_fewer_places_than_asked(utility: None) -> None:
    asked = "What was Corvane Energy's research and development % of total revenues in fiscal 2023"
    assert _stated(f"{asked}?") == 17  # the table's own "17%"
    out = _asked(f"{asked}, rounded to one decimal?")  # "17%" is not it to one decimal place
    assert out["headline"] is None, out["answer"]
    assert "printed to 0 decimal places" in out["candidates"][0]["set_aside"]
