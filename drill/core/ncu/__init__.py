"""Nsight Compute reports: parsing (parse), per-kernel figures and the roofline reading
(analysis). Pure functions, no UI: the ``drill ncu`` command and the quiz build on them."""
