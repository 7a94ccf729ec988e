"""instant_answer against the fake Instant Answer API: seed 000's Markdown and the added sections."""

from __future__ import annotations

from tests.fake_upstream import FIXTURES, Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.services.instant_answer import parse_instant_answer

EMPTY = """\
## Instant Answer for "xyzzy12345noresult"

No instant answer available for this query.

_Source: DuckDuckGo Instant Answer API_"""


def ask(config, query):
    [reply] = exchange([call("instant_answer", {"query": query})], registry=registry_for(config))
    return reply["result"]


def test_article_with_abstract_infobox_and_related_topics(ddg, config):
    result = ask(config, "DuckDuckGo")
    text = result["content"][0]["text"]
    assert text.startswith('## Instant Answer for "DuckDuckGo"\n\n### Abstract\nDuckDuckGo is an internet search')
    assert "\n\n**Source:** Wikipedia\n**URL:** https://en.wikipedia.org/wiki/DuckDuckGo\n\n" in text
    assert "### Infobox\n- **Available in:** Multilingual\n- **Area served:** Worldwide\n" in text
    assert ("### Related Topics\n- **Names Database** - The Names Database is a now-defunct social network"
            in text)
    assert "- **Internet search engines**\n" in text
    assert text.endswith("\n\n_Source: DuckDuckGo Instant Answer API_")
    assert text.index("### Abstract") < text.index("### Infobox") < text.index("### Related Topics")
    data = result["structuredContent"]
    assert data["found"] is True and data["abstract_source"] == "Wikipedia"
    assert data["results"][0]["url"] == "https://duckduckgo.com"


def test_request_parameters(ddg, config):
    ask(config, "DuckDuckGo")
    [seen] = ddg.requests
    assert seen.method == "GET" and seen.query["q"] == "DuckDuckGo" and seen.query["format"] == "json"
    assert seen.query["no_html"] == "1"


def test_no_answer_form(ddg, config):
    result = ask(config, "xyzzy12345noresult")
    assert result["content"][0]["text"] == EMPTY
    assert result["structuredContent"]["found"] is False


def test_disambiguation_groups_are_flattened_and_capped(ddg, config):
    text = ask(config, "mercury")["content"][0]["text"]
    assert "- **Mercury (planet)** - The smallest planet in the Solar System and the closest to the Sun.\n" in text
    assert "- **Mercury (mythology)** - A major god in Roman religion and mythology.\n" in text
    assert text.count("\n- **") == 10
    assert "- _... and 3 more_\n" in text


def test_answer_section(ddg, config):
    text = ask(config, "2+2")["content"][0]["text"]
    assert text == '## Instant Answer for "2+2"\n\n### Answer\n2 + 2 = 4\n\n_Source: DuckDuckGo Instant Answer API_'


def test_definition_section(ddg, config):
    text = ask(config, "serendipity")["content"][0]["text"]
    assert ("### Definition\nserendipity: The faculty of making fortunate discoveries by accident.\n\n"
            "**Source:** Wordnik\n**URL:** https://www.wordnik.com/words/serendipity\n\n") in text


def test_upstream_failure_is_an_error_result(upstream, config):
    upstream.route("GET", "/ia/", Reply(status=500, body=b"x"))
    result = ask(config, "rust")
    assert result["isError"] is True and "Instant Answer API could not be used" in result["content"][0]["text"]


def test_garbled_body_is_an_error_result(upstream, config):
    upstream.route("GET", "/ia/", Reply(body=b"\x00\xffnot json", content_type="application/x-javascript"))
    result = ask(config, "rust")
    assert result["isError"] is True and "not JSON" in result["content"][0]["text"]


def test_parse_tolerates_type_variations():
    empty = parse_instant_answer((FIXTURES / "ddg-ia/empty-no-answer-2020-05.json").read_bytes())
    assert empty.is_empty and empty.infobox == []
    odd = parse_instant_answer(b'{"Answer": {"result": "42"}, "RelatedTopics": [1, {"Text": ""}, {"Topics": 3}],'
                               b' "Infobox": {"content": [{"label": "x", "value": {"nested": 1}}]}}')
    assert odd.answer == "42" and odd.related_topics == [] and odd.infobox == []
