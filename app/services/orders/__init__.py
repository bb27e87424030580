"""What a power orders: submission, what it must order, acknowledgements."""
