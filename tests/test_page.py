"""The rehearsal page generator, read back with an HTML parser (no browser, milliseconds)."""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from urllib.parse import unquote

import pytest

from studio.present.page import build_page
from tests.fixtures_media import SAMPLE_LEDGER, synthetic_manifest

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: "Node | None"):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.content: list[Node | str] = []  # children and text in document order

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        return "".join(part if isinstance(part, str) else part.text() for part in self.content)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list["Node"]:
        return [n for n in self.walk()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def find(self, *args, **kwargs) -> "Node":
        found = self.find_all(*args, **kwargs)
        assert found, f"no element {args} {kwargs}"
        return found[0]


class TreeBuilder(HTMLParser):
    """Enough of a DOM to query tags, attributes and text; fails on unbalanced tags."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        self.current.content.append(node)
        if tag not in VOID:
            self.current = node

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.current.tag == tag, f"</{tag}> closes <{self.current.tag}>"
        self.current = self.current.parent

    def handle_data(self, data):
        self.current.content.append(data)


def parse(text: str) -> Node:
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    assert builder.current is builder.root, f"<{builder.current.tag}> never closed"
    return builder.root


def snippet_attrs(code: Node) -> dict[str, str | None]:
    """Parse the (unescaped) text of an embed snippet as HTML: the tag the deck will get."""
    video = parse(code.text()).find("video")
    return video.attrs


@pytest.fixture
def manifest():
    return synthetic_manifest()


@pytest.fixture
def pages(manifest):
    files = build_page(manifest, SAMPLE_LEDGER)
    return {name: parse(text) for name, text in files.items()} | {"raw": files}


def test_publishes_index_and_ledger(pages):
    assert set(pages["raw"]) == {"index.html", "ledger.html"}
    for text in pages["raw"].values():
        assert text.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in text


def test_scenes_in_lecture_order_with_title_duration_and_poster(pages, manifest):
    cards = pages["index.html"].find_all("section", cls="scene")
    assert [c.attrs["data-scene-id"] for c in cards] == [s["id"] for s in manifest["scenes"]]
    for card, scene in zip(cards, manifest["scenes"]):
        assert card.find("h2").text() == scene["title"]
        assert f'{scene["duration_s"]:.1f} 秒' in card.find("span", cls="duration").text()
        assert card.find("video", cls="player").attrs["poster"] == scene["files"]["png"]


def test_loop_loops_and_walkthrough_shows_one_section(pages, manifest):
    walkthrough, loop = manifest["scenes"]
    index = pages["index.html"]
    loop_video = index.find("section", data_scene_id=loop["id"]).find("video", cls="player")
    assert "loop" in loop_video.attrs and "autoplay" in loop_video.attrs and "muted" in loop_video.attrs
    assert loop_video.attrs["src"] == loop["files"]["mp4"]

    card = index.find("section", data_scene_id=walkthrough["id"])
    video = card.find("video", cls="player")
    assert "loop" not in video.attrs
    assert video.attrs["src"] == walkthrough["sections"][0]["file"]
    tabs = card.find_all("button", cls="section-tab")
    assert [t.attrs["data-src"] for t in tabs] == [s["file"] for s in walkthrough["sections"]]
    assert [t.find("span", cls="section-name").text() for t in tabs] == [s["name"] for s in walkthrough["sections"]]


def test_presenter_data_lists_every_section_in_order(pages, manifest):
    data = json.loads(pages["index.html"].find("script", id="page-data").text())
    assert [s["id"] for s in data] == [s["id"] for s in manifest["scenes"]]
    assert [s["name"] for s in data[0]["sections"]] == ["A", "B", "C"]
    assert data[1]["loop"] is True and data[1]["mp4"] == "anim-reverse.mp4"
    presenter = pages["index.html"].find("div", id="presenter")
    assert "hidden" in presenter.attrs
    assert presenter.find("video", id="presenter-video") and presenter.find("strong", id="presenter-section")


def test_embed_snippets_play_by_themselves(pages, manifest):
    for scene in manifest["scenes"]:
        card = pages["index.html"].find("section", data_scene_id=scene["id"])
        blocks = card.find_all("div", cls="snippet")
        whole = snippet_attrs(blocks[0].find("code"))
        assert whole["src"] == scene["files"]["mp4"] and whole["poster"] == scene["files"]["png"]
        assert {"autoplay", "muted", "playsinline"} <= set(whole)
        assert ("loop" in whole) == scene["loop"]
        assert all(b.find("button", cls="copy") for b in blocks)
        section_srcs = [snippet_attrs(b.find("code"))["src"] for b in blocks[1:]]
        assert section_srcs == ([] if scene["loop"] else [s["file"] for s in scene["sections"]])


def test_each_scene_lists_its_numbers_with_kind_and_provenance(pages, manifest):
    for scene in manifest["scenes"]:
        rows = pages["index.html"].find("section", data_scene_id=scene["id"]).find("tbody").find_all("tr")
        assert [r.attrs["data-key"] for r in rows] == scene["ledger_keys"]
        for row in rows:
            entry = SAMPLE_LEDGER[row.attrs["data-key"]]
            cells = row.find_all("td")
            assert entry["display"] in cells[1].text()
            assert cells[2].text() == {"sourced": "查来的", "derived": "推来的"}[entry["kind"]]
            expected = entry["formula"] if entry["kind"] == "derived" else entry["citation"]
            assert expected in cells[3].text()


def test_every_ledger_link_lands_on_an_entry(pages):
    ids = {n.attrs["id"] for n in pages["ledger.html"].find_all("tr", cls="entry")}
    assert len(ids) == len(SAMPLE_LEDGER)
    links = [a.attrs["href"] for page in ("index.html", "ledger.html") for a in pages[page].find_all("a")
             if "#n-" in (a.attrs.get("href") or "")]
    assert len(links) >= len(SAMPLE_LEDGER)
    for href in links:
        assert unquote(href.split("#", 1)[1]) in ids, href
    assert pages["index.html"].find("a", cls="ledger-link").attrs["href"] == "ledger.html"


def test_ledger_page_shows_notes_agreement_and_scenes(pages):
    row = pages["ledger.html"].find("tr", id="n-reverse.speedup")
    cells = row.find_all("td")
    assert "不一致" in cells[4].text()
    assert cells[5].find("a").attrs["href"] == "index.html#anim-reverse"


def test_nothing_is_fetched_from_outside(pages):
    for name in ("index.html", "ledger.html"):
        raw = pages["raw"][name]
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", raw), name
        assert not pages[name].find_all("link") and not any("src" in s.attrs for s in pages[name].find_all("script"))


def test_text_from_data_is_escaped(manifest):
    hostile = '<script>alert("x")</script> & “引号”'
    manifest["scenes"][0]["title"] = hostile
    manifest["scenes"][0]["sections"][1]["name"] = "B</script><b>"
    ledger = copy.deepcopy(SAMPLE_LEDGER)
    ledger["circuit.a"]["citation"] = '<img src=x onerror="alert(1)">'
    ledger["circuit.f"]["formula"] = "f < a & b > c"
    files = build_page(manifest, ledger)
    index = files["index.html"]
    assert "<script>alert" not in index and "<img src=x" not in index and "<b>" not in index
    tree = parse(index)
    assert tree.find("section", data_scene_id="fig-circuit").find("h2").text() == hostile
    assert [s.tag for s in tree.find_all("script")] == ["script", "script"]  # page data + page code only
    data = json.loads(tree.find("script", id="page-data").text())
    assert data[0]["title"] == hostile and data[0]["sections"][1]["name"] == "B</script><b>"
    assert "<img src=x" not in files["ledger.html"]
    assert "f < a & b > c" in parse(files["ledger.html"]).find("tr", id="n-circuit.f").text()


def test_file_paths_are_url_encoded(manifest):
    manifest["scenes"][1]["files"]["mp4"] = "anim reverse#1.mp4"
    video = parse(build_page(manifest, SAMPLE_LEDGER)["index.html"]).find("video", cls="player", src="anim%20reverse%231.mp4")
    assert "loop" in video.attrs


def test_tolerates_sparse_data():
    manifest = {"quality": "low", "scenes": [
        {"id": "fig-bare", "duration_s": None, "files": {"mp4": "fig-bare.mp4"}, "ledger_keys": ["nowhere.key"]},
        {"id": "fig-extra", "title": "多出来的数", "duration_s": 3, "loop": False, "files": {"mp4": "x.mp4"}, "sections": []},
    ]}
    ledger = {"bare.value": {"value": 7, "scenes": ["fig-extra"]},
              "listed.inputs": {"value": 1, "kind": "derived", "formula": "y = x", "inputs": ["bare.value"]}}
    files = build_page(manifest, ledger)
    index = parse(files["index.html"])
    bare = index.find("section", data_scene_id="fig-bare")
    assert bare.find("h2").text() == "fig-bare" and "—" in bare.find("span", cls="duration").text()
    assert "账本中没有这个数" in bare.find("tr", cls="absent").text()
    assert "poster" not in bare.find("video", cls="player").attrs
    extra_rows = index.find("section", data_scene_id="fig-extra").find("tbody").find_all("tr")
    assert [r.attrs["data-key"] for r in extra_rows] == ["bare.value"]
    assert "未标注" in extra_rows[0].text()
    ledger_page = parse(files["ledger.html"])
    assert ledger_page.find("tr", id="n-listed.inputs").find("a", href="#n-bare.value")
    empty = parse(build_page({"scenes": []}, {})["index.html"])
    sections = [s for s in empty.find_all("section") if "colour-key" not in s.attrs.get("class", "")]
    assert not sections and "还没有渲染好的场景" in empty.find("main").text()


def test_ledger_entry_shapes_from_the_numerics_ledger(manifest):
    """The shapes ledger_entries gives: inputs as records, breakdown items, roles, missing keys."""
    ledger = copy.deepcopy(SAMPLE_LEDGER)
    ledger["circuit.f"]["inputs"] = {"a": {"key": "circuit.a", "display": "2"},
                                     "k": {"key": "elsewhere.k", "display": "7", "unit": "GiB"}}
    ledger["circuit.f"]["items"] = [{"tensor": "x", "bytes": 4}, {"tensor": "y", "bytes": 8}]
    ledger["circuit.b"].update(role="input", notes_quote="讲稿原话：b 是负三")
    ledger["circuit.a"] = {"key": "circuit.a", "value": None, "unit": "", "kind": "missing", "display": "",
                           "scenes": ["fig-circuit"], "note": "no quantity with this key in lecture_numerics"}
    files = build_page(manifest, ledger)
    ledger_page = parse(files["ledger.html"])

    f_row = ledger_page.find("tr", id="n-circuit.f")
    assert "k = 7 GiB" in " ".join(f_row.find("p", cls="inputs").text().split())
    assert f_row.find("a", title="elsewhere.k").attrs["href"] == "#n-elsewhere.k"
    assert len(f_row.find("details", cls="items").find("tbody").find_all("tr")) == 2

    b_row = ledger_page.find("tr", id="n-circuit.b")
    assert b_row.find("span", cls="role").text() == "推导用的输入"
    assert "讲稿原话：b 是负三" in b_row.text()

    a_row = parse(files["index.html"]).find("tr", data_key="circuit.a")
    assert a_row.find("span", cls="kind").text() == "缺失"
    assert "no quantity with this key" in a_row.text()
    assert "缺失 1" in ledger_page.find("p", cls="meta").text()


def test_long_number_lists_fold_short_ones_stay_open(manifest):
    many = {f"many.k{i}": {"value": i, "kind": "sourced", "display": str(i), "citation": "c"} for i in range(12)}
    manifest["scenes"][1]["ledger_keys"] = list(many)
    index = parse(build_page(manifest, {**SAMPLE_LEDGER, **many})["index.html"])
    short, long = (index.find("section", data_scene_id=s["id"]).find("details", cls="numbers-block")
                   for s in manifest["scenes"])
    assert "open" in short.attrs and "open" not in long.attrs
    shown = 12 + 2  # plus the two sample entries whose scenes list names this scene
    assert f"{shown} 个" in long.find("summary").text() and len(long.find("tbody").find_all("tr")) == shown


def test_page_colours_come_from_the_theme(pages):
    from studio import config

    style = pages["index.html"].find("style").text()
    for name, colour in config.theme()["colors"].items():
        assert f"--{name}: {colour};" in style
