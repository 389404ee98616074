"""Renderers shared by the CLI and the TUI (rich tables, plotext roofline)."""
