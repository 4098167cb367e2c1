"""`pi eval`: retrieval quality of `pi ask` against naive baselines, on the same database."""
