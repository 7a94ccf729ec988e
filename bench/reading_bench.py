"""Reading only what a question needs, and what a model sees of the tools (`make bench`).

1. Passage ranking (fetch_content's `query`): on SQuAD v1.1 dev (48 Wikipedia articles, 576
   questions, bench/data/squad-dev-v1.1-subset.json.gz, CC BY-SA 4.0), the share of questions whose
   answer is in the returned text at 500, 1,000 and 2,000 tokens, against the first N tokens of the
   article (what reading in order from start_index 0 gives). "answer paragraph" counts a question only
   when the returned text holds the paragraph the answer was marked in (an answer string that is a
   common word may also occur elsewhere).
2. Section titles: on every page of the scrapinghub article benchmark (../shared/data, or
   EXTRACTION_BENCHMARK) whose Markdown has three or more sections of 200+ characters, and on
   fixtures/handmade/pages/long-guide.html, each section's title asked as the query: the share whose
   first passage lies in a section of that title.
3. The answer budget: fetch_content of ten pages of about 40,000 characters of Markdown each (served on
   loopback, read by the installed command): the whole answer's size, text and structuredContent as
   serialized, against WEBSEARCH_MAX_RESULT_CHARS.
4. Tool definitions: the characters of name, title, description and input schema of the tools
   tools/list gives a model, for the default set and with WEBSEARCH_TOOLS.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websearch_mcp.sections import best_passages  # noqa: E402

DATA = ROOT / "bench" / "data" / "squad-dev-v1.1-subset.json.gz"
BUDGETS = (500, 1000, 2000)
CHARS_PER_TOKEN = 4  # estimate_tokens' rate for Latin text


def ranking() -> None:
    data = json.loads(gzip.decompress(DATA.read_bytes()))
    documents = data["documents"]
    questions = sum(len(d["questions"]) for d in documents)
    print(f"Passage ranking: {len(documents)} articles, {questions} questions (SQuAD v1.1 dev)")
    print(f"{'tokens':>7} | {'ranked: answer':>15} | {'first N: answer':>16} | {'ratio':>5} | "
          f"{'ranked: paragraph':>18} | {'first N: paragraph':>19} | {'ratio':>5}")
    started = time.process_time()
    for budget in BUDGETS:
        counts = {"ranked": 0, "first": 0, "ranked_p": 0, "first_p": 0}
        for document in documents:
            text = "\n\n".join(document["paragraphs"])
            first = text[:budget * CHARS_PER_TOKEN]
            for question in document["questions"]:
                found = best_passages(text, question["question"], budget * CHARS_PER_TOKEN)
                ranked = "\n\n".join(f.text for f in found)
                assert sum(len(f.text) for f in found) <= budget * CHARS_PER_TOKEN
                paragraph = document["paragraphs"][question["paragraph_index"]]
                counts["ranked"] += any(a in ranked for a in question["answers"])
                counts["first"] += any(a in first for a in question["answers"])
                counts["ranked_p"] += paragraph in ranked
                counts["first_p"] += paragraph in first
        share = {k: v / questions for k, v in counts.items()}
        print(f"{budget:>7} | {share['ranked']:>15.1%} | {share['first']:>16.1%} | "
              f"{share['ranked'] / max(share['first'], 1e-9):>4.2f}x | {share['ranked_p']:>18.1%} | "
              f"{share['first_p']:>19.1%} | {share['ranked_p'] / max(share['first_p'], 1e-9):>4.2f}x")
    spent = time.process_time() - started
    print(f"  ranking time: {spent / (questions * len(BUDGETS)) * 1000:.1f} ms CPU per question and page")


def section_titles() -> None:
    import glob
    import os

    from websearch_mcp.content import to_document
    from websearch_mcp.fetch.pages import FetchedPage
    from websearch_mcp.sections import outline

    folder = Path(os.environ.get("EXTRACTION_BENCHMARK", ROOT.parent / "shared" / "data" / "extraction-benchmark"))
    files = sorted(glob.glob(str(folder / "html" / "*.html.gz")))
    htmls = [gzip.decompress(Path(f).read_bytes()).decode("utf-8", "replace") for f in files]
    htmls.append((ROOT / "fixtures" / "handmade" / "pages" / "long-guide.html").read_text())
    pages = asked = first = 0
    for html in htmls:
        document = to_document(FetchedPage("https://example.org/a", "https://example.org/a", "text/html; charset=utf-8",
                                           html, "utf-8", 1, len(html)))
        sections = [s for s in outline(document.markdown) if s.chars > 200]
        if len(sections) < 3:
            continue
        pages += 1
        language = str(document.metadata.get("language") or "")
        for section in sections:
            found = best_passages(document.markdown, section.title, 4000, language)
            spans = [(s.start_index, s.start_index + s.chars) for s in sections if s.title == section.title]
            asked += 1
            first += bool(found) and any(a <= found[0].start_index < b for a, b in spans)
    print(f"\nSection titles as queries: {pages} pages with 3+ sections, {asked} titles; the section first for "
          f"{first} ({first / max(asked, 1):.1%})")


def answer_budget() -> None:
    import os
    import subprocess

    from tests.fake_upstream import FakeUpstream, Reply

    paragraph = "<p>" + "Every page of this long report says a great deal about very little, at length. " * 8 + "</p>"
    page = ("<html><head><title>Report</title></head><body><article>" + paragraph * 62 + "</article></body></html>")
    server = str(Path(sys.executable).parent / "websearch-mcp")
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and not k.startswith("WEBSEARCH_")}
    env.update({"WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_STORE": "memory"})
    with FakeUpstream() as upstream:
        urls = []
        for n in range(10):
            upstream.route("GET", f"/report/{n}", Reply(body=page.encode()))
            urls.append(f"{upstream.url}/report/{n}")
        request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "fetch_content", "arguments": {"urls": urls, "max_chars": 40_000}}}
        done = subprocess.run([server], input=(json.dumps(request) + "\n").encode(), capture_output=True, env=env,
                              timeout=120)
    result = json.loads(done.stdout.decode().splitlines()[0])["result"]
    size = len(json.dumps(result["content"][0]["text"], ensure_ascii=False)) + len(
        json.dumps(result["structuredContent"], ensure_ascii=False, separators=(",", ":")))
    pages = result["structuredContent"]["pages"]
    print(f"\nAnswer budget: fetch_content of 10 pages of {pages[0]['total_chars']:,} characters with max_chars=40000: "
          f"{size:,} characters in all (text and structuredContent), {len(pages[0]['content']):,} to "
          f"{len(pages[-1]['content']):,} of each page")


def definitions() -> None:
    from websearch_mcp.config import Config
    from websearch_mcp.tools import built_in_specs

    def size(config: Config) -> tuple[int, int]:
        specs = built_in_specs(config)
        chars = sum(len(json.dumps({"name": s.name, "title": s.title, "description": s.description,
                                    "inputSchema": s.input_schema}, ensure_ascii=False)) for s in specs)
        return len(specs), chars

    print("\nTool definitions (name, title, description, input schema as tools/list sends them):")
    for label, config in (("default", Config()), ("WEBSEARCH_TOOLS=web_search,fetch_content",
                                                  Config(tools="web_search,fetch_content"))):
        count, chars = size(config)
        print(f"  {label}: {count} tools, {chars:,} characters (~{chars // CHARS_PER_TOKEN:,} tokens)")


if __name__ == "__main__":
    ranking()
    section_titles()
    answer_budget()
    definitions()
