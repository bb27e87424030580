"""The text of the judge's answers: pure rendering of the use cases' values (no session, no commands)."""
