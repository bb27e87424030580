"""Step 2b of the reading: the text of an inline OpenPGP signature, as the client shows it.

mutt, Thunderbird (Enigmail), K-9 Mail and GPG Suite in Apple Mail can sign a plain-text mail
inline (RFC 4880, section 7: the cleartext signature framework): the text stands between
``-----BEGIN PGP SIGNED MESSAGE-----`` with its armour headers (``Hash: SHA256``) and the
signature block (``-----BEGIN PGP SIGNATURE-----`` ... ``-----END PGP SIGNATURE-----``), and each
of its lines that starts with a dash is escaped with ``- `` (so a signature line ``-- `` becomes
``- -- ``).  The player's client shows the text alone (and whether the signature holds): so
does the judge, which does not check it (a signature proves nothing to the judge: only a
password, a personal reply address or a code mailed to the address does).  A PGP/MIME
signature (``multipart/signed``) is a part of its own and never read (``parts``).
"""

from __future__ import annotations

import re

__all__ = ["unarmor"]

_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"
_END = "-----END PGP SIGNATURE-----"
_ARMOR_HEADER = re.compile(r"^(Hash|Charset|Comment|Version|NotDashEscaped)\s*:", re.IGNORECASE)


def unarmor(lines: list[str]) -> list[str]:
    """``lines`` with every cleartext-signed block replaced by the text it signs."""
    if not any(line.strip() == _BEGIN for line in lines):
        return lines
    out: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != _BEGIN:
            out.append(lines[i])
            i += 1
            continue
        i += 1
        while i < len(lines) and _ARMOR_HEADER.match(lines[i].strip()):
            i += 1  # the armour headers, then the blank line that ends them
        if i < len(lines) and not lines[i].strip():
            i += 1
        while i < len(lines) and lines[i].strip() != _SIGNATURE:
            line = lines[i]
            out.append(line[2:] if line.startswith("- ") else line)  # dash-escaped (section 7.1)
            i += 1
        while i < len(lines) and lines[i].strip() != _END:
            i += 1  # the signature block
        i += 1
    return out
