"""Line modes: one driver for ``--plain`` and ``--jsonl``, for practice and the mock interview."""
