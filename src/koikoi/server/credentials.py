"""Names and passwords: what an account's name may be, and its password's hash.

A name is stored NFKC-normalised and compared case-folded, and a new one may not mix
scripts the way look-alike names do. Passwords are hashed with argon2id, a few at a
time (:data:`HASHING_AT_ONCE`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import unicodedata
from functools import cache

import regex
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from confusable_homoglyphs import categories, confusables

from koikoi.server.errors import AccountError

NAME_INPUT = 200
"""The longest name a request may carry, before it is normalised and checked (a name
that long is refused then, by its length: this bounds what a refusal quotes)."""
NAME_LENGTH = (2, 20)
"""Two characters are a whole name in Chinese or Japanese."""
PASSWORD_LENGTH = (8, 128)

# Letters and digits of any script, and _ . - inside; no spaces, no look-alike tricks
# with symbols, and nothing a page could mistake for markup.
_NAME = re.compile(r"[^\W_](?:[\w.-]*[^\W_])?")


def normalise_name(name: str) -> str:
    """The name as stored: NFKC, so look-alike forms of one letter are one name.

    >>> normalise_name("\uff28\uff41\uff4e\uff41")  # full-width letters
    'Hana'
    """
    return unicodedata.normalize("NFKC", name).strip()


def name_shape(name: str) -> str:
    """The normalised name if it has the shape every account's name has (length and
    characters); the check of a name given to sign in."""
    name = normalise_name(name)
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise AccountError(422, f"name {name!r} must be {low} to {high} characters long")
    if not _NAME.fullmatch(name):
        raise AccountError(
            422,
            f"name {name!r} may hold only letters, digits, '_', '.' and '-',"
            " and must begin and end with a letter or digit",
        )
    return name


# Scripts one name may mix, as Unicode's "highly restrictive" profile (UTS #39) has
# it: Japanese and Chinese writing mix Han with kana or bopomofo, Korean with Hangul,
# and all of them with Latin letters. Any other mix is how "admin" with a Cyrillic
# "a" (U+0430) passes for "admin".
_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def check_name(name: str) -> str:
    """A new account's name, normalised, or an error that says what is wrong with it:
    besides the shape, no invisible characters and no look-alike mix of scripts."""
    name = name_shape(name)
    invisible = _INVISIBLE.search(name)
    if invisible:
        raise AccountError(
            422, f"name {name!r} holds an invisible character (U+{ord(invisible[0]):04X})"
        )
    scripts = {categories.alias(letter) for letter in name} - {"COMMON", "INHERITED"}
    if len(scripts) > 1 and not any(scripts <= mix for mix in _SCRIPT_MIXES):
        raise AccountError(
            422,
            f"name {name!r} mixes the scripts {', '.join(sorted(scripts)).lower()};"
            " write a name in one script, so it cannot pass for another",
        )
    return name


def name_key(name: str) -> str:
    return normalise_name(name).casefold()


def name_skeleton(name: str) -> str:
    """What a name looks like: its key with every character replaced by one stand-in
    for all the characters Unicode's confusables data (UTS #39) says look alike, so
    that "cocoa" in Cyrillic letters (\u0441\u043e\u0441\u043e\u0430) and in Latin ones
    have one skeleton. Names whose skeletons
    are equal pass for each other; only one of them may be an account's.

    >>> cyrillic = "\u0441\u043e\u0441\u043e\u0430"
    >>> name_skeleton(cyrillic) == name_skeleton("cocoa") == name_skeleton("COCOA")
    True
    >>> name_skeleton("hana") == name_skeleton("hama")
    False
    """
    looks = _look_alikes()
    key = unicodedata.normalize("NFD", name_key(name))
    return unicodedata.normalize("NFC", "".join(looks.get(char, char) for char in key))


@cache
def _look_alikes() -> dict[str, str]:
    """Each character that looks like others, to the least of the characters it looks
    like. The data pairs each confusable with its prototype, both ways; the pairs are
    joined into groups, and every character of a group stands for the group."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            parent[char] = parent.get(parent[char], parent[char])  # halve the path
            char = parent[char]
        return char

    for char, alikes in confusables.confusables_data.items():
        for alike in alikes:
            if len(char) == 1 and len(alike["c"]) == 1:
                first, second = sorted((root(char), root(alike["c"])))
                parent[second] = first
    return {char: root(char) for char in parent}


def check_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise AccountError(422, f"a password must be {low} to {high} characters long")
    return password


HASHING_AT_ONCE = 4
"""Password hashes (sign-ups, sign-ins, new passwords) one process computes at once:
each takes tens of milliseconds of a core and 64 MiB, so a flood of them waits its
turn instead of taking every core and the memory from the game. (No count of all
sign-ups anywhere: that an attacker could fill to shut everyone else out.)"""


class Passwords:
    """argon2id hashing, a few at a time; a verification against a throwaway hash when
    the name is unknown keeps the answer time from telling which names exist."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
        self._turns = threading.BoundedSemaphore(HASHING_AT_ONCE)

    def hash(self, password: str) -> str:
        with self._turns:
            return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        with self._turns:
            try:
                return self.hasher.verify(stored or self._decoy, password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False


def digest(text: str) -> str:
    """The SHA-256 of a secret or a name (a token, an address), which is what is
    stored of it."""
    return hashlib.sha256(text.encode()).hexdigest()
