"""The inbound runner: the loop over an inbox and the handling of one mail in its unit of work (Mailman 3 ``runners/``)."""
