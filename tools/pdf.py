"""One PDF of the whole book, printed from the built HTML by the system Chromium, offline.

Each page of the table of contents is loaded from a local server (MathJax answered from .cache/npm,
as in the browser test), typeset, its solution dropdowns opened, and printed to A4 with the print
style sheets (the theme's drops the navigation; ``_static/olkit.css`` wraps long code lines and keeps
figures, proof tables and headings in one piece); the footer names the section and numbers its
pages.  pypdf merges the pages into one file with a bookmark per page, nested as in ``_toc.yml``
(part captions, chapters, sections).  An animation (matplotlib's JavaScript player,
:func:`olkit.plots.animate`) is printed at its last frame, the end of the run it replays: before
printing, each player's ``last_frame()`` is called (``_LAST_FRAME_JS``).

    python -m tools.pdf [HTML_DIR] [OUT_PDF]     # default _build/html -> _build/pdf/book.pdf
"""
from __future__ import annotations

import io
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import web  # noqa: E402

FOOTER = (
    '<div style="font-size:8px; width:100%; padding:0 12mm; color:#555; display:flex; '
    'justify-content:space-between; font-family:sans-serif">'
    '<span class="title"></span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)


@dataclass
class TocEntry:
    file: str
    children: list["TocEntry"] = field(default_factory=list)
    caption: str | None = None  # the part caption that opens this entry, if any


def toc_entries(root: Path = ROOT) -> list[TocEntry]:
    """The pages of ``_toc.yml`` in reading order, as a tree (root page, chapters, sections)."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text())

    def walk(items) -> list[TocEntry]:
        out = []
        for item in items or []:
            if "file" not in item:
                continue
            out.append(TocEntry(item["file"], walk(item.get("sections") or item.get("chapters"))))
        return out

    entries = [TocEntry(toc["root"])]
    for part in toc.get("parts", []):
        chapters = walk(part.get("chapters"))
        if chapters and part.get("caption"):
            chapters[0].caption = part["caption"]
        entries += chapters
    entries += walk(toc.get("chapters"))
    return entries


def _flatten(entries: list[TocEntry], depth: int = 0):
    for e in entries:
        yield e, depth
        yield from _flatten(e.children, depth + 1)


_PREPARE_JS = r"""
() => {
  // open every dropdown (the solutions) so that the PDF shows its content; the folded code of a cell
  // (myst-nb's <details class="hide ...">) stays folded, and the print style sheet leaves it out
  document.querySelectorAll('.toggle-hidden').forEach(el => el.classList.remove('toggle-hidden'));
  document.querySelectorAll('.toggle-button-hidden').forEach(el => el.classList.remove('toggle-button-hidden'));
  document.querySelectorAll('details:not(.hide)').forEach(el => el.open = true);
  const h1 = document.querySelector('main h1, article h1, h1');
  const title = h1 ? h1.textContent.replace(/[#¶]/g, '').trim() : document.title;
  return {title};
}
"""


# matplotlib's player (matplotlib/_animation_data.py): <img id="_anim_img<id>"> shows the frames and the
# global ``anim<id>`` (an Animation, created by a setTimeout once the page has loaded) steps them.
_LAST_FRAME_JS = r"""
() => [...document.querySelectorAll('img[id^="_anim_img"]')].map(img => {
  const player = window['anim' + img.id.slice('_anim_img'.length)];
  if (!player) return false;
  player.pause_animation();
  player.last_frame();
  const slider = document.getElementById(player.slider_id);
  return img.src === player.frames[player.frames.length - 1].src && slider.value === slider.max;
})
"""


#: Takes every CSS transition and animation of finite length (the dropdowns' 0.3 s fade-in) to its end
#: state at once: the page is printed as it looks at rest, without waiting for them.  Returns how many
#: are still running (infinite ones, which print as they are).
_SETTLED_JS = r"""
() => {
  document.getAnimations().filter(a => Number.isFinite(a.effect.getComputedTiming().endTime))
    .forEach(a => a.finish());
  return document.getAnimations().filter(a => a.playState === 'running').length;
}
"""


def show_last_frames(page) -> int:
    """Set every animation of the page to its last frame; returns how many show it (image and slider)."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('img[id^="_anim_img"]')].every(
             img => window['anim' + img.id.slice('_anim_img'.length)])""", timeout=10_000)
    shown = [ok for ok in page.evaluate(_LAST_FRAME_JS) if ok]
    page.wait_for_function(
        """() => [...document.querySelectorAll('img[id^="_anim_img"]')].every(
             img => img.complete && img.naturalWidth > 0)""", timeout=10_000)
    return len(shown)


def print_page(page) -> dict:
    """Print a loaded, typeset page to PDF bytes, as on paper: its solutions open, its folded code left
    out (the print style sheet), each animation at its last frame.  Returns {title, pdf, animations}
    (animations: how many show their last frame).  The page is left in print mode."""
    info = page.evaluate(_PREPARE_JS)
    animations = show_last_frames(page)  # an animation prints as the end of its run
    page.evaluate(_SETTLED_JS)  # the dropdowns faded in
    page.emulate_media(media="print")
    pdf = page.pdf(
        format="A4",
        print_background=True,
        margin={"top": "14mm", "bottom": "16mm", "left": "12mm", "right": "12mm"},
        display_header_footer=True,
        header_template="<span></span>",
        footer_template=FOOTER,
        outline=False,
    )
    return {**info, "pdf": pdf, "animations": animations}


class Printer:
    """Collects the printed pages of the table of contents while another pass (the browser test's)
    has each page loaded: ``printer(page, rel)`` after the page's checks, then ``printer.write(out)``.
    The book is then loaded once for both."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root
        self.entries = list(_flatten(toc_entries(root)))
        self.wanted = {e.file + ".html" for e, _ in self.entries}
        self.printed: dict[str, dict] = {}

    def __call__(self, page, rel: str) -> None:
        if rel in self.wanted:
            self.printed[rel] = print_page(page)

    def pages(self) -> list[dict]:
        missing = sorted(self.wanted - set(self.printed))
        if missing:
            raise RuntimeError(f"pages of the table of contents not printed: {missing}")
        return [{"file": e.file, "depth": d, "caption": e.caption, **self.printed[e.file + ".html"]}
                for e, d in self.entries]

    def write(self, out: Path) -> Path:
        return merge(self.pages(), out, web.book_config(self.root)["title"])


def print_pages(html_dir: Path, entries: list[TocEntry]) -> list[dict]:
    """Print each page to PDF bytes; returns [{file, depth, caption, title, pdf}]."""
    pages = []
    with web.serve(html_dir) as base, web.chromium() as chrome:
        sink: dict = {}
        context = web.new_context(chrome, base, sink)
        for entry, depth in _flatten(entries):
            url = base + entry.file + ".html"
            page, log = web.open_page(context, url, base, sink)
            problems = web.check_math(page) + log.problems()
            if problems:
                raise RuntimeError(f"{entry.file}: " + "; ".join(problems[:5]))
            pages.append({"file": entry.file, "depth": depth, "caption": entry.caption, **print_page(page)})
            page.close()
        context.close()
    return pages


def merge(pages: list[dict], out: Path, title: str) -> Path:
    """One PDF with a bookmark per page, nested as in the table of contents (part captions, chapters,
    sections)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    parents: dict[int, object] = {}
    part = None
    for p in pages:
        start = len(writer.pages)
        writer.append(PdfReader(io.BytesIO(p["pdf"])), import_outline=False)
        depth = p["depth"]
        if depth == 0 and p["caption"]:
            part = writer.add_outline_item(title=p["caption"], page_number=start)
        parent = parents[depth - 1] if depth > 0 else part
        parents[depth] = writer.add_outline_item(title=p["title"], page_number=start, parent=parent)
    writer.add_metadata({"/Title": title, "/Creator": "Online Learning, Numerically: python3 dev.py pdf"})
    writer.page_mode = "/UseOutlines"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        writer.write(fh)
    return out


def outline_titles(pdf: Path) -> list[tuple[int, str]]:
    """(depth, title) of every bookmark of ``pdf``, in order."""
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    out = []

    def walk(items, depth):
        for it in items:
            if isinstance(it, list):
                walk(it, depth + 1)
            else:
                out.append((depth, it.title))

    walk(reader.outline, 0)
    return out


def outline_pages(pdf: Path) -> dict[str, int]:
    """Bookmark title -> the (0-based) page it points to."""
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    out = {}

    def walk(items):
        for it in items:
            if isinstance(it, list):
                walk(it)
            else:
                out[it.title] = reader.get_destination_page_number(it)

    walk(reader.outline)
    return out


def build(html_dir: Path = ROOT / "_build" / "html", out: Path = ROOT / "_build" / "pdf" / "book.pdf",
          root: Path = ROOT) -> dict:
    t0 = time.time()
    entries = toc_entries(root)
    pages = print_pages(html_dir, entries)
    title = web.book_config(root)["title"]
    merge(pages, out, title)
    return {"pdf": out, "pages": len(pages), "seconds": time.time() - t0}


def main(argv: list[str]) -> int:
    html_dir = Path(argv[0]) if argv else ROOT / "_build" / "html"
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "_build" / "pdf" / "book.pdf"
    lacking = web.missing()
    if lacking:
        print("cannot print the PDF: " + "; ".join(lacking) + "\n  " + web.INSTALL_HINT)
        return 2
    result = build(html_dir, out)
    from pypdf import PdfReader

    n = len(PdfReader(str(out)).pages)
    print(f"{out}: {n} pages from {result['pages']} book pages in {result['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
