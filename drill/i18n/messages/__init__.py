"""The catalog's strings by area; ``drill.i18n.catalog`` merges them and ``tr`` looks them up."""
