"""Bounds on the numbers drill reads from users and their files: a count or a quantity past
these is a typo or an attack, never a GPU, a model or a workload (and larger integers stop
converting to floats)."""

MAX_COUNT = 10**15
MAX_NUMBER = 1e15
