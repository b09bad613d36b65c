"""Password hashing at test speed, for the test process and every site process a test starts.

Django's default hasher (PBKDF2, a million rounds) costs about a quarter of a second of CPU per
password set or checked, by design; the suite sets and checks thousands, and on a 2-core machine that
was over a third of the CPU of the non-browser tests. Hashes are made with salted MD5 instead; PBKDF2
stays in the list, so a hash made by the site's own settings still checks. Production keeps Django's
default (ludopat/settings.py sets no PASSWORD_HASHERS)."""

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
