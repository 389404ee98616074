"""The one error the measure package raises; the CLI turns it into one line."""

from __future__ import annotations


class MeasureError(RuntimeError):
    """The device cannot be measured (no GPU library, no device); the message is one line."""
