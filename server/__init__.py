"""The process: config, CLI, telnet and SSH front doors, sessions, rendering, GMCP/MSSP."""
