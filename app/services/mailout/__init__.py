"""Mail the use cases send: the transactional outbox, notifications, addresses, display of stored mail."""
