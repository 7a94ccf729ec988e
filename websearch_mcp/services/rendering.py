"""Pages built by scripts: a shell whose own data (JSON-LD, data islands) holds no content is
rendered in the headless browser, when one is installed and the call allows it (`render`: auto
renders only a recognised shell, always renders every HTML page, never renders none)."""

from __future__ import annotations

import threading
import time

from websearch_mcp import log
from websearch_mcp.config import Config
from websearch_mcp.content import Document, to_document
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.addresses import AddressGuard
from websearch_mcp.fetch.pages import FetchedPage
from websearch_mcp.store.base import Store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from websearch_mcp.browser import Browser

RENDERED_CACHE = "rendered"
BROWSER_HINT = ("the browser extra renders such pages: install a headless Chromium (apt-get install chromium, "
                "or set WEBSEARCH_BROWSER to a Chrome/Chromium executable)")


class ShellError(ToolError):
    """A page built by scripts that could not be read."""


class Renderer:
    """Decides, per page, whether to render it, and renders it with the process's one browser."""

    def __init__(self, config: Config, guard: AddressGuard, cache: Store) -> None:
        self.config = config
        self.guard = guard
        self.cache = cache
        self._browser: Browser | None = None
        self._lock = threading.Lock()  # pages are read in parallel: one browser for all of them

    def executable(self) -> str | None:
        """The browser this server would run, if one is installed."""
        from websearch_mcp.browser import find_browser

        return find_browser(self.config.browser)

    def settle(self, page: FetchedPage, document: Document, mode: str, deadline: float | None,
               pdf_pages: int) -> Document:
        """The document to answer with: as read, or rendered; ShellError when a shell stays unread."""
        shell = document.metadata.get("shell", "")
        wanted = page.kind == "html" and (mode == "always" or (mode == "auto" and shell and not _has_text(document)))
        if not wanted:
            document.metadata["rendered"] = False
            if shell:
                document.metadata["render_reason"] = _not_rendered_reason(document, mode)
                if not _has_text(document):
                    raise ShellError(f"this page is built by JavaScript ({shell}) and has no readable text "
                                     f"without running it; render is {mode}")
            return document
        executable = self.executable()
        if executable is None:
            if shell and not _has_text(document):
                raise ShellError(f"this page is built by JavaScript ({shell}) and has no readable text without "
                                 f"running it; {BROWSER_HINT}")
            document.metadata.update(rendered=False, render_reason=f"render={mode}, but no browser: {BROWSER_HINT}")
            return document
        return self._render(page, document, executable, mode, deadline, pdf_pages)

    def _render(self, page: FetchedPage, document: Document, executable: str, mode: str, deadline: float | None,
                pdf_pages: int) -> Document:
        from websearch_mcp.browser import NavigationRefused, RenderError

        why = f"shell page: {document.metadata['shell']}" if document.metadata.get("shell") else f"render={mode}"
        cached = self.cache.get(RENDERED_CACHE, page.final_url)
        started = time.monotonic()
        if cached is not None:
            html, settled = cached.decode("utf-8", "surrogatepass"), True
            final_url = page.final_url
        else:
            try:  # what is read back is capped as a fetched page is
                rendered = self._browser_for(executable).render(page.final_url, self.config.render_timeout, deadline,
                                                                max_chars=self.config.fetch_max_bytes)
            except NavigationRefused as err:  # what the tab shows is a refusal, never the page: a failure
                log.warning(f"render of {page.final_url} refused: {err.message}")
                raise
            except RenderError as err:
                log.warning(f"render of {page.final_url} failed: {err.message}")
                if _has_text(document):
                    document.metadata.update(rendered=False, render_reason=f"{why}; {err.message}")
                    return document
                raise ShellError(f"this page is built by JavaScript and {err.message}") from err
            html, settled, final_url = rendered.html, rendered.settled, rendered.final_url
            self.cache.put(RENDERED_CACHE, page.final_url, html.encode("utf-8", "surrogatepass"), self.config.cache_ttl)
        elapsed = (time.monotonic() - started) * 1000
        dom = FetchedPage(page.url, final_url, "text/html; charset=utf-8", html, "utf-8",
                          page.elapsed_ms + elapsed, len(html))
        result = to_document(dom, pdf_pages)
        result.metadata.pop("shell", None)
        result.metadata.update(rendered=True, render_reason=why, render_ms=int(elapsed))
        notes = []
        if not settled:
            notes.append(f"the page was still loading when its render budget ({self.config.render_timeout:g} s) ended")
        if cached is None and rendered.dom_chars:
            notes.append(f"the rendered page held {rendered.dom_chars:,} characters; the first "
                         f"{len(html):,} were read")
        if notes:
            result.metadata["render_note"] = "; ".join(notes)
        return result

    def _browser_for(self, executable: str) -> Browser:
        from websearch_mcp.browser import Browser

        with self._lock:
            if self._browser is None:
                self._browser = Browser(executable, self.guard, self.config.render_concurrency)
            return self._browser

    def close(self) -> None:
        """Stop the browser, if one was started."""
        if self._browser is not None:
            self._browser.close()


def _has_text(document: Document) -> bool:
    return len(document.markdown.strip()) >= 40


def _not_rendered_reason(document: Document, mode: str) -> str:
    source = document.metadata.get("content_source")
    if source and _has_text(document):
        return f"read from the page's own data ({source}), no browser needed"
    return f"render={mode}"
