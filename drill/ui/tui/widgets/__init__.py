"""Self-contained widgets used by the screens."""
