"""The web door: the tavern in a browser (docs/web.md). door.py listens (aiohttp), session.py is
one browser's session, markup.py turns styled text into the page's markup, forwarded.py reads
X-Forwarded-For from trusted proxies; static/ is the page itself."""
