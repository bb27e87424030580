"""Overriding a processed phase: changes, the new course, old and new side by side, the notice."""
