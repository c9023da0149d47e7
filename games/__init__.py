"""Pure rules engines. Nothing here touches sockets, asyncio, the database, clocks or languages."""
