"""讲稿勘误: the places the notes say a number the numerics contradict, for the speaker.

errata() is the interface the cue sheet, deck and page read: each {line, said, right, why, key}; it shows in
ledger.md, on the page's ledger and in the --errata listing (errata_text).
"""

from __future__ import annotations

import re

import pytest

from lecture_numerics import load_all
from lecture_numerics.errata import errata, errata_text
from lecture_numerics.ledger import NOTES_ONLY, ledger_entries, ledger_markdown
from lecture_numerics.notes_file import notes_lines
from studio.page_ledger import ledger_html

ERRATA = errata()
LINES = notes_lines()


def by_key(key: str) -> list[dict]:
    return [e for e in ERRATA if e["key"] == key]


def test_each_erratum_has_the_shared_shape():
    assert ERRATA
    for e in ERRATA:
        assert set(e) == {"line", "said", "right", "why", "key"}
        assert isinstance(e["line"], int) and 1 <= e["line"] <= len(LINES)
        assert all(isinstance(e[f], str) and e[f] for f in ("said", "right", "why", "key"))
        assert e["key"] in load_all()
    assert [e["line"] for e in ERRATA] == sorted(e["line"] for e in ERRATA)


def test_each_erratum_points_at_the_line_that_says_it():
    for e in ERRATA:
        said_numeral = re.match(r"[^\s]+?(?=\s|倍|年|步|个字|字节|批|次|G\b|$)", e["said"]).group()
        assert said_numeral in LINES[e["line"] - 1], e


def test_the_issue_examples_are_errata():
    bill = by_key("act.v3.no_recompute_tib")
    assert bill and {e["right"] for e in bill} == {"4.07 TiB"} and all(e["said"] == "4.15 TiB" for e in bill)
    assert any("激活要 4.15 TiB" in LINES[e["line"] - 1] for e in bill)
    nan = by_key("updratio.nan_multiplier")
    assert len(nan) == 1 and nan[0]["said"] == "2.1" and "再乘 2.1" in LINES[nan[0]["line"] - 1]


def test_words_the_speaker_means_approximately_are_not_errata():
    for key in ("updratio.weight_norm_growth", "updratio.loss_jitter_ratio", "spoken.finite_difference_years",
                "spoken.lora_saving_ratio"):
        assert not by_key(key), key


def test_a_number_only_the_notes_say_can_be_an_erratum():
    growth = by_key("spoken.optimizer_state_growth_years")
    assert growth and growth[0]["right"] == "53 年" and "三十年" in LINES[growth[0]["line"] - 1]


def test_the_listing_has_one_line_per_erratum():
    rows = errata_text().splitlines()
    assert len(rows) == len(ERRATA)
    for row, e in zip(rows, ERRATA):
        assert row.startswith(f"L{e['line']}  讲稿：{e['said']}  →  应为 {e['right']}  （")
        assert e["why"] in row


@pytest.fixture(scope="module")
def entries():
    return ledger_entries({"fig-act-bill": ("act.v3.no_recompute_tib",)})


def test_ledger_markdown_has_the_errata_section(entries):
    md = ledger_markdown(entries)
    section = md.split("## 讲稿勘误", 1)[1].split("\n## ", 1)[0]
    for e in ERRATA:
        assert f"| L{e['line']} | {e['said']} | {e['right']} |" in section
    assert "（无 / none）" in ledger_markdown(entries, [])


def test_numbers_only_the_notes_say_are_in_the_ledger_marked(entries):
    assert entries["spoken.finite_difference_years"]["role"] == "notes"
    assert entries["history.hochreiter_thesis.year"]["role"] == "notes"
    assert f"{NOTES_ONLY}" in ledger_markdown(entries)


def test_the_page_ledger_shows_the_errata_first(entries):
    html = ledger_html(entries)
    assert html.index('id="group-errata"') < html.index('id="group-sourced"')
    for e in ERRATA:
        assert f'data-line="{e["line"]}"' in html
    assert "只在讲稿里" in html
    assert "讲稿里的数都与账本一致" in ledger_html(entries, [])


def test_the_speakers_examples_carry_their_quote_in_the_appendix():
    entries = ledger_entries({"fig-slider": ("slider.desk_faders", "slider.push")})
    chosen = ledger_markdown(entries, []).split("## 示例取值", 1)[1].split("\n## ", 1)[0]
    assert "讲者举的例子：「而这台调音台有三千亿个推子。」" in chosen
    assert "讲者举的例子：「现在我把这个推子往上推一点点，推了零点零一。」" in chosen


def test_render_py_errata_lists_them_and_stops(tmp_path):
    """`render.py --errata` is the speaker's listing: every erratum's line, what the notes say
    and what is right, exit 0, and nothing rendered or written."""
    import subprocess
    import sys

    from tests.render_helpers import ROOT, env

    result = subprocess.run([sys.executable, str(ROOT / "render.py"), "--errata", "--out", str(tmp_path / "out")],
                            cwd=ROOT, env=env(LECTURE_SCENES_DIR=str(ROOT / "scenes")), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    listed = [line for line in result.stdout.splitlines() if line.startswith("L")]
    assert len(listed) == len(ERRATA)
    for line, erratum in zip(listed, ERRATA):
        assert line.startswith(f"L{erratum['line']}") and erratum["said"] in line and erratum["right"] in line
    assert not (tmp_path / "out").exists()
