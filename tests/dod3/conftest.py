"""The DoD III mail game's fixtures (tests/dod3/mailgame.py)."""

from tests.dod3.mailgame import harness, seeds  # noqa: F401  -- fixtures
from tests.server.conftest import database_url  # noqa: F401  -- fixture
