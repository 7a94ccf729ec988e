"""Notices read as notices in the languages of the pages read most, and article sentences do not."""

from __future__ import annotations

import pytest

from websearch_mcp.extract.notices import opens_as_notice, opens_as_site_note, reads_as_notice

NOTICES = [
    "Копирование материалов сайта разрешено только при наличии активной ссылки на источник.",
    "Կայքի նյութերի օգտագործումն առանց ակտիվ հղման արգելվում է։",
    "Τα άρθρα μας έχουν αποκλειστικά ενημερωτικό χαρακτήρα και δεν υποκαθιστούν τη γνώμη του γιατρού σας.",
    "Hinweis: Dieser Beitrag dient ausschließlich der allgemeinen Information und ersetzt keine persönliche "
    "ärztliche Beratung.",
    "Texte : Service des communications. La reproduction de ce texte est autorisée à condition de mentionner la "
    "source.",
    "Les photos demeurent la propriété de l’Université et ne peuvent être reproduites sans autorisation.",
    "Информация на сайте не является публичной офертой, определяемой положениями статьи 437 ГК РФ.",
    "Receba nossos comunicados em primeira mão cadastrando seu e-mail na lista de imprensa.",
    "Para entrevistas, fale com a assessoria: imprensa@example.com.br",
    "Uygulamamızı indirin, son dakika gelişmelerini bildirim olarak alın.",
    "Pełna wersja tego i innych artykułów dostępna jest w papierowym wydaniu tygodnika.",
    "Zamów prenumeratę elektroniczną już od 9,90 zł miesięcznie.",
    "Все тексты в этом журнале написаны автором. Копирование и репост без ссылки запрещены.",
    "本博客所有原创文章版权归博主所有，如需转载请与博主联系并注明来源。",
    "Yasal uyarı: Bu yazı yalnızca genel bilgilendirme amacı taşır ve hukuki görüş yerine geçmez.",
    "Avukatlık Kanunu ve Türkiye Barolar Birliği Reklam Yasağı Yönetmeliği uyarınca bu sayfa reklam değildir.",
    "Die Inhalte dienen der Information und ersetzen keinesfalls die persönliche Beratung durch einen Arzt.",
    "Reproducerea integrală sau parțială a acestui comunicat este permisă numai cu menționarea sursei.",
    "Agroserv SA, CUI RO1234567, J35/123/1991, capital social subscris și vărsat 2.400.000 lei.",
    "UAB „Saulėta“ projektuoja saulės elektrines nuo 2014 metų. Įmonės kodas 303218884, Pramonės g. 7.",
    "Puutyö Oy, Y-tunnus 1234567-8, kotipaikka Tampere.",
    "Trehus AS, org. nr. 912 345 678, Storgata 4, 7010 Trondheim.",
    "Az oldalon megjelenő cikkek kizárólag tájékoztató jellegűek, és nem helyettesítik az orvosi vizsgálatot.",
    "© 2016 Lyne Valley News. All rights reserved.",
    "Tous droits réservés. La rédaction n'est pas responsable du contenu des sites externes.",
    "Alle Rechte vorbehalten. Der Verlag übernimmt keine Haftung für verlinkte Inhalte.",
    "Todos los derechos reservados. El periódico no se hace responsable de las opiniones de los lectores.",
    "Wszelkie prawa zastrzeżone. Redakcja nie ponosi odpowiedzialności za treść komentarzy.",
    "Все права защищены. При использовании материалов ссылка на сайт обязательна.",
    "Η χρήση του περιεχομένου επιτρέπεται μόνο με αναφορά της πηγής. Ο ιστότοπος δεν ευθύνεται για τα σχόλια.",
    "版权所有 © 2016 本站 未经授权禁止转载",
    # readers' views, a reader's data and the site's terms, in the words of the pages of each language
    "Note: the views expressed are the author's and do not necessarily reflect the views of this newspaper.",
    "Les commentaires ne reflètent pas nécessairement l'opinion de la rédaction.",
    "Komentarze nie odzwierciedlają stanowiska redakcji.",
    "Комментарии читателей не отражают точку зрения редакции.",
    "Τα σχόλια δεν εκφράζουν απαραίτητα τις απόψεις της συντακτικής ομάδας.",
    "Informacja RODO: Administratorem Twoich danych osobowych jest Wydawnictwo sp. z o.o.",
    "Klauzula informacyjna: dane przetwarzamy w celu obsługi zgłoszeń.",
    "Diese Seite folgt der Barrierefreie-Informationstechnik-Verordnung (BITV 2.0).",
    "Titolare del trattamento dei dati è la società editrice.",
    "Όροι χρήσης και προστασία προσωπικών δεδομένων.",
    "本文仅代表作者观点，转载目的在于传递更多信息，不构成任何投资建议。",
    "未經同意請勿轉載全文。",
    "版权声明：凡注明来源的所有作品，版权均属本报社所有，未经书面授权不得转载。",
    "免責聲明：本站內容僅供參考。",
    "扫描下方二维码，关注我们的微信公众号。",
    "Les informations publiées sur ce site ont un caractère général et ne sauraient constituer une consultation.",
    # a company's imprint and tax number, a reprint request
    "Angaben gemäß § 5 TMG: Bäckerei Hofmann, Kirchgasse 3, 79346 Endingen.",
    "Verantwortlich für den Inhalt nach § 55 Abs. 2 RStV: Thomas Hofmann.",
    "Az. Agr. Poggio alle Ginestre – P.IVA 01128830524",
    "Bu haberin tüm yayın hakları Karadeniz Postası’na aittir.",
    "Використання матеріалів дозволяється лише з гіперпосиланням на джерело.",
    "本文为博主原创，转载请注明出处并保留原文链接。",
    "Haselwanter Tischlerei GmbH, Firmenbuchnummer FN 284511 w, Landesgericht Innsbruck.",
    "При копировании рецепта ссылка на дневник обязательна.",
    "Информация в статье носит ознакомительный характер.",
    "This article is for informational purposes only and is not a substitute for professional medical advice.",
    # liability for links, a media outlet's registration, a firm's registration numbers (Switzerland, Romania,
    # Spain, the Netherlands, Greece)
    "Mit dem Klick auf einen der Links verlassen Sie die Website. Für die Inhalte übernehmen wir keine Haftung.",
    "Сетевое издание «Вести» зарегистрировано Роскомнадзором, свидетельство Эл № ФС77-61234.",
    "При полном или частичном использовании материалов ссылка на сайт обязательна.",
    "Zahnarztpraxis Weber AG, UID CHE-123.456.789, Handelsregister des Kantons Bern.",
    "Clinica Dentară SRL, CUI 31245678, Nr. Reg. Com. J12/2345/2013, Cluj-Napoca.",
    "Transportes Ebro S.L., CIF B12345678, inscrita en el Registro Mercantil de Zaragoza.",
    "Bakkerij De Korenaar, KvK 12345678, Utrecht.",
    "ΑΦΜ: 099876543, ΔΟΥ Λάρισας, αρ. ΓΕΜΗ 123456789000.",
    # no rights derived from a firm's post, reprints only with prior written permission, a syndicated article
    "Aan de inhoud van dit bericht kunnen geen rechten worden ontleend.",
    "A cikk átvétele kizárólag a kiadó előzetes írásos engedélyével lehetséges.",
    "No part of this article may be reproduced without the prior written permission of the publisher.",
    "Artikel ini telah tayang di WartaNusantara.id dengan judul serupa.",
    "Οι σύνδεσμοι προς ιστότοπους τρίτων παρέχονται για διευκόλυνση και ο Δήμος δεν είναι υπεύθυνος γι' αυτούς.",
    "Links to third-party sites are provided for convenience only.",
    "Les liens vers des sites tiers sont fournis à titre indicatif.",
    # reprints forbidden, or free with the source named; a Mexican firm's tax number
    "Ventiladores del Norte, S.A. de C.V. · RFC VDN980514QK2 · Registro Público de Comercio de Monterrey.",
    "Este comunicado puede reproducirse total o parcialmente citando la fuente.",
    "Prohibida su reproducción total o parcial sin autorización del editor.",
    "Riproduzione riservata. Foto di archivio.",
    "Abdruck honorarfrei, Beleg erbeten.",
    "Przedruk tylko za zgodą redakcji.",
    "Materiał chroniony prawem autorskim. Dalsze rozpowszechnianie artykułu możliwe wyłącznie za zgodą wydawcy.",
    "La información es de carácter educativo y no sustituye la consulta con un médico especialista.",
    "Responsable sanitario: Dr. Ernesto Villaseñor, Cédula profesional 4871203. Aviso de publicidad COFEPRIS 2433.",
    "As informações deste blog não substituem o acompanhamento individual com nutricionista ou médico.",
    "Informacje na tym blogu mają charakter wyłącznie edukacyjny i nie zastępują porady lekarza.",
    "Conținutul acestui site este protejat de legea drepturilor de autor. Preluarea textelor este permisă parțial.",
    "Preuzimanje sadržaja sa portala dozvoljeno je uz navođenje izvora. Sva prava zadržana.",
]
SENTENCES = [
    "The company said the app had been downloaded two million times since its launch in March.",
    "The council voted on Monday to paint every public bench orange before the summer festival.",
    "Le vieux moulin a rouvert samedi, transformé en boulangerie.",
    "Die Stadt will die alte Markthalle bis zum Herbst sanieren.",
    "Совет города проголосовал за ремонт старого рынка.",
    "Ο δήμος ανακοίνωσε ότι ο παλιός νερόμυλος θα λειτουργήσει ξανά.",
    "Copyright law in the European Union was changed by a directive in 2019.",
    "Die Bäckerei am Markt verkauft ihre Cookies jetzt auch ohne Zucker.",
    "La pâtisserie utilise des cookies au beurre salé dans son nouveau dessert.",
    "Platelets above 50K are not associated with significant bleeding in most patients.",
    "Die Versicherung übernimmt die Kosten für neun Sitzungen, wenn der Arzt sie verordnet.",
    "The registry office in Cluj recorded 31,245 marriages last year, the most since 2008.",
    # an old thing in an article is not an old article
    "Huset er mer enn hundre år gammelt og ble pusset opp i fjor.",
    "De eik op het plein is meer dan tweehonderd jaar oud.",
    "Firma ma ponad dwadzieścia lat doświadczenia w budowie dróg.",
    "The bus timetable is no longer printed, so riders check the app.",
    "La ley federal prohíbe la reproducción de obras sin permiso del autor, recordó el juez.",
    "下一步，消费者扫描包装上的二维码，即可查看所购茶叶的产地和采摘日期。",  # a QR code in the story
    "Die Fotos stammen aus unserem Archiv, sagte die Leiterin des Museums.",  # an archive in the story
    "The story of the mill comes from the archive of the parish, the author writes.",
    "Er folgt meinem Rat und schreibt jetzt selbst über seine Reisen.",  # "follows my advice", not a blog
    "El hospital sustituye la consulta presencial por una llamada cuando el paciente lo pide.",
    "Копирование документов заняло у следователей две недели, сообщил адвокат.",  # copying in the story
    "Комментарии экспертов проходят через редакцию, сказал главный редактор.",  # no moderation
    "Belediye, yeni yönetmeliği vatandaşların bilgisine sundu.",
    "Ο δήμαρχος είχε μόνο ενημερωτικό ρόλο στη συνάντηση, είπε ο εκπρόσωπος.",
    "Die neue Halle dient ausschließlich der Lagerung von Getreide, sagte der Bürgermeister.",
    "Les photos de l'exposition restent accrochées jusqu'en mars, précise la directrice.",
]


@pytest.mark.parametrize("text", NOTICES)
def test_a_notice_reads_as_one_in_its_language(text):
    assert reads_as_notice(text)
    assert opens_as_notice(text)


@pytest.mark.parametrize("text", SENTENCES)
def test_an_article_sentence_is_not_a_notice(text):
    assert not opens_as_notice(text)  # a block is set aside only for a phrase nothing but a notice uses


SITE_NOTES = [
    "Vous êtes sur le point de quitter le site du journal : les sites externes n'engagent pas la rédaction.",
    "Rejoignez notre chaîne WhatsApp pour recevoir chaque matin les titres de la rédaction.",
    "Følg bloggen vår og få varsel på e-post hver gang vi publiserer nyheter.",
    "Vi bruker informasjonskapsler for å forstå hvordan nettstedet brukes.",
    "Download our free app for breaking news alerts and the morning briefing.",
    "Read the full story on the Harbour Herald app, free for subscribers.",
    "पढ़ें पूरी खबर दैनिक समाचार ऐप पर",
    "ऐप डाउनलोड करने के लिए QR स्कैन करें",
    "Attenzione: questo articolo è stato pubblicato più di un anno fa, le informazioni potrebbero essere cambiate.",
    "Tarayıcınız güncel değil. Lütfen tarayıcınızı en son sürüme yükseltin.",
    "Yerel haberciliğe destek olun: ilk ay 1 TL ile dijital aboneliğinizi başlatın.",
    "Sign up for the free daily newsletter, delivered straight to your inbox.",
    "Få Aarhus Lokalnyt i din indbakke hver morgen.",
    "Τα κείμενα της στήλης εκφράζουν αποκλειστικά τους συντάκτες τους.",
    "Уважаемый посетитель, Вы зашли на сайт как незарегистрированный пользователь.",
    "Подписывайтесь на наши группы ВКонтакте и в Одноклассниках.",
    "Підтримайте незалежну журналістику: кожен внесок допомагає нам.",
    "Simak berita dan artikel pilihan lainnya di Google News.",
    "Support independent journalism: become a member today.",
    "We and our partners use cookies to personalise content and ads.",
    "Your browser is out of date. Please update your browser.",
    "You must be logged in to post a comment.",
    "Already a subscriber? Sign in to keep reading.",
    "Abonnez-vous pour lire la suite.",
    "Ihr Browser ist veraltet.",
    "Twoja przeglądarka jest nieaktualna. Niektóre elementy strony mogą nie działać poprawnie.",
    "Sie verwenden einen veralteten Browser. Bitte aktualisieren Sie ihn.",
    "Вы используете устаревший браузер. Обновите его, чтобы сайт работал правильно.",
    "Používáte zastaralý prohlížeč.",
    "Wir und unsere Partner verwenden Cookies, um Inhalte zu personalisieren.",
    "Nous et nos partenaires utilisons des cookies pour mesurer l'audience.",
    "Utilizamos cookies propias y de terceros para mejorar nuestros servicios.",
    "Este site usa cookies para melhorar a sua experiência.",
    "Questo sito utilizza cookie tecnici e di profilazione.",
    "Wij en onze partners gebruiken cookies en vergelijkbare technieken.",
    "Tento web používá soubory cookie k poskytování služeb.",
    "Ta strona używa plików cookies w celach statystycznych.",
    "Sitemizde deneyiminizi iyileştirmek için çerezler kullanılmaktadır.",
    "Мы используем файлы cookie для улучшения работы сайта.",
    "当サイトでは広告配信のためにCookieを使用しています。",
    "이 웹사이트는 서비스 개선을 위해 쿠키를 사용합니다.",
    "Comments are closed.",
    "Liebe Leserinnen und Leser, die Kommentarfunktion zu diesem Artikel ist geschlossen.",
    "U verlaat nu de website van de gemeente.",
    "You are now leaving our website.",
    "Assine o jornal e tenha acesso ilimitado a todas as reportagens.",
    "Questo blog non rappresenta una testata giornalistica.",
    "本記事はアフィリエイト広告を利用しています。",
    # affiliate links, a newsletter's sign-up, a form's consent, who keeps the page, comment moderation
    "This post contains affiliate links, which means we may earn a small commission.",
    "Cet article contient des liens affiliés vers des ustensiles que j’utilise.",
    "Inscrivez-vous à ma lettre du dimanche et recevez une recette de saison.",
    "Ao enviar seus dados, você concorda com o tratamento das informações.",
    "Last updated 9 March 2022. This page is maintained by the kitchen team.",
    "コメントは承認制にしております。",
    "이 포스팅은 쿠팡 파트너스 활동의 일환으로, 이에 따른 일정액의 수수료를 제공받습니다.",
    "本文含有聯盟行銷連結，透過連結購買會獲得少量分潤。",
    "Einmal im Monat schreiben wir über Neuigkeiten. Kein Spam, jederzeit abbestellen.",
    "Une fois par mois, nos nouvelles et nos activités. Aucun pourriel, désabonnement en un clic.",
    "Нажимая кнопку, вы даёте согласие на обработку персональных данных.",
    # a news site's archive banner, correction, paywall count and newsletter sign-up
    "This article is more than 2 years old and may contain outdated information.",
    "This article is from our archive and was first published in 2014. Some details may have changed since.",
    "Dieser Artikel stammt aus unserem Archiv und erschien zuerst 2013.",
    "Folge meinem Blog per E-Mail und du bekommst jedes neue Rezept direkt in dein Postfach.",
    "Посетители, находящиеся в группе Гости, не могут оставлять комментарии к данной публикации.",
    "Ikuti saluran Telegram kami untuk maklumat terkini paras air.",
    "Patīk šādi raksti? Abonē mūsu jaunumu vēstuli un reizi mēnesī saņem padomus savā e-pastā.",
    "Prenumeruokite mūsų naujienlaiškį ir gaukite naujienas kas savaitę.",
    "Telli meie uudiskiri ja saad uued artiklid otse postkasti.",
    "Коментарі на цьому блозі проходять модерацію і з’являються після перевірки.",
    "Комментарии проходят предварительную модерацию.",
    "Comments on this story are pre-moderated and may take some time to appear.",
    "You must be logged in to a Wessex Gazette account to comment.",
    "Transparantie: dit artikel bevat affiliate links. Boek je via zo’n link, dan ontvang ik een vergoeding.",
    "この記事は最終更新日から3年以上が経過しています。料金や営業時間は現在と異なる可能性があります。",
    "このブログの読者になると、新しい記事が公開されたときにお知らせが届きます。",
    "Эта статья из нашего архива: она была опубликована в 2012 году.",
    "Το άρθρο προέρχεται από το αρχείο μας και δημοσιεύθηκε το 2015.",
    "Correction: An earlier version of this article misstated the price of a ticket.",
    "Sie haben Ihr Kontingent an freien Artikeln für diesen Monat erreicht.",
    "You have 2 free articles remaining this month.",
    "This story is more than 1 year old.",
    "Suscríbete al diario desde 1 euro al mes.",
    "Zapisz się na cotygodniowy newsletter o edukacji.",
    "Enjoy discounts, find fashion inspiration and discover fresh arrivals with our curated newsletters.",
    "Important update: the Harbour Clinic is not affiliated with Bay Hospital. Rest assured, we are open!",
    # the archive banner and the correction in more languages
    "Denne artikkelen er mer enn ti år gammel og kan inneholde utdatert informasjon.",
    "Esta matéria foi publicada há mais de dez anos. Algumas informações podem estar desatualizadas.",
    "Attenzione: questo articolo risale al 2019 e alcune soglie potrebbero essere cambiate.",
    "Šis puslapis nebeatnaujinamas ir paliktas tik archyvo tikslais.",
    "Dit artikel is meer dan vijf jaar oud.",
    "Ten artykuł ma ponad pięć lat i może zawierać nieaktualne informacje.",
    "Материал опубликован более пяти лет назад, информация может быть устаревшей.",
    "This page is no longer updated and may contain outdated information.",
    "Pagwawasto: Sa naunang bersyon ng balitang ito ay mali ang bilang ng mga bayan.",
    "Correzione: una versione precedente di questo articolo indicava una data sbagliata.",
    "おわびと訂正：記事中の日付に誤りがありました。",
    "Attenzione: questo articolo è stato pubblicato più di tre anni fa. Orari e prezzi potrebbero essere cambiati.",
    "This article was published more than five years ago.",
    "Si encuentras un error, escríbenos a la dirección de correcciones.",
    "If you spot an error in this story, please let us know.",
]


@pytest.mark.parametrize("text", SITE_NOTES)
def test_the_sites_notes_to_its_reader_are_notices(text):
    assert opens_as_notice(text) and opens_as_site_note(text)


ARTICLE_PARAGRAPHS = "".join(
    f"<p>{text}</p>" for text in (
        "The council approved the new cycle paths on Monday: two routes of 3.4 kilometres in all, one along "
        "Forest Street to the station roundabout and one from Railway Street to the sports ground.",
        "Work starts in May and ends in October; the contractor will also build new lighting and two raised "
        "crossings for cyclists, at a cost of 4.1 million, half of it from a regional fund.",
        "其次，提供音频和视频内容的播客，使本来已经很麻烦的互联网版权问题更加复杂，与现场直播的广播节目和网络音乐有所不同，"
        "播客节目完全依靠用户下载收听，而节目中使用的音乐、片段和访谈往往来源复杂，制作者很少取得许可，"
        "平台也难以逐一核查。因此有学者建议，由平台统一登记版权所有人。",
    ))
NOTICES_INSIDE = [  # the site's notes to its reader: comment rules and the log-in they ask for
    "Regulamin komentowania: Komentarze publikowane pod artykułami są prywatnymi opiniami ich autorów.",
    "Aby dodać komentarz, musisz być zalogowany. Zaloguj się lub załóż bezpłatne konto.",
    "Vous devez être connecté pour publier un commentaire sur cet article.",
    "Κανόνες σχολιασμού: τα σχόλια δημοσιεύονται μετά από έλεγχο της συντακτικής ομάδας.",
    "NOTE: Please limit your comments to 500 words. The system will not recognize formatting such as italics.",
    "By posting you agree to the terms and conditions of this site and to the rules for readers' comments.",
]


def test_a_site_note_inside_the_article_goes_and_a_paragraph_about_copyright_stays():
    from websearch_mcp.extract import extract_page

    notes = "".join(f"<p>{text}</p>" for text in NOTICES_INSIDE)
    html = (f"<html><body><div class='entry-content'>{ARTICLE_PARAGRAPHS}<div class='box'>{notes}</div></div>"
            "</body></html>")
    markdown = extract_page(html, "https://news.example.org/2026/11/cycle-paths").markdown
    assert "two routes of 3.4 kilometres" in markdown and "two raised crossings" in markdown
    assert "由平台统一登记版权所有人" in markdown  # "copyright owner" far into a paragraph of the article
    kept = [text[:30] for text in NOTICES_INSIDE if text[:30] in markdown]
    assert kept == [], markdown


def test_a_notice_broken_over_lines_of_the_source_reads_as_one():
    # the page's source wraps the phrase, and indents the block deeply before it
    text = " " * 500 + "\n" * 20 + "Get the latest news delivered\n            to your inbox."
    assert opens_as_site_note(text)
    assert opens_as_notice("La Gazette du Lot.   Tous droits\n      réservés.")
