"""Bilingual text: the ``Text`` value type and the message catalog (``tr``)."""

from drill.i18n.catalog import STRINGS, tr
from drill.i18n.text import LANGS, Text

__all__ = ["LANGS", "STRINGS", "Text", "tr"]
