"""Notices read as notices in the languages of the pages read most, and article sentences do not."""

from __future__ import annotations

import pytest

from websearch_mcp.extract.notices import NOTICE, opens_as_notice

NOTICES = [
    "© 2016 Lyne Valley News. All rights reserved.",
    "Tous droits réservés. La rédaction n'est pas responsable du contenu des sites externes.",
    "Alle Rechte vorbehalten. Der Verlag übernimmt keine Haftung für verlinkte Inhalte.",
    "Todos los derechos reservados. El periódico no se hace responsable de las opiniones de los lectores.",
    "Wszelkie prawa zastrzeżone. Redakcja nie ponosi odpowiedzialności za treść komentarzy.",
    "Все права защищены. При использовании материалов ссылка на сайт обязательна.",
    "Η χρήση του περιεχομένου επιτρέπεται μόνο με αναφορά της πηγής. Ο ιστότοπος δεν ευθύνεται για τα σχόλια.",
    "版权所有 © 2016 本站 未经授权禁止转载",
]
SENTENCES = [
    "The council voted on Monday to paint every public bench orange before the summer festival.",
    "Le vieux moulin a rouvert samedi, transformé en boulangerie.",
    "Die Stadt will die alte Markthalle bis zum Herbst sanieren.",
    "Совет города проголосовал за ремонт старого рынка.",
    "Ο δήμος ανακοίνωσε ότι ο παλιός νερόμυλος θα λειτουργήσει ξανά.",
    "Copyright law in the European Union was changed by a directive in 2019.",
]


@pytest.mark.parametrize("text", NOTICES)
def test_a_notice_reads_as_one_in_its_language(text):
    assert NOTICE.search(text)
    assert opens_as_notice(text)


@pytest.mark.parametrize("text", SENTENCES)
def test_an_article_sentence_is_not_a_notice(text):
    assert not opens_as_notice(text)  # a block is set aside only for a phrase nothing but a notice uses


SITE_NOTES = [
    "We and our partners use cookies to personalise content and ads.",
    "Your browser is out of date. Please update your browser.",
    "You must be logged in to post a comment.",
    "Already a subscriber? Sign in to keep reading.",
    "Abonnez-vous pour lire la suite.",
    "Ihr Browser ist veraltet.",
]


@pytest.mark.parametrize("text", SITE_NOTES)
def test_the_sites_notes_to_its_reader_are_notices(text):
    assert opens_as_notice(text)
