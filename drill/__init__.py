"""roofline-drill: a terminal trainer for GPU roofline reasoning."""

__version__ = "0.1.0"
