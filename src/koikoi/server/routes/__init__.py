"""The HTTP API, one router per concept: accounts, games, boards, the site itself."""
