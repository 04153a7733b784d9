"""The card art: 48 distinct standalone SVG faces and a back, badges by kind."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from koikoi.cards import CARD_COUNT, CARDS, Card, Kind
from koikoi.server.cardart import card_back_svg, card_svg, card_title

NS = "http://www.w3.org/2000/svg"
SVG = f"{{{NS}}}"
MAX_BYTES = 8 * 1024

# The badge of each kind: the tags of its shapes (plains have none).
BADGE_SHAPES = {
    Kind.BRIGHT: {"path", "circle"},
    Kind.ANIMAL: {"polygon"},
    Kind.RIBBON: {"rect"},
}


def parse(document: str) -> ET.Element:
    return ET.fromstring(document)


def local(tag: str) -> str:
    return tag.removeprefix(SVG)


def badges(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "badge" in g.get("class", "").split()]


ALL_DOCUMENTS = [*(card_svg(card.id) for card in CARDS), card_back_svg()]


@pytest.mark.parametrize("document", ALL_DOCUMENTS)
def test_every_document_is_a_standalone_svg(document: str) -> None:
    root = parse(document)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 100 160"
    assert root.get("role") == "img"
    assert root.get("width") is None
    assert root.get("height") is None
    first = root[0]
    assert local(first.tag) == "title"
    assert first.text
    assert len(document.encode()) < MAX_BYTES


@pytest.mark.parametrize("document", ALL_DOCUMENTS)
def test_no_scripts_ids_or_external_references(document: str) -> None:
    root = parse(document)
    tags = {local(element.tag) for element in root.iter()}
    assert not tags & {"script", "image", "use", "foreignObject", "style"}
    for element in root.iter():
        for name in element.attrib:
            assert name != "id"
            assert not name.startswith("on")
            assert "href" not in name
    assert "url(" not in document
    assert "http" not in document.replace(NS, "")


def test_every_card_is_distinct() -> None:
    documents = [card_svg(card.id) for card in CARDS]
    assert len(set(documents)) == CARD_COUNT
    # The pictures themselves differ, not only the titles.
    pictures = {re.sub(r"<title>.*?</title>|data-card=\"[^\"]*\"", "", d) for d in documents}
    assert len(pictures) == CARD_COUNT
    assert card_back_svg() not in documents


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card.slug)
def test_the_month_number_is_shown(card: Card) -> None:
    root = parse(card_svg(card.id))
    month = [g for g in root.iter(f"{SVG}g") if g.get("class") == "month"]
    assert len(month) == 1
    texts = [t.text for t in month[0].iter(f"{SVG}text")]
    assert texts == [str(card.month)]


@pytest.mark.parametrize("card_id", range(CARD_COUNT))
def test_badges_differ_by_kind_in_shape(card_id: int) -> None:
    kind = CARDS[card_id].kind
    root = parse(card_svg(card_id))
    found = badges(root)
    if kind is Kind.PLAIN:
        assert found == []
        return
    assert len(found) == 1
    badge = found[0]
    assert badge.get("class") == f"badge badge-{kind.value}"
    assert {local(child.tag) for child in badge} == BADGE_SHAPES[kind]
    assert f"card-{kind.value}" in root.get("class", "").split()


def test_badge_shapes_are_all_different() -> None:
    shapes = list(BADGE_SHAPES.values())
    assert all(a != b for i, a in enumerate(shapes) for b in shapes[i + 1 :])
    colours: set[str | None] = set()
    for kind in BADGE_SHAPES:
        card_id = next(card.id for card in CARDS if card.kind is kind)
        badge = badges(parse(card_svg(card_id)))[0]
        colours.add(next(iter(badge)).get("fill"))
    assert len(colours) == len(BADGE_SHAPES)


@pytest.mark.parametrize(
    ("card_id", "title"),
    [
        (0, "Pine · Crane (bright)"),
        (1, "Pine · Poetry ribbon (ribbon)"),
        (3, "Pine · Plain 2 (plain)"),
        (17, "Iris · Red ribbon (ribbon)"),
        (28, "Susuki · Moon (bright)"),
        (32, "Chrysanthemum · Sake cup (animal)"),
        (37, "Maple · Blue ribbon (ribbon)"),
        (40, "Willow · Rain man (bright)"),
        (47, "Paulownia · Plain 3 (plain)"),
    ],
)
def test_titles_name_the_card(card_id: int, title: str) -> None:
    assert card_title(card_id) == title
    root = parse(card_svg(card_id))
    assert root.findtext(f"{SVG}title") == title


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card.slug)
def test_every_title_names_flower_and_kind(card: Card) -> None:
    root = parse(card_svg(card.id))
    title = root.findtext(f"{SVG}title") or ""
    assert title.startswith(card.flower.capitalize() + " · ")
    assert title.endswith(f"({card.kind.value})")
    assert root.get("data-card") == card.slug


def test_output_is_deterministic() -> None:
    first = [card_svg(i) for i in range(CARD_COUNT)] + [card_back_svg()]
    card_svg.cache_clear()
    card_back_svg.cache_clear()
    assert [card_svg(i) for i in range(CARD_COUNT)] + [card_back_svg()] == first


@pytest.mark.parametrize("bad", [-1, CARD_COUNT, 100])
def test_unknown_card_ids_are_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="no card"):
        card_svg(bad)


def test_the_back_is_titled() -> None:
    root = parse(card_back_svg())
    assert root.findtext(f"{SVG}title") == "Card back"
    assert badges(root) == []
