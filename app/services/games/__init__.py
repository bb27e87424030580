"""Games and the people in them: create, join, sign on, the GM's powers, accounts."""
