"""Test support: throwaway mail servers and their fixtures (never shipped in the package)."""
