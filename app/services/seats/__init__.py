"""A power's seat: its player's standing settings, absences, takeovers of vacant powers."""
