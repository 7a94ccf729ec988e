"""What an element's class and id words say it is: article, furniture, comments, or hidden."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

from websearch_mcp.extract.text import HEADINGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

# Class and id labels are read as whole words: tokens split on spaces, "-", "_" and other punctuation,
# and between a lower-case letter and a capital ("postBody" is "post body"). A rule never finds its
# word inside another ("tone-comment" names an article's tone; "nocomments" or "headlines" are not
# "comments" or "ads").
_EDGE = r"(?:^|\s)"
_END = r"(?:$|\s)"
# Words of page furniture; each costs a candidate 25 points.
NEGATIVE = re.compile(
    # (`subscriber-preview` and `subscriber-only`: a paywall's parts of the article, as TownNews's BLOX names them)
    _EDGE + r"(?:comments?|commentlist|disqus|share|sharing|social|related\w*|recommend\w*|newsletter|"
    r"subscribe(?!rs?[-_ ](?:only|preview|content))\w*|"
    r"tagbox|tagsbox|taglist|tagslist|tagcloud|"
    r"signup|promo(?!ted)\w*|advert\w*|ads?|adslot|sponsor\w*|sidebar|widget|breadcrumbs?|cookie\w*|consent|gdpr|"
    r"popup|modal|banner|outbrain|taboola|tags?|keywords|more stories|trending|popular|byline|author|"
    r"mostread|most read|mostviewed|most viewed|"
    r"(?:left|right)sidebar|sidebar(?:left|right)|agenda|"
    r"toolbar|pagination|pager|nav|navbar|navigation|menu|prev next|next prev|previous next|prevnext|"
    r"masthead|footer|header|skip|caption|"
    r"credit|shoutbox|skyscraper|shopping|footnote|meta|contact\w*|kontakt\w*|combx|rating|reply|respond|signature|"
    r"legal|disclaimer|copyright|privacy|imprint|"
    # the same furniture in German, French, Spanish, Polish, Russian (transliterated) and Chinese (pinyin)
    r"teaser|weiterlesen|verwandte?|aehnliche|werbung|anzeigen?|fusszeile|kopfzeile|seitenleiste|teilen|"
    r"empfehlung\w*|impressum|datenschutz|kommentare?|partage|publicite|pied|entete|annonces?|"
    r"liens?|recommandes|commentaires|compartir|publicidad|relacionad\w*|cabecera|anuncios?|comentarios|"
    r"reklam[ay]?|powiazane|stopka|naglowek|udostepnij|komentarze|kommentarii|pohozhie|podval|"
    r"guanggao|xiangguan|tuijian|daohang|pinglun|yejiao|remen|"
    # Dutch, Portuguese, Italian, Turkish; an author's box spelled as in German, Spanish and Polish; an app
    r"gerelateerd|advertentie|voettekst|rodape|lateral|publicidade|correlati|pubblicita|ilgili|benzer|"
    r"kvkk|autor|app download|download app|fuss|about me|sobre mim|sobre mi|uber mich|o mnie|"
    # related articles and advertising in Czech, Slovak, Romanian, Hungarian and Greek (transliterated)
    r"souvisejici|suvisiace|citeste si|articole similare|reclama|publicitate|kapcsolodo|hirdetes|sxetika|"
    # a readers' poll, in English, Polish, German, French, Spanish, Italian, Russian and Turkish
    r"poll|polls|sonda|ankieta|umfrage|sondage|encuesta|sondaggio|opros|anket|"
    # customers' testimonials on a company's page, in English, French, Spanish, Portuguese and German
    r"testimonial\w*|temoignages?|testimonios?|depoimentos?|kundenstimmen|"
    # a call to action ("cta-band", "call-to-action", "donate-row", a hotel's "booking-strip"): a button and a
    # line asking the reader to act
    r"cta|calltoaction|call to action|donate|donations?|prefooter|subfooter|partner|booking|"
    # a Joomla module (the site's boxes around the article: latest news, an agenda, a poll)
    r"moduletable|"
    # a subscription offer, in French, German and Dutch, Spanish, Italian, Portuguese, Polish, Russian, Turkish
    r"abonnement|suscripcion|abbonamento|assinatura|prenumerata|podpiska|abonelik|"
    # a "read also" box inside the article, in English, French, Italian, Dutch, Portuguese, Spanish, German, Polish
    r"read also|lire aussi|a lire aussi|leggi anche|lees ook|leia tambem|lea tambien|lesen sie auch|czytaj tez|"
    r"czytaj takze|zobacz tez|zobacz takze|"
    # a stand-in a script replaces (an embed awaiting consent, an ad slot, a lazy image)
    r"placeholder)" + _END,
    re.IGNORECASE)
# Words of the article itself; each earns a candidate 25 points.
POSITIVE = re.compile(
    _EDGE + r"(?:article\w*|story\w*|entry\w*|hentry|post|postcontent|postbody|content|"
    r"body|main|text|prose|blog|page|articlebody|storybody|entrycontent|"
    # the article in German, French, Spanish, Polish, Russian (transliterated) and Chinese (pinyin)
    r"inhalt|artikel\w*|beitrag\w*|haupttext|texte|contenu|corps|contenido|articulo|cuerpo|noticia|"
    r"tresc|tekst|artykul\w*|statya|stati|zhengwen|neirong|wenzhang|"
    # Dutch, Portuguese, Italian, Turkish
    r"inhoud|bericht|nieuwsbericht|conteudo|materia|contenuto|articolo|testo|icerik|haber|metin|"
    # the article in Joomla's templates (`contentpaneopen` in 1.5, `item-page` and K2's `itemFullText` later)
    r"contentpaneopen|item page|itemfulltext|itemintrotext|"
    # uCoz's entry (`eMessage`, `eText`: a news item's or a blog post's text)
    r"emessage|etext)" + _END,
    re.IGNORECASE)
# Comment sections: nothing inside them is the article. Words, and compounds that start with the word
# ("commentlist", "commentbody", German "Kommentarbereich"); not one that ends with it ("nocomments",
# "tonecomment"), nor "commentary", "commentator" or "commentisfree", nor a state: a post that has
# comments ("commented") or may get them ("commentable") is the post (as a token's last word
# only: "commented-list" is still read as comments).
COMMENTS = re.compile(
    _EDGE + r"(?:comment(?!ary|ator|isfree|ed$|able$)\w*|disqus\w*|kommentar\w*|commentaires?|comentarios?|komentar\w*|"
    r"sxolia|scholia|kommentarii|comm|reacties|reactie|yorum\w*|otzyv\w*|opiniones|opinioes|"
    r"bewertungen|recensioni|recenzje|binh luan|diskuse|diskuze|prispev\w*|guestbook|gaestebuch|gastebuch|"
    # a guestbook in Italian, Spanish, French, Polish and Russian (transliterated)
    r"libro ospiti|libro visitas|livre d?or|ksiega gosci|gostevaya|"
    # readers' opinions (Polish, French, English, German), and comments in Hungarian, Finnish and Romanian
    r"opinie czytelnikow|opinions? (?:des )?lecteurs|reader (?:comments|opinions)|leserkommentare|leserstimmen|"
    r"hozzaszolas\w*|kommentit|kommentti\w*|comentarii|"
    # customers' reviews in French, Romanian, Czech, Portuguese and Spanish (`avis-clients`, `recenzii`)
    r"avis|recenzii|recenze|avaliacoes|resenas|"
    # a shop's reviews tab and its customers' reviews (OpenCart's `tab-review`, WooCommerce's `tab-reviews`)
    r"tab reviews?|form review|"
    # uCoz's comments (`comEnt`, each one reader's), which millions of Russian-language sites ran on
    r"com ent|c message|c block[12]|"
    r"pinglun|respond|reply|replies|antworten|reponses|respuestas|odpowiedzi)" + _END,
    re.IGNORECASE)
# Lists of citations (Wikipedia's `references`, `reflist`): part of the article around them, never the
# article itself, however many entries they hold.
CITATIONS = re.compile(_EDGE + r"(?:references|reflist|refbegin|citations|bibliography|endnotes)" + _END,
                       re.IGNORECASE)
# A token that names the kind of the content ("tonal--tone-comment", "content--type-comment",
# "format-standard") says what the page is, not which part of it an element is.
_TAXONOMY = frozenset({"tone", "tonal", "type", "genre", "format", "category", "kind", "posttype"})
# Class words that hide an element (`hidden` alone; `overflow-hidden` or `hidden-xs` do not).
_HIDING = frozenset({"hidden", "hide", "d-none", "is-hidden", "invisible", "display-none"})
# `hidden md:block` (Tailwind) or `d-none d-lg-block` (Bootstrap): hidden on small screens only (not
# `d-print-block`: shown on paper, hidden on every screen).
_SHOWN_WIDE = re.compile(r"(?:^|\s)(?:\w+:(?:block|flex|grid|inline|table)"
                         r"|d-(?!print)\w+-(?:block|flex|grid|inline|table))",
                         re.IGNORECASE)
# A first word that makes a class a state or layout switch ("has-sidebar", "no-comments",
# "overflow-hidden", "feature_disablecomments"), or a last word that makes it one ("comments-open").
_SWITCH_FIRST = frozenset({"has", "no", "with", "without", "is", "show", "hide", "overflow", "disable", "disabled",
                           "enable", "enabled", "feature", "features", "one", "two", "three", "toggle", "js", "not",
                           "allow", "highlight"})
# A first word that makes a class name a place beside what follows it ("below_body", "after-content",
# "above-article"): the page's furniture around the content, not the content.
_PLACE_FIRST = frozenset({"below", "after", "before", "above", "under", "beneath", "pre", "outside"})
# Last words of a class name that make it a box the article has beside its text (its tags, its share
# buttons, its related stories), whatever article word comes before.
_ARTICLES_BOXES = frozenset({"tag", "tags", "share", "sharing", "social", "related", "newsletter", "subscribe",
                             "promo", "ad", "ads", "advert", "advertisement", "sponsor", "sponsored", "recommended",
                             "trending", "popular", "keywords", "next", "prev", "table", "bio"})
# Page builders whose every block is a "widget" (`elementor-widget-heading`, `elementor-widget-container`;
# HubSpot's `dnd-module` beside `widget-type-rich_text`, `hs_cos_wrapper_widget`; vBulletin's CMS, whose
# article sits in a `cms_widget`): the word names the builder's unit, the article's paragraphs included,
# not a sidebar's box.
_BUILDERS = frozenset({"elementor", "so", "siteorigin", "dnd", "hs", "cms"})
# a label with one of these is a builder's (HubSpot's grid: `span12 widget-span widget-type-cell`)
_BUILDER_PREFIXES = (*(f"{builder}-" for builder in _BUILDERS), "widget-span", "widget-type-")
# CSS utilities that align a flex or grid box's content (Bootstrap's `justify-content-between`, Tailwind's
# `content-center`): they say how an element lays out its children, not that it holds the page's content.
_LAYOUT_FIRST = frozenset({"justify", "align", "place"})
_ALIGNMENTS = frozenset({"center", "start", "end", "between", "around", "evenly", "baseline", "normal", "stretch"})
# ... and utilities that set a text's alignment, colour or size (`text-center`, `text-muted`, `text-gray-700`).
_TEXT_LOOKS = frozenset({
    "center", "left", "right", "justify", "start", "end", "nowrap", "wrap", "truncate", "uppercase", "lowercase",
    "capitalize", "decoration", "reset", "break", "bold", "italic", "balance", "pretty", "ellipsis", "clip",
    "white", "black", "muted", "dark", "light", "primary", "secondary", "success", "danger", "warning", "info",
    "gray", "grey", "slate", "zinc", "neutral", "stone", "red", "orange", "amber", "yellow", "lime", "green",
    "emerald", "teal", "cyan", "sky", "blue", "indigo", "violet", "purple", "fuchsia", "pink", "rose",
    "inherit", "current", "transparent", "opacity", "xs", "sm", "md", "base", "lg", "xl", "xxl", "small", "large",
})
_SWITCH_LAST = frozenset({"open", "closed", "enabled", "disabled", "on", "off", "active", "visible", "count",
                          "styles"})  # (`j-m-comment-styles`: the styles a page loads for a module)
# A layout named after the sidebar it has ("sidebar-grid", "sidebar-layout", "sidebar-columns") holds the
# content column too; in BEM its parts are named by what they are ("sidebar-grid__content").
_SIDEBAR_LAYOUT = re.compile(r"^(?:sidebar|aside)[-_](?:grid|layout|layouts|columns|cols)(?=$|__|--)")
_WORDS = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


class Kind:
    """The verdict on one class-and-id label."""

    __slots__ = ("citations", "comments", "hidden", "negative", "positive")

    def __init__(self, negative: bool, comments: bool, positive: bool, hidden: bool, citations: bool = False) -> None:
        self.negative, self.comments, self.positive, self.hidden = negative, comments, positive, hidden
        self.citations = citations


_NEGATIVE, _COMMENTS, _POSITIVE, _CITATIONS = 1, 2, 4, 8


@lru_cache(maxsize=16384)
def _token_flags(token: str) -> int:
    """What one class or id token says, as flags. A state or layout switch ("noComments",
    "isCommentable"), a content taxonomy ("tone-comment") or an id made from a heading
    ("sharing-with-a-single-developer") says nothing; switches and comment sections are read with the
    words split at capitals too ("commentsList"), furniture and article words in the token's own
    spelling only (in "tabContent" or "headerImage" the first word names a part, not the article or
    the page's furniture). A Tailwind utility under a variant (`after:table`, `desktop:px-6`) says how the
    element looks in a state or on a screen, not what it is ("after" is no place after the content)."""
    if ":" in token:
        return 0
    lowered = token.lower()
    if _SIDEBAR_LAYOUT.match(lowered):
        part = token.partition("__")[2]
        return _token_flags(part) if part else 0
    spelled = _WORDS.findall(lowered)
    words = spelled if token == lowered else _WORDS.findall(_CAMEL.sub(" ", token).lower())
    if (not words or words[0] in _SWITCH_FIRST or words[-1] in _SWITCH_LAST or len(spelled) >= 5
            or not _TAXONOMY.isdisjoint(words)):
        return 0
    if (words[0] in _LAYOUT_FIRST or (words[0] == "content" and words[-1] in _ALIGNMENTS)
            or (words[0] == "text" and len(words) > 1 and (words[1] in _TEXT_LOOKS or words[1][0].isdigit()))):
        return 0  # `justify-content-between`, Tailwind's `content-center`, `text-white`, `text-lg`: how it looks
    if words[0] in _PLACE_FIRST and len(words) > 1:
        return _NEGATIVE
    if words[:2] == ["comment", "on"]:
        return 0  # "commentOnSelection", "comment-on-article": a feature or a prompt, not comments
    if words[0] in _BUILDERS:  # "elementor-widget-text-editor": a part of the page builder's layout
        spelled = [word for word in spelled if word != "widget"]
    text = " ".join(spelled)
    flags = ((_NEGATIVE if NEGATIVE.search(text) else 0)
             | (_COMMENTS if COMMENTS.search(" ".join(words) if words is not spelled else text) else 0)
             | (_POSITIVE if POSITIVE.search(text) else 0) | (_CITATIONS if CITATIONS.search(text) else 0))
    if flags & _POSITIVE and len(spelled) > 1 and spelled[-1] in _ARTICLES_BOXES:
        flags &= ~_POSITIVE  # "article_details_tag", "post-share", "entry-related", "blog-post__author-bio": the
        # article's box, not its text
    return flags


@lru_cache(maxsize=65536)
def label_kind(label: str) -> Kind:
    """What a `class id` label says (cached, as its tokens are: pages and sites repeat them)."""
    flags = 0
    hidden = hides(label)
    tokens = label.split()
    builder = any(token.lower().startswith(_BUILDER_PREFIXES) for token in tokens)
    for token in tokens:
        if builder and token.lower().startswith("widget"):
            continue  # SiteOrigin's "so-panel widget widget_sow-editor": the builder's unit, not a sidebar's
        flags |= _token_flags(token)
    return Kind(negative=hidden or bool(flags & _NEGATIVE), comments=bool(flags & _COMMENTS),
                positive=bool(flags & _POSITIVE), hidden=hidden, citations=bool(flags & _CITATIONS))


def hides(names: str) -> bool:
    """Whether class names hide their element at every screen width (`hidden`, `d-none`; not `hidden
    md:block`, shown from a width on)."""
    return not _HIDING.isdisjoint(names.lower().split()) and not _SHOWN_WIDE.search(names)


NEUTRAL = Kind(False, False, False, False)
_NEUTRAL = NEUTRAL

# The lead of an article (standfirst, intro, summary; `vrezka`, Russian for an inset lead; Bitrix's
# `news-preview-text`) in a block of its own before the body.
LEAD = re.compile(r"(?:^|[\s_-])(?:lead|leadin|leadtext|lede|standfirst|intro|introduction|summary|dek|deck|kicker|"
                  r"abstract|chapeau|chapo|sapo|vorspann|einleitung|entradilla|sumario|zajawka|lid|spot|ozet|announce|anons|ingress|vrezka|"
                  r"preview[-_]?text|sub[-_]?title|subheadline)(?:$|[\s_-])",
                  re.IGNORECASE)


# An ASP.NET WebForms id is the path of naming containers down to the element
# (`ctl00_MainContent_ArticleDetails15_DivTags`): only its last part names the element itself.
_NAMING_CONTAINERS = re.compile(r"ctl\d+_")


def kind_of(element: HtmlElement) -> Kind:
    """What an element's class and id say it is. An id that its heading links to is the heading's slug
    (documentation's `<section id="select-related">` under "select_related()¶"), not a part's name."""
    names, ident = element.get("class"), element.get("id")
    if not names and not ident:
        return _NEUTRAL
    if ident and _NAMING_CONTAINERS.match(ident):
        ident = ident.rsplit("_", 1)[-1]
    label = f"{names or ''} {ident or ''}"
    kind = label_kind(label) if len(label) > 2 else _NEUTRAL
    if ident and (kind.negative or kind.comments) and _anchored(element, ident):
        return label_kind(names) if names and len(names) > 2 else _NEUTRAL
    return kind


HEADING_AMONG = 3  # first children of a section looked at for its heading


def _anchored(element: HtmlElement, ident: str) -> bool:
    """Whether the element is a heading, or a section opening with one, that links to the element's own id
    (a permalink beside a documentation title: `<a class="headerlink" href="#select-related">`; Django's
    sections prefix theirs: `s-select-related`)."""
    if element.tag in HEADINGS:
        heading: HtmlElement | None = element
    else:
        heading = next((child for child in islice(element, HEADING_AMONG) if child.tag in HEADINGS), None)
    if heading is None:
        return False
    for link in heading.iter("a"):
        href = link.get("href")
        if href and len(href) > 1 and href[0] == "#" and ident.endswith(href[1:]):
            return True
    return False


def class_weight(element: HtmlElement) -> float:
    """Points for what an element's class and id say it is."""
    kind = kind_of(element)
    weight = (-25.0 if kind.negative else 0.0) - (25.0 if kind.comments else 0.0) + (25.0 if kind.positive else 0.0)
    if element.get("itemprop") == "articleBody":
        weight += 50.0
    return weight
