"""Around the article: a thread's posts, the replies below an article (its comments, unless the page is a
thread), and the lead in a block of its own before the body."""

from __future__ import annotations

import re
from itertools import islice

from websearch_mcp.extract.labels import LEAD, kind_of
from websearch_mcp.extract.notices import prose_length
from websearch_mcp.extract.text import link_density, visible_length

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

    from websearch_mcp.extract.main_content import Scores

NO_TEXT = frozenset({"html", "body"})
PROSE = 80  # visible characters: a block this long with few links holds prose


REPLY_PARTS = 3


def is_reply_run(block: HtmlElement, scores: Scores) -> bool:
    """A block holding three or more blocks alike (same tag and class), each with text and made as a
    reply is (a name, a date, a reply link beside its text): replies. One component per paragraph is not."""
    if scores.subtree.get(block, 0.0) <= 0 or len(block) < THREAD_POSTS:
        return False
    counts: dict[tuple[str, str], int] = {}
    headed = 0
    for child in block:
        if scores.subtree.get(child, 0.0) > 0 and _reply_like(child):
            key = signature(child)
            counts[key] = counts.get(key, 0) + 1
            headed += _has_headline(child)
    if not counts or max(counts.values()) < THREAD_POSTS:
        return False
    return headed * 2 < sum(counts.values())  # entries under headlines of their own: a live blog's posts


HEADLINE = 30  # visible characters of an entry's heading that make it a headline, not a name ("Anna wrote:")


def _has_headline(entry: HtmlElement) -> bool:
    """Whether an entry has a heading of its own that reads as a headline and links nowhere (a live blog's
    update has one, a reply has its author's name at most, a list of other pages links its titles)."""
    heading = next(entry.iter("h2", "h3", "h4"), None)
    return (heading is not None and heading.find(".//a") is None
            and len(" ".join(heading.text_content().split())) >= HEADLINE)


def _reply_like(block: HtmlElement) -> bool:
    """A block made as a reply is: a named block of several parts (text, name, date, reply link), or one
    whose name and date sit before its paragraph."""
    return (len(block) >= REPLY_PARTS and bool(block.get("class"))) or (len(block) >= 2 and _signed_apart(block))


ARTICLE_BEFORE = 3.0  # points (a paragraph or two) that make a block before a run of replies the article
_ARTICLE_TAGS = frozenset({"article", "main"})


def article_before(posts: list[HtmlElement], ranked: list[HtmlElement], scores: Scores) -> HtmlElement | None:
    """On a page that is not a thread, the article block that comes before a run of replies alike (a blog
    post, a question with its answers): its comments lose to it, however long they are."""
    holder = posts[0].getparent()
    if sum(1 for post in posts if signed_post(post)) * 2 < len(posts):
        return None  # blocks alike without names and dates: a list, not replies
    if _named_article(holder):
        return None  # the article's own body, its paragraphs in groups alike (a year in each is no date)
    inside = set(holder.iterancestors()) | {holder}
    for candidate in ranked:
        if candidate in inside or any(a is holder for a in candidate.iterancestors()):
            continue
        if scores.subtree.get(candidate, 0.0) < ARTICLE_BEFORE or scores.final(candidate) <= 0:
            continue
        if any(scores.context_factor(a) < 1.0 for a in candidate.iterancestors() if a.tag not in NO_TEXT):
            continue  # inside furniture (a cookie banner's text before a live blog's entries)
        if (_comes_before(candidate, holder) and _looks_like_article(candidate)
                and visible_length(candidate.text_content()) >= PROSE):
            return candidate
    return None


def _named_article(element: HtmlElement) -> bool:
    """Whether an element's class or id names it the article (`ArticleBody-articleBody`, `post-content`)
    and nothing else (not comments, not furniture)."""
    kind = kind_of(element)
    return (kind.positive and not kind.negative and not kind.comments) or element.get("itemprop") == "articleBody"


# What a reply carries beside its text: a time, a year, "3 days ago", a "reply" link, "X says:".
_SIGNED = re.compile(r"\b(?:1[89]|20)\d\d\b|\b\d{1,2}:\d\d\b|\bago\b|\brepl(?:y|ies)\b|\bsays:|\bwrote:|"
                     r"\bantworten\b|\br[ée]pondre\b|\bresponder\b|\bschrieb\b|\ba écrit\b|\bescribió\b|\bnapisał\b|"
                     r"\bнаписал|\bέγραψε", re.IGNORECASE)


def signed_post(post: HtmlElement) -> bool:
    """Whether a block carries what a reply does: a <time>, or a date or reply link in its text (in a
    long block, its opening or close: a year in the middle of a long review is no signature)."""
    if next(post.iter("time"), None) is not None:
        return True
    text = " ".join(post.itertext())
    if len(text) > LONG_POST:
        text = f"{text[:SIGNATURE_REACH]} {text[-SIGNATURE_REACH:]}"
    return bool(_SIGNED.search(text))


LONG_POST = 3000  # characters: a block this long is signed, if at all, at one of its ends
SIGNATURE_REACH = 300  # characters at each end of a long block where its signature is looked for


def _signed_apart(post: HtmlElement) -> bool:
    """Whether a block opens with a short signature before its text's paragraph (a name and a date, "X
    wrote:"), as a reply does."""
    head = [post.text or ""]
    children = [child for child in post if isinstance(child.tag, str)]
    for index, child in enumerate(children):
        if child.tag in ("p", "div", "blockquote"):
            if index == 0 and child.tag in ("div", "p") and len(children) >= 2 and not (child.tail or "").strip():
                head.append(child.text_content())  # the signature in a block of its own, the text in the next
            break
        head.append(child.text_content())
        head.append(child.tail or "")
    else:
        return False  # no paragraph of its own after the signature
    signature_text = " ".join(" ".join(head).split())
    return 0 < len(signature_text) <= SIGNATURE_TEXT and bool(_SIGNED.search(signature_text))


SIGNATURE_TEXT = 80  # characters: a reply's name, date and "wrote:"


def _comes_before(element: HtmlElement, other: HtmlElement) -> bool:
    """Whether element ends before other starts, in document order."""
    mine = [element, *element.iterancestors()]
    theirs = {id(e): e for e in [other, *other.iterancestors()]}
    for index, ancestor in enumerate(mine):
        if id(ancestor) in theirs and index:
            branch = mine[index - 1]
            common = ancestor
            for child in common:
                if child is branch:
                    return True
                if id(child) in theirs:
                    return False
            return False
    return False


def _looks_like_article(element: HtmlElement) -> bool:
    """The block itself, or one of the few around it, is marked as the article (tag, class or itemprop),
    or the block holds the page's title (its <h1>)."""
    if next(element.iter("h1"), None) is not None:
        return True
    for level, node in enumerate([element, *element.iterancestors()]):
        if level > 3 or node.tag in NO_TEXT:
            return False
        if node.tag in _ARTICLE_TAGS or node.get("itemprop") == "articleBody" or kind_of(node).positive:
            return True
    return False


LEAD_LEVELS = 3  # how far up from the article's body a lead before it is looked for


def lead_before(first: HtmlElement, scores: Scores) -> HtmlElement | None:
    """The lead (standfirst, intro) in a block of its own before the article's body, when its class says
    so and it holds prose with few links."""
    element = first
    for _ in range(LEAD_LEVELS):
        sibling = element.getprevious()
        while sibling is not None:
            found = lead_in(sibling)
            if found is not None:
                return found if scores.context_factor(found) > 0 and not kind_of(found).comments else None
            if visible_length(sibling.text_content()) > LEAD_NEIGHBOUR:
                return None  # a block of text that is not a lead: what came before is not this article's
            sibling = sibling.getprevious()
        element = element.getparent()
        if element is None or element.tag in NO_TEXT:
            return None
    return None


LEAD_NEIGHBOUR = 400  # characters of another block between the lead and the body that end the search


def lead_in(block: HtmlElement) -> HtmlElement | None:
    """The element of a block (or the block) whose class names it the lead and which holds prose."""
    if not isinstance(block.tag, str):
        return None
    for element in block.iter():
        label = f"{element.get('class') or ''} {element.get('id') or ''}"
        if len(label) > 2 and LEAD.search(label):
            text = element.text_content()
            if prose_length(text) >= PROSE and link_density(element, text) < 0.3:
                return element
    return None


THREAD_REPLY = 1.0  # points (about one sentence) that make a block beside a thread's post a reply
THREAD_POSTS = 3  # blocks alike that make a thread (a forum's posts, a Q&A page's question and answers)
THREAD_LEVELS = 6
# On a page whose address names a thread: how far up its posts may be (XenForo's are 7 levels above their
# text), and the share of them that must hold a paragraph of text.
THREAD_PAGE_LEVELS = 8
THREAD_WORDED = 0.8


def thread_of(best: HtmlElement, scores: Scores) -> list[HtmlElement]:
    """When the best container sits in one of three or more blocks alike (same tag and class), each with
    text of its own, the page is a thread: every post is the content, not the longest reply alone. On a
    page whose address names a thread, the posts may sit further up and a few may be too short to score."""
    element: HtmlElement | None = best
    for _ in range(THREAD_PAGE_LEVELS if scores.thread else THREAD_LEVELS):
        if element is None or element.tag in NO_TEXT:
            return []
        parent = element.getparent()
        if parent is None or parent.tag in NO_TEXT:
            return []
        if element.get("class"):
            mark = signature(element)
            posts = [sibling for sibling in parent if signature(sibling) == mark]
            # on a thread's page a short reply ("Thanks!", which earns nothing) does not end the thread
            if _worded_posts(posts, scores, THREAD_POSTS, THREAD_WORDED if scores.thread else 1.0):
                return posts
        element = parent
    return []


REPLIES_AFTER = 2  # replies alike after an opening post that make a thread of it (a question and two answers)
REPLY_LINKED = 0.5  # share of a reply's text in links above which it is a teaser of another page, not a reply


def replies_after(best: HtmlElement, scores: Scores) -> list[HtmlElement]:
    """On a thread's page whose best block is its opening post (a question) standing apart from the
    replies (its answers, in a block of their own after it): the opening post's block and that block.
    Empty when no block after the post holds replies alike."""
    element = best
    for _ in range(THREAD_PAGE_LEVELS):
        parent = element.getparent()
        if parent is None or parent.tag in NO_TEXT:
            return []
        for sibling in element.itersiblings():
            if _holds_replies(sibling, scores):
                return [element, sibling]
        element = parent
    return []


def _holds_replies(block: HtmlElement, scores: Scores) -> bool:
    """Whether a block holds REPLIES_AFTER or more blocks alike (tag and class), most of them with text of
    their own, few links, and none in a context that counts less (a sidebar's teasers)."""
    if scores.subtree.get(block, 0.0) <= 0 or scores.context_factor(block) < 1.0:
        return False
    groups: dict[tuple[str, str], list[HtmlElement]] = {}
    for child in block:
        if child.get("class"):
            groups.setdefault(signature(child), []).append(child)
    for posts in groups.values():
        worded = _worded_posts(posts, scores, REPLIES_AFTER, THREAD_WORDED)
        if worded and all(link_density(post) <= REPLY_LINKED for post in worded):
            return True
    return False


def _worded_posts(posts: list[HtmlElement], scores: Scores, least: int, share: float) -> list[HtmlElement]:
    """The blocks alike that hold text of their own, when they are `least` or more and `share` of all,
    and none of the blocks sits in a context that counts less (a sidebar, comments); else none."""
    worded = [post for post in posts if scores.subtree.get(post, 0.0) > 0]
    if (len(worded) >= least and len(worded) >= share * len(posts)
            and all(scores.context_factor(post) == 1.0 for post in posts)):
        return worded
    return []


def are_posts(elements: list[HtmlElement]) -> bool:
    """Whether elements are a thread's posts: three or more blocks alike with one parent."""
    if len(elements) < THREAD_POSTS or not elements[0].get("class"):
        return False
    parent, mark = elements[0].getparent(), signature(elements[0])
    return all(e.getparent() is parent and signature(e) == mark for e in elements)


def signature(element: HtmlElement) -> tuple[str, str]:
    """Tag and class: what makes blocks alike."""
    return element.tag, element.get("class", "")


_COMMENT_WORDS = (
    r"comments?|kommentare?|commenti|commentaires?|comentarios?|comentários|komentarze?|"
    r"komentáře|komentar|kommentit|kommentarer|hozzászólások|comentarii|opinie|"
    r"reacties|reacciones|reactions?|responses|reviews|opiniones|avis|bewertungen|"
    r"yorumlar|комментари[йи]|коментар[іі]|відгуки|отзывы|σχόλια|ý kiến bạn đọc|bình luận|sổ lưu bút|"
    r"guestbook|gästebuch|livre d['’]or|libro de visitas|(?:dal )?libro degli ospiti|księga gości|"
    r"гостевая книга|condolences|kondolenzen|μηνύματα συλλυπητηρίων|"
    r"(?:评论|評論|留言|コメント|댓글)(?:목록|列表|一覧|一覽)?|"
    r"تعليقات|التعليقات|תגובות|نظرات|دیدگاه‌ها|دیدگاه ها|टिप्पणियाँ|टिप्पणियां|ความคิดเห็น")
# Whose they are, before the word: "Reader reactions (12)", "Readers' comments", "Leserkommentare".
_READERS = r"(?:readers?['’]?|users?['’]?|visitors?['’]?|leser|lecteurs|lectores|lettori|leitores|czytelników)"
# A title that names the comments below it, with or without their count and a word after it:
# "Comments (3)", "Kommentare", "Відгуки покупців (4)", "评论(5)", "댓글목록" (the list of comments)
# (not "Your comments": a page of readers' contributions is its content).
COMMENTS_TITLE = re.compile(
    rf"^\W*(?:\d+\s*)?(?:{_READERS}\s*)?(?:{_COMMENT_WORDS})(?:\s+[^\W\d]+)?\s*[(\[]?\s*\d*\s*[)\]]?\W*$",
    re.IGNORECASE)
# "Other news", "More announcements", "Weitere Stellenangebote", "Diğer duyurular": the site's other pages.
_OTHER_PAGES = (
    r"(?:other|more|latest) (?:news|stories|articles|posts|announcements|notices|jobs|vacancies|releases|events)|"
    r"weitere (?:nachrichten|meldungen|artikel|beiträge|stellenangebote|stellen|pressemitteilungen|termine)|"
    r"lesen sie (?:auch|mehr)|"
    r"autres (?:actualités|articles|offres|communiqués|annonces)|(?:à )?lire aussi|sur le même sujet|"
    r"(?:otras|más) (?:noticias|ofertas|convocatorias)|otros (?:artículos|avisos)|te puede interesar|"
    r"altre (?:notizie|offerte|news)|altri (?:articoli|avvisi)|leggi anche|"
    r"(?:outras|mais) (?:notícias|vagas)|leia também|veja também|lea también|lee también|"
    r"(?:meer|ander) nieuws|andere vacatures|lees ook|"
    r"další (?:aktuality|zprávy|články|nabídky|oznámení)|čtěte také|"
    r"diğer (?:duyurular|haberler|yazılar|ilanlar)|ilgili haberler|"
    r"(?:ezeket|ezt) is olvasd el|olvasd el (?:ezeket|ezt) is|kapcsolódó (?:cikkek|bejegyzések|hírek)|"
    r"további (?:hírek|cikkek|bejegyzések)|"
    r"inne (?:artykuły|wiadomości|ogłoszenia)|czytaj (?:też|także)|zobacz (?:też|także)|"
    r"другие (?:новости|статьи)|читайте также|ещё по теме|еще по теме|читайте також|інші новини|"
    r"διαβάστε (?:επίσης|ακόμη|ακόμα)|διαβαστε (?:επισης|ακομη|ακομα)|περισσότερα (?:άρθρα|νέα)|άλλα άρθρα|"
    r"延伸阅读|延伸閱讀|推荐阅读|推薦閱讀|更多(?:新闻|新聞|图片新闻|简讯|文章)|"
    r"다른 (?:공지|글|소식)|관련 ?기사|その他のお知らせ|他のお知らせ|"
    # "You may also like", in English, German, Dutch, French, Spanish, Italian, Portuguese, Polish, Russian,
    # Ukrainian, Czech, Hungarian, Turkish and Greek
    r"you (?:may|might) also (?:like|enjoy)|(?:das )?könnte (?:sie|dich) auch interessieren|"
    r"(?:misschien |dit vind je misschien )?ook (?:leuk|interessant)(?: om te lezen)?|"
    r"vous (?:aimerez|pourriez aimer)(?: peut-être)? aussi|también te (?:puede|podría) interesar|"
    r"(?:ti )?potrebbe(?:ro)? (?:interessarti|anche interessarti|piacerti)|você (?:também )?(?:pode|poderá) gostar|"
    r"może ci[eę] (?:też |także )?zainteresować|вам (?:также )?может (?:быть интересно|понравиться)|"
    r"вас (?:також )?може зацікавити|mohlo by vás (?:také )?zajímat|ez is érdekelhet|"
    r"(?:bunlar da )?ilginizi çekebilir|μπορεί (?:επίσης )?να σας ενδιαφέρει|"
    # "Most read", "En çok okunan 10 tarif"
    r"(?:(?:the )?most (?:read|popular|viewed)|meistgelesen\w*|les plus (?:lus|populaires)|"
    r"(?:lo )?más (?:leíd|vist)[oa]s|"
    r"(?:i )?più lett[ie]|mais lid[ao]s|meest gelezen|nejčtenější|najczęściej czytane|самое читаемое|"
    r"найпопулярніш\w*|найчитаніш\w*|самые (?:популярные|читаемые)|популярное|"
    r"en çok okunan|τα πιο δημοφιλή|δημοφιλέστερα|가장 많이 본|인기 ?기사|人気記事|阅读排行|热门文章)(?:\s+\w+){0,2}")
# "Other positions", "Altre posizioni aperte", "최근 공지사항", "Últimas": a title of the site's other or
# latest pages of some kind, when every row below it opens with a link.
_OTHER_WORDS = (r"other|more|latest|recent|weitere|andere|neueste|aktuelle|autres|derni[eè]res|otras|otros|más|"
                r"últim[oa]s|altre|altri|ultime|ultimi|outras|outros|mais|recentes|meer|nieuwste|další|ostatní|"
                r"nejnovější|diğer|son|inne|najnowsze|другие|последние|περισσότερα|άλλα|更多|다른|최근|최신")
OTHER_TITLE = re.compile(rf"^\W*(?:{_OTHER_WORDS})(?:\s+[^\W\d]+){{0,3}}\W*$", re.IGNORECASE)
# A title that names a list of other pages below it: "Related", "Similar properties", "Imóveis semelhantes".
RELATED_TITLE = re.compile(
    r"^\W*(?:(?:[^\W\d]+\s+)?(?:related|similar|semelhantes|similares|ähnliche|simili|podobne|похожие|схожі|"
    r"gerelateerd|benzer|relacionad[oa]s|correlat[ie]|související|powiązane|σχετικ[άέοή]ς?|(?:相关|相關|関連)\w{0,4})"
    r"(?:\s+[^\W\d]+)?|"
    rf"(?:{_OTHER_PAGES})(?:\s+(?:en|in|on|at|auf|bei|sur|su|na|em|op|w|в|на|σε)(?:\s+[^\W\d]+){{1,4}})?)\W*$",
    re.IGNORECASE)  # ("Lea también en Motor al Día": the site's name after "on")
# A line that points to another story ("Читайте также: в сентябре кафедра запустила…", "Lesen Sie auch: …"),
# with or without a link: the other story's teaser, not this one's text. ("Other news: I read…" in a
# personal blog is the writer's own news: lines that open with "other", "more" or "latest" are not read so.)
READ_ALSO_LINE = re.compile(rf"^\W*(?!(?:{_OTHER_WORDS}|ander)\b)(?:{_OTHER_PAGES})\s*[:：]", re.IGNORECASE)
# "Read more" as a heading over a box of other stories (as a paragraph or a box's line, it is a teaser's link)
_READ_MORE = re.compile(r"^\W*(?:read more|more on this(?: story| topic)?)\W*$", re.IGNORECASE)
TITLE_TEXT = 30  # characters: a title is this short
# The class word given to a list of other pages known by its title (and to the title): it goes however
# much of the content it holds (a brief of two sentences above the site's other announcements).
RELATED_MARK = "titled-related"
_HEADING_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6", "dt"})
_TITLE_TAGS = frozenset({*_HEADING_TAGS, "div", "p", "span"})
_SECTION_TAGS = frozenset({"div", "section", "table", "ul", "ol", "dl", "aside"})


def mark_titled_sections(root: HtmlElement) -> None:
    """Comment sections known only by their title (no class or id says so): the block a title such as
    "Kommentare" opens, or the block right after it, when its rows are replies (alike, with names and
    dates, or a short name before a longer text each). They are marked with the class word "comments",
    so that every rule that knows comment sections knows these; lists of other pages under a title such
    as "Similar properties" (three or more cards alike) are marked "related". A title that is a link
    ("Comments" jumping to them) opens nothing."""
    for title in root.iter(*_TITLE_TAGS):
        bold = False
        if title.tag in _HEADING_TAGS:
            if len(title) > 3:
                continue
            text = title.text_content()
        else:  # a title in a <div> or <p>: its own text, before any child (a link to add one's own after it),
            # or the text of its one bold child (`<p><strong>Czytaj także:</strong></p>`)
            text = title.text or ""
            if not text.strip() and len(title) == 1 and title[0].tag in ("strong", "b") and not len(title[0]) \
                    and not (title[0].tail or "").strip():
                text, bold = title[0].text or "", True
        if not text or len(text) > TITLE_TEXT * 2 or text.isspace():  # (most blocks: the white space before a child)
            continue
        title_text = " ".join(text.split())
        if COMMENTS_TITLE.match(title_text):
            mark, is_kind = "comments", _rows_are_replies
        elif RELATED_TITLE.match(title_text) or (title.tag in _HEADING_TAGS and _READ_MORE.match(title_text)):
            mark, is_kind = RELATED_MARK, _rows_are_cards
        elif OTHER_TITLE.match(title_text) and not bold:  # ("**Other deals:**" over a post's own list)
            mark, is_kind = RELATED_MARK, _rows_are_links
        else:
            continue
        if (title.tag in _HEADING_TAGS and title.find(".//a") is not None) or any(
                a.tag == "a" for a in title.iterancestors()):
            continue
        parent = title.getparent()
        if parent is not None and parent.tag in _SECTION_TAGS and _first_child(parent) is title:
            section = parent
        else:
            section = title.getnext()
        if section is not None and section.tag in _SECTION_TAGS and is_kind(section, title):
            section.set("class", f"{section.get('class') or ''} {mark}".strip())
            if mark == RELATED_MARK and section is not parent:
                title.set("class", f"{title.get('class') or ''} {mark}".strip())
        elif mark == "comments" and section is not None and section is not parent:
            for reply in _replies_after(title):  # each reply a block of its own after the title, no wrapper
                reply.set("class", f"{reply.get('class') or ''} comments".strip())
    _mark_titled_tables(root)


def _replies_after(title: HtmlElement) -> list[HtmlElement]:
    """The blocks alike right after a comments' title, when they are REPLY_ROWS or more replies (signed
    with names and dates, or each a short name before a longer text): the comments, with no wrapper."""
    run: list[HtmlElement] = []
    sibling = title.getnext()
    while sibling is not None and sibling.tag in _SECTION_TAGS and (not run or signature(sibling) == signature(run[0])):
        run.append(sibling)
        sibling = sibling.getnext()
    if len(run) < REPLY_ROWS:
        return []
    signed = sum(1 for row in run if _SIGNED.search(" ".join(row.itertext())))
    named = sum(1 for row in run if _name_then_text(row))
    return run if max(signed, named) >= len(run) * ROWS_SHARE else []


def _mark_titled_tables(root: HtmlElement) -> None:
    """An old site's comments in a table: its first row one cell that names them ("Σχόλια αναγνωστών
    (5)"), the other rows replies (a name and a date, then the text). The table is marked "comments". A
    table whose first row names other stories ("ΔΙΑΒΑΣΤΕ ΕΠΙΣΗΣ") and whose other rows each open with a
    link to one is marked as a list of other pages."""
    for table in root.iter("table"):
        first = _first_child(table)
        body = first if first is not None and first.tag == "tbody" else table
        first = _first_child(body) if body is not table else first
        if first is None or first.tag != "tr" or len(first) != 1:
            continue  # most tables: a first row of more than one cell (no look at the others)
        rows = [row for row in body if isinstance(row.tag, str)]
        if len(rows) <= RELATED_LINKS:
            continue
        title = " ".join(rows[0].text_content().split())
        if len(title) > TITLE_TEXT * 2:
            continue
        if RELATED_TITLE.match(title) and all(len(row) == 1 and _opens_with_link(row[0]) for row in rows[1:]):
            table.set("class", f"{table.get('class') or ''} {RELATED_MARK}".strip())  # "Read also" and its stories
            continue
        if len(rows) <= REPLY_ROWS or not COMMENTS_TITLE.match(title):
            continue
        signs = _SIGNED.finditer(" ".join(table.itertext()))
        if (sum(1 for _ in islice(signs, SIGNED_REPLIES)) >= SIGNED_REPLIES
                or sum(1 for row in rows[1:] if _name_then_text(row)) >= REPLY_ROWS):
            table.set("class", f"{table.get('class') or ''} comments".strip())


def _first_child(element: HtmlElement) -> HtmlElement | None:
    return next((child for child in element if isinstance(child.tag, str)), None)


REPLY_ROWS = 3
ROWS_SHARE = 0.7  # of a section's text: its rows alike hold at least this much


def _rows_are_replies(section: HtmlElement, title: HtmlElement) -> bool:
    """Whether a section (the title aside) is rows alike that hold most of its text, and the rows are
    replies: names and dates more than once ("wrote", a date, a time), or each a short name before a
    longer text."""
    total = visible_length(section.text_content()) - visible_length(title.text_content())
    alike = _rows_alike(section, title)
    if len(alike) < REPLY_ROWS or sum(visible_length(r.text_content()) for r in alike) < ROWS_SHARE * total:
        return False
    signs = _SIGNED.finditer(" ".join(section.itertext()))
    if sum(1 for _ in islice(signs, SIGNED_REPLIES)) >= SIGNED_REPLIES:  # enough once two are found
        return True
    return sum(1 for row in alike if _name_then_text(row)) >= REPLY_ROWS


SIGNED_REPLIES = 2


RELATED_LINKS = 2  # rows opening with a link that make a list of other pages under a "Related" title


def _rows_are_cards(section: HtmlElement, title: HtmlElement) -> bool:
    """Whether a section (the title aside) is three or more cards alike, or two or more rows alike each
    opening with a link (a list of other pages)."""
    rows = _rows_alike(section, title, by_first_class=True)
    if len(rows) >= REPLY_ROWS or (len(rows) >= RELATED_LINKS and all(_opens_with_link(row) for row in rows)):
        return True
    # a box of its own under such a title, holding paragraphs and nothing else (a paper's "延伸阅读" beside
    # the story, a "Read also" with the other story's opening): another story's text, not more of this one
    blocks = sum(1 for child in section if isinstance(child.tag, str))
    return (title.getparent() is section and bool(rows)
            and all(row.tag == "p" for row in rows) and len(rows) == blocks - 1)


def _rows_are_links(section: HtmlElement, title: HtmlElement) -> bool:
    """Whether a section (the title aside) is three or more rows alike, each opening with a link to
    another page (a headline, a job's title), as a list of the site's other pages is."""
    rows = _rows_alike(section, title)
    return len(rows) >= REPLY_ROWS and all(_opens_with_link(row) for row in rows)


def _opens_with_link(row: HtmlElement) -> bool:
    if (row.text or "").strip():
        return False
    first = _first_child(row)
    while first is not None and first.tag != "a" and not (first.text or "").strip():
        first = _first_child(first)
    return first is not None and first.tag == "a" and bool(first.get("href"))


def _rows_alike(section: HtmlElement, title: HtmlElement, by_first_class: bool = False,
                depth: int = 0) -> list[HtmlElement]:
    """The most numerous rows alike of a section, the title aside (the rows of the one list or table it
    holds, when it holds one): alike by tag and class, or by tag and first class word (cards of a list
    of other pages: Drupal's `views-row views-row-1 views-row-odd`)."""
    rows = [row for row in section if isinstance(row.tag, str) and row is not title]
    # the form to add one's own below the list (its fields gone with the page's junk: an empty block) is no
    # row of it, unless every row holds one (a reply form each)
    rows = [row for row in rows if row.tag != "form" and row.find(".//form") is None
            and row.text_content().strip()] or rows
    if len(rows) == 1 or (rows and rows[0].tag in ("tbody", "ul", "ol", "dl", "table") and len(rows) <= 2):
        rows = [row for row in rows[0] if isinstance(row.tag, str)]
        while len(rows) == 1:  # a list in its wrappers (Webflow's `w-dyn-list` > `w-dyn-items`)
            rows = [row for row in rows[0] if isinstance(row.tag, str)]
    counts: dict[tuple[str, str], list[HtmlElement]] = {}
    for row in rows:
        words = (row.get("class") or "").split(None, 1) if by_first_class else [row.get("class", "")]
        counts.setdefault((row.tag, words[0] if words else ""), []).append(row)
    alike = max(counts.values(), key=len, default=[])
    if by_first_class and len(alike) == 1 and depth < CARD_WRAPPERS:
        return _rows_alike(alike[0], title, by_first_class, depth + 1)  # a list beside its "more" link
    return alike


CARD_WRAPPERS = 3  # levels looked through for a list of cards in wrappers that also hold a "more" link


def _name_then_text(row: HtmlElement) -> bool:
    parts = [part for part in row if isinstance(part.tag, str)]
    return len(parts) >= 2 and visible_length(parts[0].text_content()) <= TITLE_TEXT < visible_length(
        parts[-1].text_content())
