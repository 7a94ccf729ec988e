"""Reading a PDF in a child process, so that nothing PDFium does can hang, exhaust or crash the
server: a page that takes too long is stopped by a wall-clock limit, a decompression bomb by a
memory limit (where the system has one), and a crash ends only the child.

    python -m websearch_mcp.pdf.isolated MAX_PAGES TIME_LIMIT MEMORY_MB  < file.pdf   (the child)
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

from websearch_mcp.pdf import (
    NOT_INSTALLED,
    PdfDamaged,
    PdfEncrypted,
    PdfError,
    PdfImageOnly,
    PdfNotInstalled,
    PdfText,
    read_pdf,
)

STARTUP_ALLOWANCE = 3.0  # seconds for the child to start and import PDFium, on top of the time limit
TOO_SLOW = ("reading the PDF took longer than the {limit:g}-second time limit (a single page was still being "
            "read), so it was stopped; the file may be very large or built to be slow: look for an HTML or "
            "text version of the document")
CRASHED = ("reading the PDF needed more than {memory} MiB of memory or crashed the PDF reader ({detail}); the "
           "file is damaged or built to be hostile: look for another copy of the document")
ERRORS: dict[str, type[PdfError]] = {cls.__name__: cls for cls in (PdfError, PdfNotInstalled, PdfEncrypted,
                                                                   PdfImageOnly, PdfDamaged)}


class PdfTooSlow(PdfError):
    """Reading the PDF did not finish within the time limit, even inside one page."""


def read_pdf_isolated(data: bytes, *, max_pages: int = 200, time_limit: float = 20.0,
                      memory_mb: int | None = 1024) -> PdfText:
    """read_pdf in a child process that is killed after `time_limit` (+ start-up) s or past `memory_mb` MiB."""
    if importlib.util.find_spec("pypdfium2") is None:
        from websearch_mcp.install_hint import install_command

        raise PdfNotInstalled(NOT_INSTALLED.format(command=install_command("pdf")))
    command = [sys.executable, "-m", "websearch_mcp.pdf.isolated", str(max_pages), str(time_limit),
               str(memory_mb or 0)]
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=time_limit + STARTUP_ALLOWANCE,
                              check=False)
    except subprocess.TimeoutExpired as err:
        raise PdfTooSlow(TOO_SLOW.format(limit=time_limit)) from err
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        raise PdfDamaged(CRASHED.format(memory=memory_mb or "all available", detail=_ending(done))) from None
    if "error" in answer:
        raise ERRORS.get(answer["error"], PdfError)(answer["message"])
    return PdfText(**answer["pdf"])


def _ending(done: subprocess.CompletedProcess[bytes]) -> str:
    """How the child ended: the signal or exit status, and the last of what it printed on stderr."""
    status = f"killed by signal {-done.returncode}" if done.returncode < 0 else f"exit status {done.returncode}"
    last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] if done.stderr.strip() else []
    return ": ".join([status, *last])[:200]


def _limit_memory(megabytes: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: no limit, the time limit still holds
        return
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv: list[str]) -> None:
    """The child: read the PDF on stdin, write the result or the error as JSON on stdout."""
    max_pages, time_limit, memory_mb = int(argv[0]), float(argv[1]), int(argv[2])
    data = sys.stdin.buffer.read()
    if memory_mb:
        _limit_memory(memory_mb)
    try:
        pdf = read_pdf(data, max_pages=max_pages, time_limit=time_limit)
    except PdfError as err:
        answer: dict[str, object] = {"error": type(err).__name__, "message": err.message}
    else:
        answer = {"pdf": {name: getattr(pdf, name) for name in PdfText.__slots__}}
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main(sys.argv[1:])
