"""Skills (scenario templates), generation, grading, and the session that drives them."""
