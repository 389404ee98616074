"""Progress figures from the history: the result types (model) and the SQL that fills them (queries)."""
