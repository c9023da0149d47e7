"""The place and its memory: accounts, rooms, tables and seats, chat, inbox, the table runner."""
