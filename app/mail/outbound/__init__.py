"""Mail going out: the mailers (SMTP, maildir, memory) and the outbox drain (Mailman 3 ``mta/`` and the outgoing runner)."""
