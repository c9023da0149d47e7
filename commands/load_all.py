"""Importing this module registers every command."""
from . import account, admin, admin_accounts, admin_info, autopass, hall, master, password_reset, profiles, table  # noqa: F401
from .games import bids  # noqa: F401
from .games import coup  # noqa: F401
from .games import mafia  # noqa: F401
from .games import mafia_signup  # noqa: F401
from .games import revolution  # noqa: F401
from .games import whispers  # noqa: F401
