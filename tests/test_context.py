"""Passages, BM25 ranking and packing for search_context."""

from __future__ import annotations

from websearch_mcp.passages import estimate_tokens, pack, rank, split_passages, terms


def test_terms_split_words_and_cjk_pairs():
    assert terms("Async Rust, tokio!") == ["async", "rust", "tokio"]
    assert terms("東京の天気") == ["東京", "京の", "の天", "天気"]


def test_passages_keep_headings_with_their_text():
    markdown = "## Heading\n\n" + "\n\n".join(f"Paragraph {n} " + "word " * 50 for n in range(5))
    passages = split_passages(0, markdown, size=120)
    assert passages[0].text.startswith("## Heading\n\nParagraph 0")
    assert [p.position for p in passages] == list(range(len(passages))) and len(passages) >= 2


def test_bm25_prefers_passages_that_match_rare_terms():
    passages = split_passages(0, "The cat sat on the mat.") + split_passages(1, "A waker tells the executor to poll.")
    best = rank(passages, "executor waker")[0]
    assert best.source == 1 and best.score > 0


def test_ties_keep_page_and_passage_order():
    passages = [*split_passages(1, "same text here"), *split_passages(0, "same text here")]
    assert [p.source for p in rank(passages, "unrelated")] == [0, 1]


def test_pack_fits_the_budget_and_restores_reading_order():
    passages = [*split_passages(0, "alpha beta " * 40), *split_passages(1, "gamma alpha " * 40),
                *split_passages(2, "delta " * 400)]
    chosen = pack(rank(passages, "alpha"), 300)
    assert sum(estimate_tokens(p.text) for p in chosen) <= 300
    assert [p.source for p in chosen] == sorted(p.source for p in chosen)
    assert 2 not in {p.source for p in chosen}


def test_token_estimate_counts_cjk_characters():
    assert estimate_tokens("a" * 400) == 101
    assert estimate_tokens("東" * 100) == 101


def test_the_ranking_is_readied_once_in_the_background():
    """search_context starts this while its pages load: the stemmer is imported and ready by the
    time they are in, on one thread however many calls ask."""
    import subprocess
    import sys

    script = ("import sys\n"
              "from websearch_mcp.services import warm_up\n"
              "assert 'snowballstemmer' not in sys.modules\n"
              "for _ in range(3): warm_up.warm_up_ranking()\n"
              "for thread in warm_up._started: thread.join(30)\n"
              "from websearch_mcp.passages import _stemmer\n"
              "print(len(warm_up._started), 'snowballstemmer' in sys.modules, _stemmer.cache_info().currsize)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "True", "1"]
