"""The Textual app: home, practice, calculator, catalog and settings screens."""
