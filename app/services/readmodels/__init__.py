"""What pages and lists show: read-only views for the dashboard and public look-ups."""
