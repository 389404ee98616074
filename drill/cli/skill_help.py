"""The skill ids listed under ``drill start --help`` (read from the manifest, no generator)."""

from __future__ import annotations


def skill_help(argv: list[str] | None) -> str:
    """``--skill``'s help: the skill ids, in curriculum order, when start's help is asked."""
    text = "only these skills"
    if argv is None or "start" not in argv or not {"-h", "--help"} & set(argv):
        return text
    from drill.content.skills.manifest import MANIFEST

    return f"{text}: {', '.join(entry.id for entry in MANIFEST)}"
