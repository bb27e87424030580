"""The kernel of the use cases: the judge (service container), who asks, access and audit, the unit of work."""
