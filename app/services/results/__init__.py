"""The results as players read them: orders, centres, maps."""
