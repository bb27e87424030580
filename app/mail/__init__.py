"""The mail layer: parsing and rendering messages, inboxes (IMAP, maildir, memory) and mailers."""
