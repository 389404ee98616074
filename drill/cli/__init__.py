"""The command line: argument parsing (main) and one module per command (commands/)."""
