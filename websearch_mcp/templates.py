"""Every text the tools show, as named `str.format` templates (the seed formats are exact)."""

# web_search (seed 000)
WEB_SEARCH_HEADER = '## Web Search Results for "{query}"\n\n'
WEB_SEARCH_RESULT = "### {position}. {title}\n**URL:** {url}\n{snippet}\n\n"
WEB_SEARCH_RESULT_NO_SNIPPET = "### {position}. {title}\n**URL:** {url}\n\n"
WEB_SEARCH_SEPARATOR = "---\n\n"
WEB_SEARCH_FOOTER = "_Source: {source} ({count} results)_"
WEB_SEARCH_EMPTY = '## Web Search Results for "{query}"\n\nNo results found.\n\n_Source: {source}_'
WEB_SEARCH_EMPTY_FOOTER = "No results found.\n\n_Source: {source}_"
SEARCH_ANSWERS = "### Answers\n"
SEARCH_ANSWER = "- {answer}\n"
SEARCH_INFOBOX = "### {title}\n{content}\n"
SEARCH_SUGGESTIONS = "_Suggestions: {suggestions}_\n\n"

# instant_answer (seed 000, with the Answer, Definition and Infobox sections added)
INSTANT_HEADER = '## Instant Answer for "{query}"\n\n'
INSTANT_ANSWER = "### Answer\n{answer}\n\n"
INSTANT_ABSTRACT = "### Abstract\n{text}\n\n"
INSTANT_DEFINITION = "### Definition\n{text}\n\n"
INSTANT_SOURCE_LINE = "**Source:** {source}\n"
INSTANT_URL_LINE = "**URL:** {url}\n"
INSTANT_INFOBOX_HEADER = "### Infobox\n"
INSTANT_INFOBOX_ITEM = "- **{label}:** {value}\n"
INSTANT_RELATED_HEADER = "### Related Topics\n"
INSTANT_RELATED_ITEM = "- **{name}** - {text}\n"
INSTANT_RELATED_ITEM_UNNAMED = "- {text}\n"
INSTANT_RELATED_MORE = "- _... and {more} more_\n"
INSTANT_FOOTER = "_Source: DuckDuckGo Instant Answer API_"
INSTANT_EMPTY = ('## Instant Answer for "{query}"\n\nNo instant answer available for this query.\n\n'
                 "_Source: DuckDuckGo Instant Answer API_")

# errors a model can act on
DDG_BLOCKED = (
    "DuckDuckGo is rate-limiting this client or asking for a CAPTCHA, so the search could not be "
    "made. This is not an empty result. ({details}) What to do: wait a few minutes before "
    "searching again and search less often; if it persists, try from another network or set "
    "WEBSEARCH_USER_AGENT to a current browser's User-Agent."
)
DDG_UNAVAILABLE = (
    "DuckDuckGo is unreachable or failing, so the search could not be made ({details}). "
    "Check the network connection (and HTTPS_PROXY if a proxy is needed) and try again."
)
DDG_UNRECOGNISED = (
    "DuckDuckGo answered with a page this server does not recognise as results ({details}). "
    "It may be a block page or a changed layout; try again later."
)
INSTANT_UNAVAILABLE = "The DuckDuckGo Instant Answer API could not be used: {details}"
NETWORK_HINT = "Check the network connection (and HTTPS_PROXY if a proxy is needed) and try again."
ALL_ENGINES_FAILED = "Every search engine failed:\n{reasons}"
ENGINE_FAILED_ITEM = "- {backend}: {reason}"

# fetch_content
PAGE_HEADER = "## {title}\n**URL:** {url}\n"
PAGE_HTTP_WARNING = "_Note: this page was fetched over plain http, not https; it may have been altered in transit._\n"
PAGE_BODY = "\n{content}\n"
PAGE_EMPTY = "\n_(The page has no readable text.)_\n"
PAGE_CONTINUES = ("\n_Showing characters {start}–{end} of {total}. To read on, call fetch_content with "
                  "start_index={end}._\n")
PAGE_PAST_END = "\n_start_index {start} is past the end of this page ({total} characters)._\n"
PAGE_SEPARATOR = "\n---\n\n"
PAGE_OUTLINE = ("\n_Outline: {count} sections in {total} characters. To read one, call fetch_content with "
                "its start_index (and max_chars)._\n\n")
PAGE_OUTLINE_ITEM = "{indent}- {title} (start_index {start}, {chars} characters)\n"
PAGE_OUTLINE_CUT = "- … {count} more sections (ask with a larger max_chars, or read on with start_index)\n"
BUDGET_SHARED = ("\n\n_These pages shared this answer's budget of {budget} characters (WEBSEARCH_MAX_RESULT_CHARS), "
                 "so {cut} of them stop early; each says the start_index to read on from. Ask for fewer pages "
                 "to get more of each._")
PAGE_NO_HEADINGS = "\n_The page has no headings ({total} characters); read it with start_index._\n"
PAGE_PASSAGES = ("\n_The {count} passages of {total_passages} that best match the query, best first. To read on "
                 "around one, call fetch_content with its start_index._\n")
PAGE_PASSAGE_ONE = ("\n_The passage of {total_passages} that best matches the query. To read on around it, call "
                    "fetch_content with its start_index._\n")
PAGE_PASSAGE = "\n### {path} (start_index {start})\n\n{text}\n"
PAGE_NO_PASSAGE = "\n_No passage of this page matches the query; read it in order with start_index 0._\n"
FAILED_HEADER = "## Failed URLs\n"
FAILED_ITEM = "- {url}: {reason}\n"
NOTHING_FETCHED = "No page could be read.\n\n"

# search_context
CONTEXT_HEADER = '## Context for "{query}"\n\n'
CONTEXT_PASSAGE = "[{number}] {text}\n\n"
CONTEXT_PASSAGE_BLOCK = "[{number}]\n\n{text}\n\n"  # a passage that opens with a list, quote, table or code
CONTEXT_SOURCES = "### Sources\n"
CONTEXT_SOURCE = "[{number}] [{title}]({url})\n"
CONTEXT_SOURCE_SNIPPET = "[{number}] [{title}]({url}) (search snippet only: the page could not be read)\n"
CONTEXT_EMPTY = '## Context for "{query}"\n\nNo relevant content was found.\n'
CONTEXT_BUDGET = ("\n\n_The context was held to {tokens} tokens to fit this answer's budget of {budget} characters "
                  "(WEBSEARCH_MAX_RESULT_CHARS)._")
CONTEXT_FAILED_ONE = "\n_{count} of {total} pages could not be read; only its search snippet was used._\n"
CONTEXT_FAILED_MANY = "\n_{count} of {total} pages could not be read; only their search snippets were used._\n"

# web_search with fetch_content
RESULT_CONTENT = "**Content** ({words} words, fetched in {ms} ms):\n\n{markdown}\n\n"
RESULT_CONTENT_TRUNCATED = "_Content cut at {chars} characters; fetch_content reads the whole page._\n\n"
RESULT_CONTENT_FAILED = "_Content could not be fetched: {reason}_\n\n"

# Tavily tools (seed 004, exact)
TAVILY_SEARCH_HEADER = "## 検索結果: {query}\n\n"
TAVILY_SEARCH_RESULT = "### {position}. {title}\nURL: {url}\nスコア: {score:.2f}\n{content}"
TAVILY_SEARCH_EMPTY = "## 検索結果: {query}\n\n検索結果が見つかりませんでした。"
TAVILY_EXTRACT_HEADER = "## コンテンツ抽出結果\n\n"
TAVILY_EXTRACT_RESULT = "### URL: {url}\n{raw_content}"
TAVILY_EXTRACT_SEPARATOR = "\n\n---\n\n"
TAVILY_EXTRACT_ALL_FAILED = "すべてのURLからコンテンツを抽出できませんでした。"
TAVILY_FAILED_HEADER = "## 失敗したURL\n"
TAVILY_FAILED_ITEM = "- {url}: {error}"
TAVILY_CONTEXT = "## RAG用検索コンテキスト: {query}\n\n{context}"
TAVILY_ERROR = "Tavily API エラー: {message}\nエラータイプ: {error_type}"
TAVILY_EMPTY_QUERY = "query は空にできません"
TAVILY_LONG_QUERY = "query は最大{limit}文字です（{length}文字）"
TAVILY_NO_URLS = "urls には1件以上のURLが必要です"
TAVILY_TOO_MANY_URLS = "urls は最大{limit}件です（{count}件）"
TAVILY_BAD_SCHEME = "URLは http:// または https:// で始まる必要があります"
TAVILY_NO_HOST = "URLにホスト名がありません"
TAVILY_HTTP_WARNING = "https ではなく http のURLです: {url}"
