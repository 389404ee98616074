"""A card's prose in Chinese: the ``zh:`` block of a card file translates the English notes,
inferred figures, exceptions, interconnect remarks and on-chip sources item for item, so a
page in Chinese reads whole; an item left out is shown in English."""

from __future__ import annotations

from drill.content.problems import Problem

# what the ``zh:`` block may translate, and the shape of each: a list matches its English
# list item for item, a mapping matches its English keys
ZH_LISTS = ("notes", "inferred")
ZH_MAPS = ("exceptions", "hierarchy")
ZH_INTERCONNECT = {"inferred": list, "package_note": str, "sharp": str}


def english(card) -> dict:
    """The English prose a ``zh:`` block translates, in the block's own shape."""
    ic = card.interconnect
    return {
        "notes": list(card.notes),
        "inferred": list(card.inferred),
        "exceptions": dict(card.exceptions),
        "hierarchy": {
            name: level.source for name, level in card.hierarchy.items() if level.kind != "derived"
        },
        "interconnect": {
            "inferred": list(ic.inferred),
            "package_note": ic.package_note,
            "sharp": ic.sharp,
        }
        if ic
        else {},
    }


def check(block: object, card, path: str, line: int) -> tuple[dict, list[Problem]]:
    """The usable part of a card's ``zh:`` block and a problem for each item that does not
    match the English it translates."""
    if not isinstance(block, dict):
        return {}, [Problem(path, line, "zh", "must be a mapping of translated prose")]
    problems: list[Problem] = []
    want = english(card)
    kept: dict = {}

    def bad(where: str, message: str) -> None:
        problems.append(Problem(path, line, f"zh.{where}", message))

    for key, value in block.items():
        key = str(key)
        if key in ZH_LISTS:
            items = value if isinstance(value, list) else None
            if items is None or not all(isinstance(i, str) and i.strip() for i in items):
                bad(key, "must be a list of sentences")
            elif len(items) != len(want[key]):
                bad(key, f"gives {len(items)} for the {len(want[key])} items of {key}")
            else:
                kept[key] = [i.strip() for i in items]
        elif key in ZH_MAPS:
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                bad(key, "must map each English key to a sentence")
            elif set(map(str, value)) - set(want[key]):
                extra = ", ".join(sorted(set(map(str, value)) - set(want[key])))
                bad(key, f"translates what the card does not say: {extra}")
            else:
                kept[key] = {str(k): str(v).strip() for k, v in value.items()}
        elif key == "interconnect":
            kept_ic, found = _interconnect(value, want[key], path, line)
            problems += found
            if kept_ic:
                kept[key] = kept_ic
        else:
            known = ", ".join((*ZH_LISTS, *ZH_MAPS, "interconnect"))
            bad(key, f"is not prose a card translates (known: {known})")
    return kept, problems


def _interconnect(value: object, want: dict, path: str, line: int):
    if not isinstance(value, dict):
        return {}, [Problem(path, line, "zh.interconnect", "must be a mapping")]
    if not want:
        return {}, [Problem(path, line, "zh.interconnect", "the card has no interconnect block")]
    kept: dict = {}
    problems = []
    for key, text in value.items():
        key = str(key)
        kind = ZH_INTERCONNECT.get(key)
        where = f"zh.interconnect.{key}"
        if kind is None:
            problems.append(Problem(path, line, where, "is not interconnect prose"))
        elif kind is list and (
            not isinstance(text, list) or len(text) != len(want[key]) or not all(text)
        ):
            problems.append(
                Problem(path, line, where, f"needs one sentence for each of {len(want[key])}")
            )
        elif kind is str and (not isinstance(text, str) or not want[key]):
            problems.append(Problem(path, line, where, "translates nothing the card says"))
        else:
            kept[key] = [str(t).strip() for t in text] if kind is list else str(text).strip()
    return kept, problems


def said(card, key: str, lang: str, part: str = ""):
    """The card's ``key`` prose (within ``part``, for "interconnect") in ``lang``: the
    Chinese where the card gives it, else the English."""
    mine = english(card)
    text = mine[part][key] if part else mine[key]
    if lang != "zh":
        return text
    zh = card.zh.get(part, {}) if part else card.zh
    given = zh.get(key)
    if given is None:
        return text
    if isinstance(text, dict):
        return {k: given.get(k, v) for k, v in text.items()}
    return given
