"""What a page's notices say, in the languages of the pages read most: copyright lines, "not
responsible for" disclaimers, reprint rules, cookie notes, comment rules, subscription offers. A block
that reads like one is furniture, never the article, in whatever language the page is written."""

from __future__ import annotations

import re
from collections.abc import Callable

from websearch_mcp.extract.alternation import guarded
from websearch_mcp.extract.text import HEADINGS, text_of, visible_length
from websearch_mcp.passages import cjk_count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

# Phrases that only notices use: rights reserved, disclaimers of responsibility, reprint rules, the
# site's use of cookies, a company's registration.
_NOTICE_ONLY = (
    r"all rights reserved|opinions expressed|not responsible for the content|editors['’] code|"
    r"press standards organisation|complaints policy|editorial complaints|"
    # accessibility statements and a listed company's forward-looking statements
    r"accessibility statement|erklärung zur barrierefreiheit|déclaration d['’]accessibilité|"
    r"declaración de accesibilidad|dichiarazione di accessibilità|forward-looking statements|"
    r"dichiarazioni previsionali|déclarations prospectives|zukunftsgerichtete aussagen|declaraciones prospectivas|"
    # who owns the site: a company's registration
    r"registered (?:company|address|office)|registered in england|company (?:number|no)|vat (?:number|no|reg)|"
    r"handelsregister|ust-idnr|amtsgericht|siret|capital social|nip:|krs:|инн|огрн|код єдрпоу|"
    # a funder's disclaimer ("its contents are the sole responsibility of X and do not necessarily reflect the
    # views of the donor"), in English, French, Spanish, Italian, Portuguese, German, Ukrainian and Russian
    r"sole responsibility of .{1,80}?not necessarily reflect|"
    r"seule responsabilité .{1,80}?ne (?:reflète|reflètent) pas nécessairement|"
    r"responsabilidade? exclusiva .{1,80}?(?:no|não) refle(?:j|t)\w* necess?ariamente|"
    r"responsabilità esclusiva .{1,80}?non riflett\w+ necessariamente|"
    r"alleinige(?:n)? verantwortung .{1,80}?nicht (?:unbedingt|notwendigerweise)|"
    r"виключною відповідальністю .{1,80}?не обов[’']язково відобража\w+|"
    r"исключительной ответственностью .{1,80}?не обязательно отража\w+|"
    r"angaben gemäß|verantwortlich für den inhalt|inhaltlich verantwortlich|umsatzsteuer-identifikationsnummer|"
    r"firmenbuchnummer|uid-nummer|uid-nr|che-\d{3}\.\d{3}\.\d{3}|sitz der gesellschaft|registergericht|"
    r"geschäftsführ(?:ung|er|erin):|vorsitzende[r]? des aufsichtsrat(?:s|es)|"
    # the same registration in Romanian, Spanish, Italian, Portuguese, Greek, Dutch, Hungarian, French and Russian
    r"nr\.? ?reg\.? ?com|cui:? ?(?:ro)?\d{6,}|autoriza[țţt]ie sanitar[ăa]|inscrita en el registro mercantil|"
    r"cif:? ?[a-z]-?\d{7,8}|r\.e\.a\.|iscritta al registro delle imprese|nipc:? ?\d{9}|"
    r"matriculada na conservatória|αφμ:? ?\d{9}|αρ\. ?γ\.?ε\.?μη|kvk(?:-nummer)?:? ?\d{8}|"
    r"cégjegyzékszám|adószám|immatriculée au rcs|rcs [a-zé-]+ [a-z]? ?\d{3} ?\d{3} ?\d{3}|"
    r"зарегистрировано (?:в )?роскомнадзор\w*|свидетельство о регистрации сми|"
    r"ingeschreven bij de kamer van koophandel|kunnen geen rechten (?:worden )?(?:ontleend|afgeleid)|"
    # reprints only with the publisher's prior written permission (English, German, Hungarian, Indonesian...)
    r"prior written (?:permission|consent)|vorherige(?:n)? schriftliche(?:n)? (?:genehmigung|zustimmung)|"
    r"előzetes írásos engedély\w*|autorisation écrite préalable|autorización previa y por escrito|"
    r"previa autorizzazione scritta|bez pisemnej zgody|без письменного разрешения|bez písemného souhlasu|"
    r"izin tertulis|yazılı izni? (?:olmadan|alınmadan)|"
    # a Brazilian press release's closing lines (the press list, the press office's contact) and a Turkish
    # broadcaster's app promotion
    r"receba nossos comunicados|fale com a (?:nossa )?assessoria|uygulamamızı indirin|"
    # a Turkish law firm's lines: general information, no legal advice; the bar's ban on advertising
    r"genel bilgilendirme amacı\w*|hukuki (?:görüş|danışmanlık)(?: veya \w+)? yerine geçmez|"
    r"reklam yasağı yönetmeliği|"
    # reprints forbidden, or free with the source named (Spanish, Portuguese, Italian, German, French, Polish,
    # Dutch), and a Mexican firm's tax number and registry
    r"prohibida (?:su|la) reproducción|(?:puede|pueden|podrá|se permite|se autoriza) (?:la )?reproduc\w* "
    r"(?:total o parcial(?:mente)? )?(?:citando|mencionando|con mención de) la fuente|proibida a reprodução|"
    r"reprodução (?:permitida|autorizada) (?:desde que|mediante|com)|(?:é )?permitida a reprodução|"
    r"riproduzione riservata|vietata la riproduzione|"
    r"reproducerea (?:integrală|totală)(?: sau parțială)?|cui:? ?(?:ro)?\d{6,10}|"
    r"nachdruck (?:nur )?mit (?:genehmigung|quellenangabe|zustimmung)|abdruck honorarfrei|"
    r"reproduction autorisée (?:avec|sous réserve de) (?:la )?(?:mention|citation)|przedruk (?:tylko )?za zgodą|"
    r"overname (?:alleen )?(?:met|na) (?:bronvermelding|toestemming)|"
    r"rfc:? ?[a-zñ&]{3,4}-?\d{6}-?[a-z0-9]{3}|registro público de (?:comercio|la propiedad)|"
    # a syndicated article's closing line (Indonesian news sites)
    r"artikel ini telah (?:tayang|terbit|dimuat) di|"
    r"p\. ?iva:? ?\d+|partita iva:? ?\d+|ičo:? ?\d+|dič:? ?cz\d+|zapsán[aáý]? v (?:obchodním|živnostenském) rejstříku|"
    r"giá (?:trên )?chưa bao gồm (?:thuế )?vat|"
    # a firm's registry and tax numbers in the Nordic and Baltic countries, Croatia, Romania and Bulgaria
    r"įmonės kodas:? ?\d{9}|pvm mokėtojo kodas|registrikood:? ?\d{8}|reģ(?:istrācijas)?\.? ?nr\.?:? ?\d{11}|"
    r"y-tunnus:? ?\d{7}-\d|org\.? ?nr\.?:? ?\d{3} ?\d{3} ?\d{3,4}|organisa(?:tions|sjons)nummer|"
    r"cvr(?:-nr\.?| nr\.?)?:? ?\d{8}|oib:? ?\d{11}|nr\. ?reg\. ?com\.?|j\d{2}/\d+/\d{4}|еик:? ?\d{9}|"
    # not advice: medical, legal or financial (an article's closing disclaimer)
    r"not (?:a substitute for|intended as) (?:professional )?(?:medical|legal|financial|veterinary) advice|"
    r"does not constitute (?:legal|medical|financial|investment) advice|for informational purposes only|"
    r"ersetzt keine (?:persönliche |individuelle )?(?:ärztliche|rechtliche|tierärztliche) beratung|"
    r"dient (?:ausschließlich|nur|lediglich) der (?:allgemeinen )?information|"
    r"ne remplace pas (?:une consultation|l['’]avis)|"
    r"ersetz(?:t|en) (?:keinesfalls|nicht) (?:die |eine )?(?:persönliche |ärztliche |individuelle )?"
    r"(?:beratung|untersuchung|behandlung)|"
    r"ne (?:sauraient?|peuvent|peut) (?:en aucun cas )?(?:constituer|remplacer) "
    r"(?:une consultation|un (?:avis|conseil))|"
    r"ont un caractère (?:purement )?(?:général|informatif|indicatif)|"
    r"no sustituye (?:una|la) (?:valoración|consulta|atención|asesoría)|non sostituisce il parere|"
    r"no sustituye en ningún caso (?:el|la|a)|tiene (?:un )?carácter (?:meramente |exclusivamente )?divulgativo|"
    r"tiene(?:n)? fines (?:educativos|informativos|divulgativos) y no (?:reemplaza|sustituye)|"
    r"no (?:reemplaza|sustituye) (?:el diagnóstico|la consulta|la opinión)|"
    # an investment blog's "not investment advice" in Polish; a Turkish company's central registry number
    # (its "MERSİS" lowered keeps the dot above the i)
    r"nie stanowi(?:ą)? (?:rekomendacji|porady) (?:inwestycyjnej|finansowej|prawnej)|"
    r"nie stanowi(?:ą)? rekomendacji|mersi\u0307?s (?:no|numarası)|ticaret sicil (?:no|numarası)|"
    # a Romanian association's registration and reprint line, a Lithuanian reprint ban
    r"persoană juridică de drept|reproducerea (?:integrală|parțială|totală) sau (?:integrală|parțială|totală)|"
    r"draudžiama (?:naudoti|kopijuoti|platinti|skelbti)|"
    r"não substitu(?:i|em) (?:a |o |uma |um )?(?:consulta|acompanhamento|orientação|avaliação|atendimento)|"
    # a Mexican health site's legal lines: its medical officer, the health regulator's advertising notice
    r"responsable sanitario|aviso de publicidad cofepris|"
    r"nie zastępuj(?:e|ą) (?:porady|konsultacji)|nie zastąpi(?:ą)? (?:porady|konsultacji)|"
    r"(?:mają|ma) charakter (?:wyłącznie |jedynie |tylko )?(?:informacyjny|edukacyjny|poglądowy)|"
    # reprints in Romanian and Serbian or Croatian (Latin): the content is protected, taken only with a link
    r"(?:este )?protejat de (?:legea )?drepturil\w* de autor|preluarea (?:textelor|materialelor|articolelor) "
    r"(?:este permisă|se face)|preuzimanje sadržaja (?:sa|s|sa našeg|sa ovog) portala|zabranjeno je preuzimanje|"
    r"sva prava zadržana|"
    # reprints only with a link (Russian: "copying the site's materials is allowed only with…"; Armenian)
    r"копирование (?:материалов|информации)(?: сайта| портала)? (?:разрешено|запрещено|допускается)|"
    r"առանց (?:ակտիվ )?հղման|"
    r"nem helyettesíti?k? (?:az? )?(?:szak)?orvosi|kizárólag tájékoztató jellegű\w*|"
    r"не заменяет консультаци\w+|носит (?:исключительно )?ознакомительный "
    r"характер|проконсультируйтесь со специалистом|δεν αποτελεί (?:νομική|ιατρική) συμβουλή|"
    r"(?:έχουν|έχει) (?:αποκλειστικά |καθαρά |μόνο )?ενημερωτικό χαρακτήρα|"
    r"δεν υποκαθιστ(?:ούν|ά) (?:σε καμία περίπτωση )?(?:τη γνώμη|τη συμβουλή|την επίσκεψη)|"

    # links to other sites, for which the site takes no responsibility, in eight languages
    r"links to third[- ]party (?:web)?sites|liens vers des sites (?:tiers|externes)|"
    r"enlaces a sitios (?:web )?de terceros|collegamenti (?:a|verso) siti (?:web )?(?:di terzi|esterni)|"
    r"links zu (?:externen )?(?:websites|webseiten|seiten) dritter|linki do (?:stron|serwisów) (?:osób )?trzecich|"
    r"ссылки на сторонние (?:сайты|ресурсы)|σύνδεσμοι προς (?:ιστότοπους|ιστοσελίδες) τρίτων|"
    r"δεν (?:είναι|φέρει) (?:καμία )?(?:υπεύθυν\w+|ευθύνη)|"
    # French
    r"tous droits réservés|droits de reproduction|n['’]est pas responsable|mentions légales|"
    r"la reproduction de ce (?:texte|communiqué|article) est autorisée|"
    r"(?:les )?photos (?:demeurent|restent) la propriété|"
    r"reproduction interdite|"
    # German
    r"alle rechte vorbehalten|(?:übernimmt|übernehmen(?: wir)?) keine (?:haftung|gewähr|verantwortung)|"
    r"(?:verwendet|nutzt) cookies|"
    # Spanish, Portuguese, Italian
    r"todos los derechos reservados|no se hace responsable|utiliza cookies|todos os direitos reservados|"
    r"tutti i diritti riservati|utilizza (?:i )?cookie|"
    # Polish
    r"wszelkie prawa zastrzeżone|nie ponosi odpowiedzialności|używa plików cookie|"
    r"zamów prenumeratę|pełna wersja (?:tego )?(?:i innych )?artykuł\w* (?:jest )?dostępna|"
    r"materiał(?:y)? chronion[ey] prawem autorskim|"
    r"(?:dalsze )?rozpowszechnianie (?:\w+ )?(?:możliwe )?wyłącznie za zgodą|"
    # Russian
    r"все права защищены|не несе[тё] ответственности|использует файлы cookie|"
    r"не является публичной офертой|копирование и репост|"
    r"при (?:полном или частичном )?(?:использовании|копировании|цитировании) материалов|"
    r"перепечатка материалов|при перепечатке(?: материалов)?|"
    r"при копировании(?: \w+){0,2} ссылка(?: \w+){0,3} обязательна|"
    # Greek
    r"με επιφύλαξη παντός δικαιώματος|δεν ευθύνεται|χρησιμοποιεί cookies|απαγορεύεται η αναδημοσίευση|"
    r"η αναδημοσίευση (?:του παρόντος |του |των )?(?:άρθρου |άρθρων |κειμένου )?επιτρέπεται|"
    r"δεν φέρει (?:καμία )?ευθύνη για (?:το περιεχόμενο|τα σχόλια|τις απόψεις)|"
    r"επιτρέπεται μόνο με αναφορά|"
    # rights reserved, and reprints only with a link, in Dutch, Czech, Swedish, Hungarian, Romanian, Finnish,
    # Indonesian, Turkish, Ukrainian and Vietnamese
    r"alle rechten voorbehouden|všechna práva vyhrazena|alla rättigheter förbehållna|minden jog fenntartva|"
    r"toate drepturile rezervate|kaikki oikeudet pidätetään|hak cipta dilindungi|"
    r"tüm (?:yayın )?hakları (?:saklıdır|.{0,60}aittir)|всі права захищені|"
    r"використання матеріалів (?:дозволяється |можливе )?(?:лише|тільки)|bảo lưu mọi quyền|"
    # the same in Arabic, Persian, Hebrew and Hindi; an Arabic or Persian site's "not responsible for the
    # content" (of linked sites, of comments) and its columns' "the views are their writers'"
    r"(?:جميع|كل|كافة) الحقوق محفوظة|حقوق النشر محفوظة|"
    r"و?لا (?:تتحمل|يتحمل)(?: \S+){0,3} مسؤولي\S* (?:عن )?(?:محتو\S*|المحتو\S*|التعليقات|الآراء)|"
    r"(?:تعبر|يعبر) عن (?:رأي|آراء|وجهة نظر) (?:كاتبها|كتابها|أصحابها|صاحبها)|"
    r"(?:کلیه|تمامی|همه)(?: \S+){0,1} حقوق(?: \S+){0,5} محفوظ|"
    r"استفاده از (?:مطالب|محتوای)(?: \S+){0,4} (?:با ذکر منبع|بدون ذکر منبع|ممنوع)|"
    r"مسئولیتی در قبال(?: \S+){0,3} (?:محتوا|مطالب|نظرات)|"
    r"כל הזכויות שמורות|सर्वाधिकार सुरक्षित|"
    # readers' views are not the editors': the disclaimer under comments and guest posts
    r"(?:do|does) not (?:necessarily )?reflect the (?:views|opinions?)|"
    r"ne reflètent pas (?:nécessairement )?(?:l['’]opinion|les opinions|le point de vue)|"
    r"geben nicht (?:unbedingt |notwendigerweise )?die meinung|"
    r"no reflejan (?:necesariamente )?(?:la opinión|el punto de vista|la postura)|"
    r"non riflettono (?:necessariamente )?(?:le opinioni|il punto di vista|la posizione)|"
    r"nie (?:muszą )?odzwierciedla(?:ją|ć) (?:stanowiska|poglądów)|"
    r"не (?:обязательно )?отражают (?:точку зрения|мнение|позицию)|δεν εκφράζουν (?:απαραίτητα )?τις απόψεις|"
    # who holds a reader's personal data (the GDPR's notice)
    r"data controller|responsable du traitement|responsable del tratamiento|titolare del trattamento|"
    r"verantwortliche(?:r)? im sinne der dsgvo|administratorem (?:twoich |pani/pana )?danych osobowych|"
    r"klauzula (?:informacyjna|rodo)|informacja rodo|barrierefreie-informationstechnik-verordnung|"
    r"оператор(?:ом)? персональных данных|υπεύθυνος επεξεργασίας|"
    # the terms of using the site
    r"terms of use|conditions d['’]utilisation|nutzungsbedingungen|términos de uso|condizioni d['’]uso|"
    r"warunki korzystania|условия использования|όροι χρήσης")
# The site's notes to its reader, never an article's: its cookies, an old browser, the rules for
# comments, a subscription offer.
_SITE_NOTE = (
    r"(?:we|this (?:web)?site|our (?:web)?site|and our partners) uses? cookies|"
    # the same cookie note in German, French, Spanish, Portuguese, Italian, Dutch, Czech, Polish, Turkish, Russian
    r"(?:wir|diese (?:web)?seite|diese website)(?: und unsere partner)? (?:verwende[nt]|nutz(?:en|t)|setz(?:en|t)) "
    r"cookies|(?:nous(?: et nos partenaires)?|ce site) utilis(?:ons|e) des cookies|"
    r"(?:utilizamos|usamos|este sitio(?: web)? (?:utiliza|usa)|este site (?:utiliza|usa)) cookies|"
    r"(?:utilizziamo|usiamo|questo sito(?: web)? (?:utilizza|usa)) (?:i )?cookie|"
    r"(?:wij|we)(?: en onze partners)? (?:gebruiken|plaatsen) cookies|"
    r"(?:deze|onze) (?:web)?site (?:gebruikt|plaatst) cookies|"
    r"(?:tento web|tyto stránky) používá (?:soubory )?cookie|používáme (?:soubory )?cookie|"
    r"(?:ta strona|serwis|strona) (?:używa|wykorzystuje) (?:plików )?cookies?|używamy (?:plików )?cookies?|"
    r"çerezler(?:i)? kullan\w*|(?:мы используем|сайт использует) (?:файлы )?cookie|"
    r"your browser is (?:out of date|outdated|not supported)|update your browser|"
    r"(?:must be )?logged in to (?:post a )?comment|log in to (?:post a )?comment|comments are moderated|"
    r"comments on this (?:story|article|post) are (?:pre-?)?moderated|"
    r"logged in to (?:a|an|your) (?:[\w-]+ ){1,3}account to (?:post a )?comment|"
    r"(?:коментарі|комментарии)(?: [\w’']+){0,3} проход(?:ять|ят) (?:попередню |предварительную )?модерац\w+|"
    r"limit your comments? to|by posting(?: a comment| your comment)?,? you agree|"
    r"comments are closed|kommentarfunktion(?: \w+){0,4} (?:geschlossen|deaktiviert)|"
    r"kommentare sind geschlossen|les commentaires sont fermés|los comentarios están cerrados|"
    r"i commenti sono chiusi|os comentários estão fechados|reacties zijn gesloten|"
    # a link that leaves the site, and an offer of unlimited reading, in the same languages
    r"you are (?:now )?leaving (?:this|our|the) (?:web)?site|sie verlassen (?:jetzt )?(?:diese|unsere|die) "
    r"(?:web)?seite|verlassen sie (?:jetzt )?(?:diese|unsere|die) (?:web)?(?:seite|site)|"
    r"vous (?:allez )?quitte[rz] (?:le|ce|notre) site|vous êtes sur le point de quitter (?:le|ce|notre) site|"
    r"está saliendo de(?:l| este| nuestro) sitio|"
    r"stai (?:per )?lasciando (?:il|questo) sito|você está saindo d[oe] (?:nosso )?site|"
    r"u verlaat (?:nu )?(?:de|deze|onze) website|"
    r"accès illimité|acceso ilimitado|accesso illimitato|acesso ilimitado|unbegrenzte[nr]? zugang|"
    # an appeal for readers' money, and for following the site on Google News
    r"support (?:independent|our) journalism|unterstützen sie (?:unseren |unabhängigen )?journalismus|"
    r"soutenez (?:notre |le )?journalisme|wesprzyj (?:niezależne |nasze )?dziennikarstwo|"
    r"apoya (?:el|nuestro) periodismo|підтримайте (?:незалежну |нашу )?журналістику|"
    r"поддержите (?:независимую |нашу )?журналистику|follow us on google news|"
    # a WhatsApp channel or a blog to follow (English, French, Spanish, German, Nordic), and the cookie note
    # in the Nordic languages
    r"join our whatsapp channel|rejoignez notre (?:chaîne|canal) whatsapp|únete a nuestro canal de whatsapp|"
    r"folge (?:meinem|unserem) blog|folgt (?:meinem|unserem) blog|abonniere (?:meinen|unseren) blog|"
    r"følg bloggen|følg oss på|vi bruker informasjonskapsler|vi bruger cookies|vi använder (?:cookies|kakor)|"
    r"käytämme evästeitä|"
    r"ikuti \w+(?: \w+){0,3} di google news|simak berita(?: \w+){0,6} di google news|"
    r"non (?:rappresenta|costituisce) una testata giornalistica|"
    # affiliate links, a newsletter's sign-up, a form's consent, who keeps the page
    r"(?:this (?:post|article|page|review) )?contains affiliate links|affiliate links?,? (?:which|meaning)|"
    r"as an amazon associate|(?:cet article|ce billet|cette page|cette recette) contient des liens "
    r"(?:affiliés|d['’]affiliation)|enthält (?:affiliate-links|werbelinks|affiliate links)|"
    r"contiene (?:enlaces|links) de afiliad[oa]s?|contiene link di affiliazione|contém links de afiliad[oa]s?|"
    r"bevat (?:affiliate|partner)[- ]?links|"
    r"inscrivez-vous à (?:ma|notre) (?:lettre|newsletter)|você concorda com o tratamento|"
    r"ao enviar (?:seus|os seus) dados|this (?:page|site) is maintained by|"
    r"(?:is|are) not affiliated with|"
    # an archive banner, a correction, a paywall's count, a newsletter's sign-up (news sites)
    r"this (?:article|story) is (?:more than|over) \w+ years? old|este artigo tem mais de \w+ anos|"
    r"this (?:article|story|post|report) (?:is|comes) from (?:our|the) archives?|"
    r"(?:dieser artikel|dieser beitrag) (?:stammt )?aus unserem archiv|"
    r"(?:cet article|ce texte) (?:est issu|provient) de nos archives|"
    r"(?:este artículo|esta noticia) (?:procede|es) de nuestro archivo|"
    r"(?:questo articolo|quest['’]articolo) (?:proviene|è) dal nostro archivio|"
    r"(?:ten )?(?:artykuł|tekst|wpis|notka) pochodzi z (?:naszego )?archiwum|mogły się od tego czasu zmienić|"
    r"(?:эта )?(?:статья|заметка|материал) из (?:нашего )?архива|"
    r"(?:το άρθρο|αυτό το άρθρο) (?:είναι|προέρχεται) από το αρχείο μας|"
    r"dieser artikel ist (?:mehr als|über) \w+ jahre alt|cet article a plus de \w+ ans|"
    r"este artículo tiene más de \w+ años|questo articolo ha più di \w+ anni|"
    r"an earlier version of this (?:article|story)|une version précédente de cet article|"
    r"una versión anterior de este artículo|eine frühere version dieses artikels|"
    # the archive banner and the correction in more languages: Portuguese, Italian, Norwegian, Danish,
    # Swedish, Dutch, Polish, Czech, Russian, Greek, Lithuanian, Filipino
    r"(?:may|might) (?:contain|include) (?:outdated|out-of-date) information|"
    r"(?:page|site|article|blog|content) is no longer (?:being )?(?:updated|maintained)|"
    r"publicad[ao] há mais de \w+ anos|(?:podem|pode) estar desatualizad[ao]s?|"
    r"questo articolo risale (?:al|a più di)|potrebbero non essere più aggiornat\w|"
    r"(?:this (?:article|story|post) was|questo articolo è stato|este artículo fue|este artigo foi|cet article a été) "
    r"(?:published|pubblicato|publicado|publié) (?:more than|over|più di|oltre|hace más de|há mais de|il y a plus de) "
    r"\w+ (?:years?|anni|anno|años|año|anos|ano|ans|an)|"
    r"dieser artikel wurde vor (?:mehr als|über) \w+ jahren veröffentlicht|"
    r"(?:artikkelen|artiklen|artikeln|saken|innlegget|indlægget) (?:er|är) mere? (?:enn|end|än) \w+ år gam\w+|"
    r"kan inneholde utdatert|"
    r"kan indeholde forældede|kan innehålla inaktuell|(?:artikel|bericht) is meer dan \w+ jaar oud|"
    r"kan verouderde informatie|"
    r"może zawierać nieaktualne|(?:artykuł|tekst) ma (?:ponad|więcej niż) \w+ lat|může obsahovat neaktuální|"
    r"(?:článek|článok|text) je starší (?:než|ako) \w+ (?:let|roky|rok|rokov)|"
    r"опубликован[аo]? более \w+ (?:лет|года)|(?:информация )?может быть (?:устаревшей|неактуальной)|"
    r"δημοσιεύθηκε πριν από (?:περισσότερ[οα] από )?\w+ (?:χρόνια|χρόνο|έτη|έτος)|"
    r"paliktas tik archyvo tikslais|nebeatnaujinamas|"
    r"una versione precedente di questo articolo|uma versão anterior des[ta]a? (?:matéria|reportagem|notícia|artigo)|"
    r"een eerdere versie van dit (?:artikel|bericht)|wcześniejsza wersja (?:tego )?artykułu|"
    r"в (?:предыдущей|первоначальной) версии (?:этой |данной )?(?:статьи|заметки|материала)|"
    r"σε προηγούμενη έκδοση (?:του|αυτού του) άρθρου|sa naunang bersyon ng|"
    r"kontingent an (?:freien|kostenlosen) artikeln|lesen sie weiter mit|leia sem limites|lea sin límites|"
    r"you['’]ve reached your (?:free )?(?:article )?limit|free articles? (?:left|remaining) this month|"
    r"sign up (?:for|to) our (?:\w+ )?newsletter|subscribe to our (?:\w+ )?newsletter|"
    r"(?:with|in) our (?:\w+ )?newsletters\b|"
    r"abonnez-vous à notre newsletter|melden sie sich für unseren newsletter an|"
    r"suscríbete a nuestro boletín|iscriviti alla (?:nostra )?newsletter|inscreva-se na nossa newsletter|"
    r"zapisz się na (?:\w+ )?newsletter|подпишитесь на (?:нашу )?рассылку|"
    r"zapisując się,? akceptujesz|"
    r"abonē (?:mūsu )?(?:jaunumu vēstuli|jaunumus)|prenumeruokite (?:mūsų )?naujienlaišk\w*|"
    r"telli (?:meie )?uudiskiri|"
    # a newsletter box's promise
    r"no spam|unsubscribe (?:at )?any ?time|kein spam|jederzeit abbestellen|sans spam|désinscri\w+ à tout moment|"
    r"delivered (?:straight |right |directly )?to your inbox|i din (?:indbakke|inkorg|innboks)|in ihr(?:em)? postfach|"
    r"dans votre boîte (?:mail|de réception)|en tu bandeja de entrada|na sua caixa de entrada|nella tua casella|"
    r"in je (?:inbox|mailbox)|w (?:twojej|swojej) skrzynce|"
    r"aucun pourriel|désabonnement en un clic|"
    r"sin spam|sem spam|niente spam|bez spamu|без спама|χωρίς spam|spam yok|geen spam|"
    r"(?:partnerlinkeket|affiliate linkeket) tartalmaz|нажимая (?:на )?кнопку,? вы (?:даёте|даете|подтверждаете) "
    r"согласие|by clicking (?:the button|submit|send),? you agree|"
    r"already a subscriber|subscribe (?:now|today)|unlimited (?:digital )?access|"
    r"déjà abonné|abonnez-vous|votre navigateur (?:est obsolète|n['’]est plus à jour)|"
    r"jetzt abonnieren|bereits abonnent|ihr browser ist veraltet|"
    r"suscríbete|ya eres suscriptor|tu navegador está desactualizado|"
    # a Turkish agency's and paper's subscription lines ("news offered to subscribers", "subscribe")
    # an app's promotion in place of the rest of the article (English, German, French, Spanish, Hindi)
    r"download (?:our|the) (?:free |\w+ )?app|read (?:the )?(?:full|whole|complete|rest of the) "
    r"(?:story|article|news)(?: \w+){0,3} (?:on|in) (?:the|our) (?:\w+ ){0,3}app\b|scan the qr code|"
    r"laden sie (?:unsere|die) (?:\w+[- ])?app|téléchargez (?:notre|l['’])application|descarga (?:nuestra|la) app|"
    r"पूरी खबर(?: \S+){0,4} ऐप पर|ऐप डाउनलोड|qr स्कैन|"
    r"abonelere sunulan|abonelik için|abone olun|aboneliğinizi başlatın|abone ol\b|tarayıcınız güncel değil|"
    r"assine (?:já|agora|a nossa|o nosso)|"
    # a player's or a widget's stand-in: it needs JavaScript or Flash (English, German, French, Spanish, Italian)
    r"requires? (?:your (?:computer|browser|device) to have )?(?:javascript|(?:adobe )?flash)|"
    r"(?:enable|turn on) javascript|javascript (?:is )?(?:required|disabled)|javascript aktivieren|"
    r"activer (?:le )?javascript|(?:habilita|activa) (?:el )?javascript|abilita(?:re)? javascript|"
    r"zaloguj się,? aby|twoja przeglądarka jest (?:przestarzała|nieaktualna)|"
    r"używasz (?:przestarzałej|starej) przeglądarki|"
    # an old browser, in more words: German, French, Spanish, Italian, Portuguese, Russian, Dutch, Czech
    r"(?:veralteten|veralteter) browser|navigateur obsolète|navegador (?:obsoleto|desactualizado)|"
    r"browser (?:obsoleto|non aggiornato)|navegador desatualizado|устаревш\w+ (?:версию )?браузер\w*|"
    r"verouderde browser|zastaralý prohlížeč|"
    r"подпишитесь|ваш браузер устарел|"
    r"εγγραφείτε συνδρομητές|ο browser σας|"
    # an invitation to report an error (the corrections' address under an article)
    r"if you (?:spot|find|see|notice) an error|si vous (?:constatez|remarquez|repérez|trouvez) une erreur|"
    r"si (?:encuentras|ves|detectas) (?:un|algún) error|wenn sie einen fehler (?:finden|entdecken|bemerken)|"
    r"se (?:trovi|noti) un errore|se (?:encontrar|vir|notar) (?:um|algum) erro|"
    # a column's "the views are the author's" note, a guest's prompt to register and DLE's "guests cannot
    # comment", a "follow our groups" line, a Malay prompt to join a Telegram channel
    r"εκφράζουν αποκλειστικά τους (?:συντάκτες|αρθρογράφους|υπογράφοντες)|δεν υιοθετεί απαραίτητα|"
    r"вы зашли на сайт как незарегистрированный пользователь|находящиеся в группе гости|"
    r"не могут оставлять комментарии|ikuti saluran (?:telegram|whatsapp) kami|sertai (?:saluran )?telegram|"
    r"подписывайтесь на (?:нас|наш\w*)(?: \w+){0,2} (?:(?:в|во) )?"
    r"(?:вконтакте|одноклассниках|telegram|телеграм|соцсетях)|"
    # the rules for comments, and the log-in they ask for
    r"comment(?:s|ing)? (?:policy|rules|guidelines)|règles de (?:modération|publication)|charte de modération|"
    r"kommentarregeln|normas de participación|regole (?:dei|per i) commenti|regulamin (?:komentowania|komentarzy)|"
    r"правила (?:комментирования|публикации комментариев)|κανόνες (?:σχολιασμού|δημοσίευσης σχολίων)|"
    r"vous devez être connecté|sie müssen angemeldet sein|debes (?:estar registrado|iniciar sesión)|"
    r"devi (?:essere registrato|effettuare il login)|musisz być zalogowan[ya]|"
    r"необходимо (?:авторизоваться|войти)|πρέπει να (?:είστε συνδεδεμένοι|συνδεθείτε)|"
    r"παλιά έκδοση του (?:internet explorer|browser|φυλλομετρητή)")
# The cookie note in Japanese, Korean and Chinese (no word edges); a Japanese blog's follow box and its
# notice that an entry is years old.
_SITE_NOTE_CJK = (r"このブログの読者になると|最終更新日から\S{1,4}年以上(?:が)?経過|"
                  r"(?:cookie|クッキー)を(?:使用|利用)|쿠키를 사용|使用cookie|コメントは承認制|"
                  r"쿠팡 ?파트너스|수수료를 제공받|聯盟行銷|联盟营销|"
                  r"アフィリエイト(?:広告|プログラム)を(?:利用|使用)|(?:プロモーション|広告)が含まれています|"
                  r"(?:おわび|お詫び)と訂正|更正(?:声明|启事|啟事)|アフィリエイトプログラムに参加|"
                  # Thai (no spaces between words): "some of its information may be out of date"
                  r"ข้อมูลบางส่วนอาจไม่เป็นปัจจุบัน|"
                  # a WeChat article's "tap the blue name above to follow us", "star the account"
                  r"点击上方.{0,12}关注|點擊上方.{0,12}關注|星标公众号|星標公眾號")
# Chinese and Japanese (no word edges): rights reserved, "does not represent this site", no reprint.
_NOTICE_CJK = (r"版权归博主所有|版權歸博主所有|如需转载|如需轉載|สงวนลิขสิทธิ์|"
               r"版权声明|版權聲明|免责声明|免責聲明|版权(?:均|归)属|版權(?:均|歸)屬|未经书面授权|未經書面授權|"
               r"版权所有|版權所有|무단 ?전재|不代表本站|未经授权|未經授權|無断転載|禁止转载|"
               r"仅代表作者|僅代表作者|本站不[對对]|概不[負负][責责]|转载请注明|轉載請註明|谢绝.{0,10}转载|謝絕.{0,10}轉載|"
               r"转载目的在于|轉載目的在於|不构成任何投资建议|不構成任何投資建議|"
               r"未经本[网站报刊社].{0,6}授权|未經本[網站報刊社].{0,6}(?:授權|同意)|请勿转载|請勿轉載|留言.{0,8}审核|留言.{0,8}審核|评论.{0,8}审核|評論.{0,8}審核|"
               r"下载.{0,12}客户端|下載.{0,12}客戶端|アプリをダウンロード|"
               r"(?:扫描|扫).{0,6}二维码.{0,10}(?:关注|下载|订阅|加入|添加)|(?:掃描|掃).{0,6}二維碼.{0,10}(?:關注|下載|訂閱|加入|添加)|"
               + _SITE_NOTE_CJK)
# Words that notices use and an article's paragraph may too (an article about copyright law).
_NOTICE_LIKELY = (r"copyright|powered by|licensed under|no comments yet|quick links|cookies? to|sign in|"
                  r"create an account")

# The patterns hold lower-case phrases and are matched against lowered text: a case-blind pattern of a
# few hundred phrases searches several times slower. Each list is grouped by its phrases' first
# characters (see alternation.py): it matches where the plain list does, some fifteen times faster.
_WORDS_ONLY = guarded(f"{_NOTICE_ONLY}|{_SITE_NOTE}")
_CJK_ONLY = guarded(_NOTICE_CJK)
# A block that is certainly a notice where it opens with one of these.
NOTICE_ONLY = re.compile(rf"©|\b{_WORDS_ONLY}\b|{_CJK_ONLY}")
# The same in words only (a block that opens with "© AFP" may be an article under its photo's credit).
NOTICE_WORDS = re.compile(rf"\b{_WORDS_ONLY}\b|{_CJK_ONLY}")
# A block that opens with one of these is the site talking to its reader, wherever it sits.
SITE_NOTE = re.compile(rf"\b{guarded(_SITE_NOTE)}\b|{guarded(_SITE_NOTE_CJK)}")
# A whole output that reads like a notice (a footer, a disclaimer, an empty comment widget).
NOTICE = re.compile(rf"©|\b{guarded(f'{_NOTICE_ONLY}|{_SITE_NOTE}|{_NOTICE_LIKELY}')}\b|{_CJK_ONLY}|^\s*name:",
                    re.MULTILINE)


def reads_as_notice(text: str) -> bool:
    """Whether a text holds a phrase of notices (or one that notices use), in any case."""
    return NOTICE.search(text.lower()) is not None


NOTICE_TEXT = 400  # visible characters: a block this short that opens with a notice's phrase is a notice


def _opening(text: str, opening: int) -> str:
    """A text's first `opening` characters, lower-cased, its white space one space (a phrase broken over
    two lines of the page's source is the phrase)."""
    words = opening // 2  # at least `opening` characters with the spaces between them
    return " ".join(text.split(None, words)[:words])[:opening].lower()


def opens_as_notice(text: str, opening: int = 200) -> bool:
    """Whether a block's opening (its first `opening` characters) holds a phrase only notices use."""
    return bool(NOTICE_ONLY.search(_opening(text, opening)))


def opens_with_notice_words(text: str, opening: int = 200) -> bool:
    """opens_as_notice, the © sign left out."""
    return bool(NOTICE_WORDS.search(_opening(text, opening)))


def opens_as_site_note(text: str, opening: int = 200) -> bool:
    """Whether a block's opening is the site talking to its reader (cookies, browser, comment rules,
    subscription)."""
    return SITE_NOTE.search(_opening(text, opening)) is not None


PROSE_BESIDE = 80  # visible characters of a paragraph that is not a notice: a block holding one is more


def short_enough(text: str) -> bool:
    """Whether a block's text is short enough to be a notice."""
    return len(text) <= NOTICE_TEXT * 3 and visible_length(text) <= NOTICE_TEXT


def is_notice_block(element: HtmlElement, opens: Callable[[str], bool], text: str | None = None) -> bool:
    """Whether a block is a notice: short, opening with a notice's phrase, and holding no paragraph of
    prose that is not one (a wrapper whose first child is a notice is not a notice). Its text may be
    passed in."""
    if text is None:
        text = text_of(element)
    if not short_enough(text) or not block_opens(element, opens, text):
        return False
    first = next(iter(element), None)
    if first is not None and (first.tag in HEADINGS or _title_line(first)) and opens(text_of(first)):
        return True  # under a heading that is the notice ("Subscribe today", "Abonnez-vous", "Support our journalism")
    for paragraph in element.iter("p"):
        if paragraph is not element:
            inner = text_of(paragraph)
            if prose_length(inner) >= PROSE_BESIDE and not opens(inner):
                return False
    return True


BOX_NOTICES = 2  # paragraphs, each a notice, that make a box of notices however long it is


def is_box_of_notices(element: HtmlElement) -> bool:
    """A box of two or more paragraphs and nothing else, each opening as a notice and at most twice a
    notice's length ("Copyright statement: …", "Disclaimer: …", the rules for comments, who holds a
    reader's data)."""
    paragraphs = [child for child in element if child.tag == "p"]
    if len(paragraphs) < BOX_NOTICES or len(paragraphs) != sum(1 for child in element if isinstance(child.tag, str)):
        return False
    for paragraph in paragraphs:
        text = text_of(paragraph)
        if visible_length(text) > NOTICE_TEXT * 2 or not block_opens(paragraph, opens_as_notice, text):
            return False
    return True


def block_opens(element: HtmlElement, opens: Callable[[str], bool], text: str) -> bool:
    """Whether a block's text opens as `opens` says, read also with a space after its first part when the
    two run together (a box served without white space between its tags: `<p>Support our
    journalism</p><p>We are…`)."""
    if opens(text):
        return True
    first = element[0] if len(element) else None
    if first is None or first.tag not in _PARTS:
        return False
    cut = len(element.text or "") + len(text_of(first))
    glued = text[cut - 1:cut].isalnum() and text[cut:cut + 1].isalnum()
    return glued and opens(f"{text[:cut]} {text[cut:]}")


_PARTS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "span", "li", "dt"})


def _title_line(element: HtmlElement) -> bool:
    """A box's title set as a short paragraph of its own (`<p class="box-title">`), not as a heading."""
    return element.tag == "p" and visible_length(text_of(element)) < PROSE_BESIDE and element.getnext() is not None


def opening_of(text: str, latin: int, cjk: int) -> str:
    """A text's first `latin` characters, or its first `cjk` when it is mostly Chinese, Japanese or Korean
    (whose characters say more each): where a notice's phrase is looked for."""
    opening = text[:latin]
    return opening[:cjk] if cjk_count(opening) * 3 > len(opening) else opening


def prose_length(text: str) -> int:
    """Visible characters, a Chinese, Japanese or Korean one counting as the three Latin ones it says
    about as much as."""
    visible = visible_length(text)
    return visible if text.isascii() else visible + 2 * cjk_count(text)
