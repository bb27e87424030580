"""Use cases: the only layer that combines engine, database and mail.  They work in their
caller's unit of work (``kernel/uow.py``, opened and committed once by a door or a job) and
never commit; packages in layers (docs/architecture.md)."""
