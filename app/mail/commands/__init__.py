"""Mail commands: the registry, one module per group of commands, the session of one mail, the refusals in the mail door's words (Mailman 3 ``commands/``)."""
