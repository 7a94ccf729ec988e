"""The extraction development set: public benchmarks with ground truth, built from their snapshots.

Each set is read from a pinned commit of a public repository (a bare git snapshot or a clone) or, for
the scrapinghub set, from a folder. Every source file is checked against bench/devset-manifest.sha256,
and each set is normalised to pages of (id, html, ground-truth text, url, page type) in a cache
folder outside the repository (WEBSEARCH_BENCH_CACHE, default ~/.cache/websearch-mcp-bench/devset).
None of the data is committed or shipped: bench/DATASETS.md lists the sources, licences and scoring.

    python bench/devset.py                    # build (or check) every set whose snapshot is present
    python bench/devset.py --write-manifest   # record the checksums (after reviewing a new source)
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html as html_lib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "bench" / "devset-manifest.sha256"
SNAPSHOTS = Path(os.environ.get("WEBSEARCH_BENCH_SNAPSHOTS", ROOT.parent / ".mirror"))
CACHE = Path(os.environ.get("WEBSEARCH_BENCH_CACHE", Path.home() / ".cache" / "websearch-mcp-bench" / "devset"))
SCRAPINGHUB = Path(os.environ.get("EXTRACTION_BENCHMARK", ROOT.parent / "shared" / "data" / "extraction-benchmark"))
FORMAT = 3  # bump when the normalisation changes, so caches are rebuilt


@dataclass
class Page:
    """One page of a set: its HTML and the text a perfect extractor would return."""

    id: str
    html: str
    truth: str
    url: str = ""
    type: str = ""

    def half(self, name: str) -> str:
        """'dev' or 'check': a fixed split of every set into two halves, by a hash of the page id."""
        return "dev" if hashlib.sha256(f"{name}/{self.id}".encode()).digest()[0] % 2 == 0 else "check"


class MissingSource(Exception):
    """A set's snapshot or folder is not where it is expected."""


# -- reading sources --------------------------------------------------------------------------------


class GitSource:
    """Files of one commit of a git repository (bare snapshot or clone), read without a work tree."""

    def __init__(self, repo: str, commit: str, env: str) -> None:
        self.repo, self.commit, self.env = repo, commit, env
        default = SNAPSHOTS / repo.replace("/", "+") / "repo"
        path = Path(os.environ.get(env, default))
        self.git_dir = path / ".git" if (path / ".git").exists() else path

    def describe(self) -> str:
        return f"github.com/{self.repo} @ {self.commit[:12]}"

    def check(self) -> None:
        if not self.git_dir.exists():
            raise MissingSource(
                f"no snapshot of github.com/{self.repo} at {self.git_dir}.\n"
                f"    Get one with `git clone --bare https://github.com/{self.repo} {self.git_dir}`,\n"
                f"    or set {self.env} to a clone of it.")
        done = subprocess.run(["git", "--git-dir", str(self.git_dir), "cat-file", "-e", f"{self.commit}^{{commit}}"],
                              capture_output=True)
        if done.returncode:
            raise MissingSource(f"{self.git_dir} does not hold commit {self.commit} of github.com/{self.repo}; "
                                "fetch that commit into it.")

    def files(self, prefix: str) -> dict[str, str]:
        """Path -> blob id of every file under prefix."""
        listing = subprocess.run(["git", "--git-dir", str(self.git_dir), "ls-tree", "-r", "-z", self.commit, "--",
                                  prefix], capture_output=True, check=True).stdout
        found = {}
        for entry in listing.split(b"\0"):
            if entry:
                meta, path = entry.split(b"\t", 1)
                found[path.decode()] = meta.split()[2].decode()
        return found

    def read(self, paths: dict[str, str]) -> Iterator[tuple[str, bytes]]:
        """(path, bytes) for each of paths (path -> blob id), in one `git cat-file --batch`."""
        with subprocess.Popen(["git", "--git-dir", str(self.git_dir), "cat-file", "--batch"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE) as process:
            assert process.stdin is not None and process.stdout is not None
            for path, blob in paths.items():
                process.stdin.write(blob.encode() + b"\n")
                process.stdin.flush()
                size = int(process.stdout.readline().split()[2])
                data = process.stdout.read(size)
                process.stdout.read(1)
                yield path, data
            process.stdin.close()


class FolderSource:
    """Files of a plain folder (the scrapinghub copy in ../shared/data)."""

    def __init__(self, path: Path, origin: str, env: str) -> None:
        self.path, self.origin, self.env = path, origin, env

    def describe(self) -> str:
        commit = self.path / "UPSTREAM_COMMIT"
        return f"{self.origin} @ {commit.read_text().strip()[:12]}" if commit.exists() else str(self.path)

    def check(self) -> None:
        if not (self.path / "ground-truth.json").exists():
            raise MissingSource(f"no {self.origin} copy at {self.path}.\n"
                                f"    Copy the repository's html/ and ground-truth.json there, or set {self.env}.")

    def files(self, prefix: str) -> dict[str, str]:
        base = self.path / prefix
        if base.is_file():
            return {prefix: str(base)}
        return {str(p.relative_to(self.path)): str(p) for p in sorted(base.rglob("*")) if p.is_file()}

    def read(self, paths: dict[str, str]) -> Iterator[tuple[str, bytes]]:
        for path, full in paths.items():
            yield path, Path(full).read_bytes()


# -- text helpers -----------------------------------------------------------------------------------

_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)|encoding=["']([\w:.-]+)""", re.IGNORECASE)
_WHATWG = {"iso-8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252", "us-ascii": "cp1252",
           "ascii": "cp1252", "x-sjis": "shift_jis", "gb2312": "gb18030", "gbk": "gb18030"}


def decode(data: bytes) -> str:
    """Text of a file: UTF-8 when it is valid UTF-8, else the charset the page declares, else windows-1252."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    found = _CHARSET.search(data[:8192])
    if found:
        name = (found.group(1) or found.group(2)).decode("ascii", "replace").lower()
        try:
            return data.decode(_WHATWG.get(name, name), "replace")
        except LookupError:
            pass
    return data.decode("cp1252", "replace")


def html_text(markup: str) -> str:
    """The text of an HTML fragment, one line per block."""
    import lxml.html

    tree = lxml.html.fromstring(markup or "<div></div>")
    for element in tree.iter("p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "br", "pre", "blockquote"):
        element.tail = "\n" + (element.tail or "")
    return tree.text_content()


_CANONICAL = re.compile(r"""<(?:link[^>]+rel=["']canonical["'][^>]+href|meta[^>]+property=["']og:url["'][^>]+content)"""
                        r"""=["']([^"']+)""", re.IGNORECASE)


def page_url(markup: str) -> str:
    """The page's own URL when it names one (canonical link or og:url)."""
    found = _CANONICAL.search(markup[:200_000])
    return found.group(1) if found else ""


_TYPES = [
    ("forum", r"forum|thread|viewtopic|showtopic|/board|discussion|/t/\d"),
    ("shop", r"/product|/shop|store\.|/store/|/item|/buy|catalog|/dp/"),
    ("recipe", r"recipe"),
    ("docs/wiki", r"wiki|/docs?/|manual|documentation|reference|/faq"),
    ("blog", r"blog|wordpress|typepad|livejournal|medium\.com|tumblr|/~"),
    ("news", r"news|/article|/story|/stories|/politics|/sport|/world/|/business|/\d{4}/\d{1,2}/"),
]


def page_type(url: str) -> str:
    """A page type guessed from its URL (documented in bench/DATASETS.md), or 'other'."""
    for name, pattern in _TYPES:
        if re.search(pattern, url, re.IGNORECASE):
            return name
    return "other"


# -- the sets ---------------------------------------------------------------------------------------

Files = Iterator[tuple[str, bytes]]
Source = GitSource | FolderSource
Read = Callable[[dict[str, str]], Files]  # path -> blob id in, (path, bytes) out, checksums checked
Reader = Callable[[Source, Read], Iterator[Page]]


def _pairs(source: Source, read: Read, inputs: str, truths: str,
           truth_name: Callable[[str], str]) -> Iterator[tuple[str, str, bytes, bytes]]:
    """(id, input path, input bytes, truth bytes) for each input file that has a ground-truth file."""
    listed_inputs, listed_truths = source.files(inputs), source.files(truths)
    wanted: dict[str, str] = {}
    for path in sorted(listed_inputs):
        name = path.rsplit("/", 1)[-1]
        if name.startswith(".") or f"{truths}/{truth_name(name)}" not in listed_truths:
            continue
        wanted[path] = listed_inputs[path]
        wanted[f"{truths}/{truth_name(name)}"] = listed_truths[f"{truths}/{truth_name(name)}"]
    data = dict(read(wanted))
    for path in wanted:
        if path.startswith(inputs + "/"):
            name = path.rsplit("/", 1)[-1]
            yield name.rsplit(".", 1)[0], path, data[path], data[f"{truths}/{truth_name(name)}"]


def read_scrapinghub(source: Source, read: Read) -> Iterator[Page]:
    """181 news and blog articles; ground truth is the articleBody of ground-truth.json."""
    data = dict(read(source.files("html") | source.files("ground-truth.json")))
    truth = json.loads(data["ground-truth.json"])
    for key in sorted(truth):
        html = gzip.decompress(data[f"html/{key}.html.gz"]).decode("utf-8")
        yield Page(key, html, truth[key]["articleBody"], truth[key]["url"], "article")


def read_readability(source: Source, read: Read) -> Iterator[Page]:
    """Mozilla Readability's test pages; ground truth is the text of expected.html."""
    pages = source.files("test/test-pages")
    listed = {p: b for p, b in pages.items() if p.endswith(("/source.html", "/expected.html"))}
    data = dict(read(listed))
    for path in sorted(data):
        if path.endswith("/source.html"):
            name = path.split("/")[-2]
            html = decode(data[path])
            truth = html_text(decode(data[path.replace("source.html", "expected.html")]))
            yield Page(name, html, truth, "", page_type(name))


_SEGMENT_MARKS = re.compile(r"<[phl]>", re.IGNORECASE)
_URL_LINE = re.compile(r"^\s*URL:?\s*(\S*).*$", re.MULTILINE)
_TEXT_WRAPPER = re.compile(r"^\s*<text [^>]*>|</text>\s*$", re.IGNORECASE)


def _cleaneval_page(name: str, html: bytes, gold: bytes) -> Page:
    """A CleanEval-format page: the input wrapped in <text id=URL>, the gold with a URL line and <p>/<h>/<l>."""
    text = decode(gold)
    found = _URL_LINE.search(text[:2000])
    url = found.group(1) if found else ""
    truth = html_lib.unescape(_SEGMENT_MARKS.sub("\n", _URL_LINE.sub("", text, count=1)))
    markup = _TEXT_WRAPPER.sub("", decode(html))
    return Page(name, markup, truth, url, page_type(url))


def read_cleanportaleval(source: Source, read: Read) -> Iterator[Page]:
    """71 pages of 4 news and blog portals, CleanEval format."""
    for name, _, html, gold in _pairs(source, read, "input", "GoldStandard", lambda n: n.rsplit(".", 1)[0] + ".txt"):
        yield _cleaneval_page(name, html, gold)


def read_cleaneval(source: Source, read: Read) -> Iterator[Page]:
    """CleanEval 2007 (development and final sets): varied English pages, CleanEval format."""
    for part in ("cleaneval-dev", "cleaneval-final"):
        for name, _, html, gold in _pairs(source, read, f"{part}/input", f"{part}/GoldStandard",
                                          lambda n: n.rsplit(".", 1)[0] + ".txt"):
            yield _cleaneval_page(f"{part.split('-')[1]}-{name}", html, gold)


_COMMENTS = "!@#$%^&*()  COMMENTS"


def read_dragnet(source: Source, read: Read) -> Iterator[Page]:
    """Dragnet's 2012 pages (news, blogs and more); the article is the corrected text before its comments."""
    for name, _, html, gold in _pairs(source, read, "dragnet_data/input", "dragnet_data/GoldStandard",
                                      lambda n: n.rsplit(".", 1)[0] + ".txt"):
        markup = decode(html)
        truth = decode(gold).split(_COMMENTS)[0]
        url = page_url(markup)
        yield Page(name, markup, truth, url, page_type(url))


_L3S = "L3S-GN1-20100130203947-00001"


def read_l3s(source: Source, read: Read) -> Iterator[Page]:
    """L3S-GN1: 621 Google News articles; ground truth is the text labelled headline or full text."""
    import lxml.html

    data = dict(read(source.files(f"{_L3S}/url-mapping.txt")))
    urls = dict(line.split("\t", 1) for line in decode(data[f"{_L3S}/url-mapping.txt"]).splitlines() if "\t" in line)
    for name, _, html, annotated in _pairs(source, read, f"{_L3S}/original", f"{_L3S}/annotated", lambda n: n):
        tree = lxml.html.fromstring(decode(annotated))
        spans = tree.xpath("//span[@class='x-nc-sel1' or @class='x-nc-sel2']"
                           "[not(ancestor::span[@class='x-nc-sel1' or @class='x-nc-sel2'])]")
        truth = "\n".join(span.text_content() for span in spans)
        url = urls.get(f"<urn:uuid:{name}>", "").strip()
        yield Page(name, decode(html), truth, url, "news")


_MD_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*\)")
def read_harvest(source: Source, read: Read) -> Iterator[Page]:
    """Harvest (fhgr/harvest): 102 forum threads from 52 forums (en, de, fr, es); ground truth is the
    text of every post (Markdown links reduced to their text); thread titles and user names are not."""
    for path, data in read(source.files("corpus/goldDocuments")):
        doc = json.loads(data)
        posts = [a.get("post_text", {}).get("surface_form", "") for a in doc["gold_standard_annotation"]]
        truth = "\n\n".join(_MD_LINK.sub(r"\1", post).strip() for post in posts if post and post.strip())
        yield Page(path.rsplit("/", 1)[-1][:-5], doc["html"], truth, doc.get("url", ""), "forum")


def _decode_chinese(data: bytes) -> str:
    """decode(), but a page that is not UTF-8 and declares nothing is read as GB18030 (this set's pages
    that are not UTF-8 are GBK)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    return decode(data) if _CHARSET.search(data[:8192]) else data.decode("gb18030", "replace")


def read_cwced(source: Source, read: Read) -> Iterator[Page]:
    """Chinese Web Content Extraction Dataset: 69 Chinese pages with their cleaned text."""
    originals = dict(read(source.files("original")))
    truths = {path.rsplit("/", 1)[-1].rsplit(".", 1)[0]: data for path, data in read(source.files("cleaned"))}
    for path, data in sorted(originals.items()):
        key = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        if key in truths:
            html = _decode_chinese(data)
            yield Page(key, html, _decode_chinese(truths[key]), page_url(html), "zh")


def read_htmltotext(source: Source, read: Read) -> Iterator[Page]:
    """htmltotext-benchmark: news, blog, forum and wiki pages in English, Croatian, German and Chinese,
    with their text by hand (one page, a bot-check page stored in place of Baidu's, is left out)."""
    files = dict(read(source.files("benchmarkdata")))
    for path, data in sorted(files.items()):
        parts = path.split("/")
        if len(parts) != 4 or parts[2] != "html":
            continue
        lang, slug = parts[1], parts[3].rsplit(".", 1)[0]
        truth = files.get(f"benchmarkdata/{lang}/text/{slug}.txt")
        if truth is None or slug == "wiki-baike-liqiu":
            continue
        html = decode(data)
        yield Page(f"{lang}/{slug}", html, decode(truth), page_url(html), f"{slug.split('-', 1)[0]}/{lang}")


def read_small_news(source: Source, read: Read) -> Iterator[Page]:
    """evan_extract: 124 news pages of 2020-2021, mostly small health, aggregator and fact-check sites
    nobody tunes to, each with its article text extracted by hand."""
    listed = source.files("articles")
    stems = {path[:-5] for path in listed if path.endswith(".html")} & {path[:-4] for path in listed
                                                                        if path.endswith(".txt")}
    data = dict(read({path: listed[path] for stem in sorted(stems) for path in (stem + ".html", stem + ".txt")}))
    for stem in sorted(stems):
        html = decode(data[stem + ".html"])
        url = page_url(html)
        yield Page(stem.rsplit("/", 1)[-1], html, decode(data[stem + ".txt"]), url, page_type(url))


def read_modern_web(source: Source, read: Read) -> Iterator[Page]:
    """web-content-extraction-benchmark's release: 1,000 English pages fetched in 2025-2026 (articles,
    forum threads, service, product and documentation pages, listings), the main text of each drafted
    by a language model and checked by hand; page type as the set labels it."""
    pages, truths = source.files("release/html"), source.files("benchmark/ground-truth")
    keys = sorted(path.rsplit("/", 1)[-1][:-len(".html.gz")] for path in pages if path.endswith(".html.gz"))
    wanted: dict[str, str] = {}
    for key in keys:
        page, truth = f"release/html/{key}.html.gz", f"benchmark/ground-truth/{key}.json"
        if truth in truths:
            wanted |= {page: pages[page], truth: truths[truth]}
    data = dict(read(wanted))
    for path in sorted(path for path in wanted if path.startswith("release/")):
        key = path.rsplit("/", 1)[-1][:-len(".html.gz")]
        record = json.loads(data[f"benchmark/ground-truth/{key}.json"])
        html = decode(gzip.decompress(data[path]))
        kind = record.get("_internal", {}).get("page_type", {}).get("primary", "")
        yield Page(key, html, record["ground_truth"]["main_content"], record.get("url", ""), kind)



_FUNDUS = "tests/resources/parser/test_data"


def read_fundus(source: Source, read: Read) -> Iterator[Page]:
    """Fundus's parser tests: news pages of publishers in some forty countries (most in German, then
    English, Spanish, Japanese, French, Norwegian, Turkish, Italian, Korean...), each with the article
    its publisher's hand-written parser reads (summary, section headlines and paragraphs). A publisher's
    JSON holds one record per parser version; each record goes with the page that holds most of its
    paragraphs (a record no page holds half of, or whose page went with another, is left out)."""
    import lxml.html

    listed = source.files(_FUNDUS)
    data = dict(read({path: blob for path, blob in listed.items() if path.endswith((".json", "meta.info"))}))
    for path in sorted(path for path in data if path.endswith(".json")):
        folder, publisher = path.rsplit("/", 1)[0], path.rsplit("/", 1)[-1][:-5]
        pattern = re.compile(rf"{re.escape(folder)}/{re.escape(publisher)}_\d{{4}}_\d{{2}}_\d{{2}}\.html\.gz")
        pages = sorted(name for name in listed if pattern.fullmatch(name))
        meta = json.loads(data.get(f"{folder}/meta.info") or b"{}")
        html = {page: decode(gzip.decompress(raw)) for page, raw in read({page: listed[page] for page in pages})}
        shown = {page: " ".join(lxml.html.document_fromstring(markup.encode()).text_content().split())
                 for page, markup in html.items()}
        used: set[str] = set()
        for record in json.loads(data[path]).values():
            parts = _fundus_body(record.get("body"))
            if not parts or not shown:
                continue
            openings = [" ".join(part.split())[:40] for part in parts]
            held = {page: sum(opening in text for opening in openings) for page, text in shown.items()}
            page = max(held, key=lambda name: held[name])
            if held[page] * 2 < len(openings) or page in used:
                continue
            used.add(page)
            name = page.rsplit("/", 1)[-1]
            yield Page(f"{folder.rsplit('/', 1)[-1]}/{name[:-len('.html.gz')]}", html[page], "\n\n".join(parts),
                       meta.get(name, {}).get("url", ""), f"news/{folder.rsplit('/', 1)[-1]}")


def _fundus_body(body: object) -> list[str]:
    """The article's parts in a Fundus body record: its summary, then each section's headline and paragraphs."""
    if not isinstance(body, dict):
        return []
    parts = list(body.get("summary") or [])
    for section in body.get("sections") or []:
        parts += list(section.get("headline") or []) + list(section.get("paragraphs") or [])
    return [part.strip() for part in parts if isinstance(part, str) and part.strip()]


@dataclass
class DataSet:
    """One benchmark: where it comes from, how to read it and how it is scored."""

    name: str
    source: Source
    reader: Reader
    scoring: str  # "shingles" (the scrapinghub evaluate.py) or "cleaneval" (cleaneval.py word alignment)


SETS = [
    DataSet("scrapinghub", FolderSource(SCRAPINGHUB, "github.com/scrapinghub/article-extraction-benchmark",
                                        "EXTRACTION_BENCHMARK"), read_scrapinghub, "shingles"),
    DataSet("readability", GitSource("mozilla/readability", "ab4027a8b37669745016869a37a504727992b2ba",
                                     "WEBSEARCH_BENCH_READABILITY"), read_readability, "shingles"),
    DataSet("cleanportaleval", GitSource("ppke-nlpg/CleanPortalEval", "517726d64d8ded8846bf27ae2808853b1cd0ffe8",
                                         "WEBSEARCH_BENCH_CLEANPORTALEVAL"), read_cleanportaleval, "cleaneval"),
    DataSet("cleaneval", GitSource("j-szulc/html-cleaning-dataset-merged", "46e01a04b47051838a228bf23631430b2c9de375",
                                   "WEBSEARCH_BENCH_MERGED"), read_cleaneval, "cleaneval"),
    DataSet("dragnet", GitSource("j-szulc/html-cleaning-dataset-merged", "46e01a04b47051838a228bf23631430b2c9de375",
                                 "WEBSEARCH_BENCH_MERGED"), read_dragnet, "shingles"),
    DataSet("l3s-gn1", GitSource("geodrome/page-signal", "186d8153b3d111f84865ddc180600a9cbe35ac7f",
                                 "WEBSEARCH_BENCH_L3S"), read_l3s, "shingles"),
    DataSet("harvest-forum", GitSource("fhgr/harvest", "f778b0a4112259ad246c8ac57e9d51eb149ab9ef",
                                       "WEBSEARCH_BENCH_HARVEST"), read_harvest, "shingles"),
    DataSet("zh-cwced", GitSource("immortal-autumn/Chinese-Web-Content-Extraction-Dataset",
                                  "99d0ef08419109b5489b12e38f771f25b952d774", "WEBSEARCH_BENCH_CWCED"),
            read_cwced, "shingles"),
    DataSet("htmltotext", GitSource("leogao2/htmltotext-benchmark", "feab59949ee4f9789af8e0c2412720895278d3cf",
                                    "WEBSEARCH_BENCH_HTMLTOTEXT"), read_htmltotext, "shingles"),
    DataSet("small-news", GitSource("WubabooTR/evan_extract", "a339d457cce63a06b705145b5db513922fad089e",
                                    "WEBSEARCH_BENCH_SMALLNEWS"), read_small_news, "shingles"),
    DataSet("modern-web", GitSource("tiptopjaw/web-content-extraction-benchmark",
                                    "977613a3a90de65c9ed5e1db251eeede7b9d9714", "WEBSEARCH_BENCH_MODERNWEB"),
            read_modern_web, "shingles"),
    DataSet("fundus-news", GitSource("flairNLP/fundus", "18da6e53592f99cf0ac5770dc63d6ba99ba63ae8",
                                     "WEBSEARCH_BENCH_FUNDUS"), read_fundus, "shingles"),
]


# -- sets without ground truth ----------------------------------------------------------------------
# Recorded pages from the test fixtures of other extractors, scrapers and parsers: no text is said to be
# right, so they are read by agreement (bench/agreement.py): where trafilatura and readability-lxml
# agree on a page, an extractor that finds little of what both found has most likely taken the wrong
# block (and the same for each extractor against the other two).

UNLABELLED_MIN_BYTES = 3000  # a smaller file is a fragment made for a unit test, not a recorded page


def _recorded_pages(prefix: str, keep: Callable[[str], bool], kind: str | Callable[[str], str],
                    step: int = 1) -> Reader:
    """A reader of every file under prefix that keep() accepts (gzip-compressed ones unpacked), skipping
    fragments and byte-identical copies; with step, every step-th of them (one site's many pages)."""
    def reader(source: Source, read: Read) -> Iterator[Page]:
        listed = {path: blob for path, blob in source.files(prefix).items() if keep(path)}
        chosen = dict(sorted(listed.items())[::step])
        seen: set[str] = set()
        for path, data in read(chosen):
            if path.endswith(".gz"):
                data = gzip.decompress(data)
            digest = hashlib.sha256(data).hexdigest()
            if len(data) < UNLABELLED_MIN_BYTES or digest in seen:
                continue
            seen.add(digest)
            html = decode(data)
            yield Page(path[len(prefix):].lstrip("/"), html, "", page_url(html), kind if isinstance(kind, str)
                       else kind(path))
    return reader


def _html(path: str) -> bool:
    return path.lower().endswith((".html", ".htm", ".html.gz"))


def _unlabelled(name: str, repo: str, commit: str, env: str, prefix: str, keep: Callable[[str], bool] = _html,
                kind: str | Callable[[str], str] = "news", step: int = 1) -> DataSet:
    """A set of recorded pages without ground truth: the files under prefix of one commit of repo."""
    return DataSet(name, GitSource(repo, commit, env), _recorded_pages(prefix, keep, kind, step), "agreement")


UNLABELLED = [
    _unlabelled("fundus", "flairNLP/fundus", "18da6e53592f99cf0ac5770dc63d6ba99ba63ae8", "WEBSEARCH_BENCH_FUNDUS",
                "tests/resources/parser/test_data", kind=lambda path: "news/" + path.split("/")[-2]),
    _unlabelled("goose3", "goose3/goose3", "c5a8902eed0c4592a1ff5ec51a0277cf73a3aca7", "WEBSEARCH_BENCH_GOOSE3",
                "tests/data/content"),
    _unlabelled("newspaper4k", "AndyTheFactory/newspaper4k", "79553f6302cea1a6e36103fb4dc1c675ca704cd3",
                "WEBSEARCH_BENCH_NEWSPAPER4K", "tests/data/html"),
    _unlabelled("postlight", "postlight/parser", "e8ba7ece291efa4d915d50dd4deeec17d54359f2",
                "WEBSEARCH_BENCH_POSTLIGHT", "fixtures"),
    _unlabelled("gne", "GeneralNewsExtractor/GeneralNewsExtractor", "3d5a67c65f4d6c8e13c3047754a4c18fc0b0754a",
                "WEBSEARCH_BENCH_GNE", "tests", kind="news/zh"),
    _unlabelled("snacktory", "smallrivers/snacktory", "6a87f3f19d13843166dd689760cbdc2ff3af34f6",
                "WEBSEARCH_BENCH_SNACKTORY", "src/test/resources/de/jetwick/snacktory"),
    _unlabelled("goose-go", "advancedlogic/GoOse", "717927370fc8f68b5f590aa46b8b156756cfebb3",
                "WEBSEARCH_BENCH_GOOSEGO", "sites", keep=lambda path: _html(path) and "/charset_" not in path),
    _unlabelled("graby", "j0k3r/graby", "3e7695203c4c57dac2998780972450ced372b960", "WEBSEARCH_BENCH_GRABY",
                "tests/fixtures/content"),
    _unlabelled("metascraper", "microlinkhq/metascraper", "20423f52ef9b4a07d3b25e56e34d2756b3291250",
                "WEBSEARCH_BENCH_METASCRAPER", "packages/metascraper/test/integration",
                keep=lambda path: path.endswith("/input.html")),
    _unlabelled("crux", "chimbori/crux", "4aa31ad9b6ce3c954edbda3e69be581fafb010f4", "WEBSEARCH_BENCH_CRUX",
                "test_data"),
    _unlabelled("omnivore", "omnivore-app/omnivore", "322ce62b2e09a4fc8f328dde6003e7066953a9ca",
                "WEBSEARCH_BENCH_OMNIVORE", "packages/readabilityjs/test/test-pages",
                keep=lambda path: path.endswith("/source.html")),
    _unlabelled("netease", "chrislinan/cx-extractor-python", "56f19b1b7a340f730a9cfd28d2e11e65709f8852",
                "WEBSEARCH_BENCH_CXEXTRACTOR", "RawHtml", kind="news/zh", step=4),
]


# -- checksums and the cache ------------------------------------------------------------------------


def read_manifest() -> dict[str, str]:
    """'set/path' -> sha256 of every source file, as committed."""
    if not MANIFEST.exists():
        return {}
    entries = (line.split("  ", 1) for line in MANIFEST.read_text(encoding="utf-8").splitlines() if line.strip())
    return {path: digest for digest, path in entries}


class ChecksumError(Exception):
    """A source file differs from the one the manifest records."""


def _checked(dataset: DataSet, expected: dict[str, str], seen: dict[str, str], strict: bool) -> Read:
    """The source's read(), hashing every file and comparing it with the manifest on the way."""
    def read(paths: dict[str, str]) -> Files:
        for path, data in dataset.source.read(paths):
            digest = hashlib.sha256(data).hexdigest()
            key = f"{dataset.name}/{path}"
            seen[key] = digest
            if strict and expected.get(key) != digest:
                problem = "is not in the manifest" if key not in expected else "has another sha256 than recorded"
                raise ChecksumError(f"{key} {problem} ({MANIFEST.name}); the source is not the pinned one.")
            yield path, data
    return read


def build(dataset: DataSet, manifest: dict[str, str], strict: bool = True) -> tuple[list[Page], dict[str, str]]:
    """Read and normalise a set from its source, checking every file; returns pages and checksums."""
    dataset.source.check()
    seen: dict[str, str] = {}
    pages = list(dataset.reader(dataset.source, _checked(dataset, manifest, seen, strict)))
    if strict:
        missing = [key for key in manifest if key.startswith(dataset.name + "/") and key not in seen]
        if missing:
            raise ChecksumError(f"{len(missing)} files of the manifest were not found, e.g. {missing[0]}")
    return pages, seen


def _manifest_digest(name: str, manifest: dict[str, str]) -> str:
    lines = sorted(f"{d}  {p}" for p, d in manifest.items() if p.startswith(name + "/"))
    return hashlib.sha256(f"{FORMAT}\n{chr(10).join(lines)}".encode()).hexdigest()


def load(dataset: DataSet, manifest: dict[str, str] | None = None) -> list[Page]:
    """The set's pages: from the cache when it was built from the same checked files, else built now."""
    manifest = read_manifest() if manifest is None else manifest
    folder = CACHE / dataset.name
    digest = _manifest_digest(dataset.name, manifest)
    info = folder / "info.json"
    if info.exists() and json.loads(info.read_text()).get("manifest") == digest:
        with gzip.open(folder / "pages.jsonl.gz", "rt", encoding="utf-8") as lines:
            return [Page(**json.loads(line)) for line in lines]
    if not any(key.startswith(dataset.name + "/") for key in manifest):
        raise ChecksumError(f"{MANIFEST.name} records no files of {dataset.name}; run bench/devset.py "
                            "--write-manifest after reviewing the source.")
    pages, _ = build(dataset, manifest)
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.open(folder / "pages.jsonl.gz", "wt", encoding="utf-8") as out:
        for page in pages:
            out.write(json.dumps(page.__dict__, ensure_ascii=False) + "\n")
    info.write_text(json.dumps({"manifest": digest, "source": dataset.source.describe(), "pages": len(pages)}))
    return pages


def load_available(names: list[str] | None = None,
                   sets: list[DataSet] | None = None) -> tuple[dict[str, list[Page]], list[str]]:
    """Pages of every set (of SETS, or of the list given) that can be had, and a message for each that
    cannot."""
    manifest = read_manifest()
    found: dict[str, list[Page]] = {}
    problems = []
    for dataset in SETS if sets is None else sets:
        if names and dataset.name not in names:
            continue
        try:
            found[dataset.name] = load(dataset, manifest)
        except (MissingSource, ChecksumError) as err:
            problems.append(f"{dataset.name}: {err}")
    return found, problems


def write_manifest(names: list[str] | None) -> None:
    """Record the sha256 of every source file of the sets (others keep their entries)."""
    manifest = read_manifest()
    for dataset in SETS + UNLABELLED:
        if names and dataset.name not in names:
            continue
        try:
            pages, seen = build(dataset, {}, strict=False)
        except MissingSource as err:
            print(f"{dataset.name}: {err}", file=sys.stderr)
            continue
        manifest = {k: v for k, v in manifest.items() if not k.startswith(dataset.name + "/")} | seen
        print(f"{dataset.name}: {len(seen)} files, {len(pages)} pages from {dataset.source.describe()}")
    MANIFEST.write_text("".join(f"{d}  {p}\n" for p, d in sorted(manifest.items())), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sets", help="comma-separated set names (default: all)")
    parser.add_argument("--write-manifest", action="store_true", help="record the checksums of the sources")
    args = parser.parse_args()
    names = args.sets.split(",") if args.sets else None
    if args.write_manifest:
        write_manifest(names)
        return 0
    found, problems = load_available(names, SETS + UNLABELLED)
    for name, pages in found.items():
        halves = sum(1 for p in pages if p.half(name) == "dev")
        print(f"{name}: {len(pages)} pages ({halves} dev, {len(pages) - halves} check) in {CACHE / name}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
