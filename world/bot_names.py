"""The names bots sit under at a table."""
from __future__ import annotations

# Bots are named in the language of the player who seats them, always «Бот-»/"Bot-" and a
# name, so nobody mistakes them for people (no account may be called so: world/accounts.py).
BOT_NAMES = {
    "ru": ("Бот-Афанасий", "Бот-Глафира", "Бот-Евсей", "Бот-Марфа", "Бот-Прохор", "Бот-Устинья",
           "Бот-Савелий", "Бот-Фёкла", "Бот-Игнат", "Бот-Пелагея", "Бот-Тихон", "Бот-Дуня"),
    "uk": ("Бот-Остап", "Бот-Оксана", "Бот-Тарас", "Бот-Олеся", "Бот-Богдан", "Бот-Соломія",
           "Бот-Мирон", "Бот-Ганна", "Бот-Орест", "Бот-Зоряна", "Бот-Назар", "Бот-Христя"),
    "en": ("Bot-Alfred", "Bot-Beatrice", "Bot-Cedric", "Bot-Dorothy", "Bot-Edmund", "Bot-Florence",
           "Bot-Gilbert", "Bot-Harriet", "Bot-Ivor", "Bot-Mabel", "Bot-Oswald", "Bot-Winifred"),
}


def bot_name(taken: set[str], number: int, lang: str) -> str:
    """A name not in ``taken``, in the language of whoever seats the bot (Russian names after
    those run out: a table has room for 20 and more); ``number``: the seat, for the last resort."""
    for candidate in (*BOT_NAMES.get(lang, BOT_NAMES["ru"]), *BOT_NAMES["ru"]):
        if candidate not in taken:
            return candidate
    return f"Bot{number + 1}"
