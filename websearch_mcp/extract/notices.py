"""What a page's notices say, in the languages of the pages read most: copyright lines, "not
responsible for" disclaimers, reprint rules, cookie notes, comment rules, subscription offers. A block
that reads like one is furniture, never the article, in whatever language the page is written."""

from __future__ import annotations

import re

# Phrases that only notices use: rights reserved, disclaimers of responsibility, reprint rules, the
# site's use of cookies, a company's registration.
_NOTICE_ONLY = (
    r"all rights reserved|opinions expressed|not responsible for the content|registered (?:company|address)|"
    # French
    r"tous droits réservés|droits de reproduction|n['’]est pas responsable|utilise des cookies|mentions légales|"
    r"reproduction interdite|"
    # German
    r"alle rechte vorbehalten|übernimmt keine (?:haftung|verantwortung)|(?:verwendet|nutzt) cookies|"
    # Spanish, Portuguese, Italian
    r"todos los derechos reservados|no se hace responsable|utiliza cookies|todos os direitos reservados|"
    r"tutti i diritti riservati|utilizza (?:i )?cookie|"
    # Polish
    r"wszelkie prawa zastrzeżone|nie ponosi odpowiedzialności|używa plików cookie|"
    # Russian
    r"все права защищены|не несе[тё] ответственности|использует файлы cookie|при использовании материалов|"
    r"перепечатка материалов|"
    # Greek
    r"με επιφύλαξη παντός δικαιώματος|δεν ευθύνεται|χρησιμοποιεί cookies|απαγορεύεται η αναδημοσίευση|"
    r"επιτρέπεται μόνο με αναφορά")
# Chinese and Japanese (no word edges): rights reserved, "does not represent this site", no reprint.
_NOTICE_CJK = r"版权所有|版權所有|不代表本站|未经授权|未經授權|無断転載|禁止转载"
# Words that notices use and an article's paragraph may too (an article about copyright law).
_NOTICE_LIKELY = (r"copyright|powered by|licensed under|no comments yet|quick links|cookies? to|sign in|"
                  r"create an account")

# A block that is certainly a notice where it opens with one of these.
NOTICE_ONLY = re.compile(rf"©|\b(?:{_NOTICE_ONLY})\b|{_NOTICE_CJK}", re.IGNORECASE)
# A whole output that reads like a notice (a footer, a disclaimer, an empty comment widget).
NOTICE = re.compile(rf"©|\b(?:{_NOTICE_ONLY}|{_NOTICE_LIKELY})\b|{_NOTICE_CJK}|^\s*name:",
                    re.IGNORECASE | re.MULTILINE)


NOTICE_TEXT = 400  # visible characters: a block this short that opens with a notice's phrase is a notice


def opens_as_notice(text: str, opening: int = 200) -> bool:
    """Whether a block's opening (its first `opening` characters) holds a phrase only notices use."""
    return bool(NOTICE_ONLY.search(text.strip()[:opening]))
