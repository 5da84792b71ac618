"""Every figure the book stores draws data: no empty axes in a notebook's outputs.

A figure made for an animation and left open is drawn by the inline backend at the end of its cell as
empty axes (frames and ticks, nothing inside); the page, the slides and the PDF, which all show the
stored outputs, would show it.  This module finds such images in the stored PNGs themselves, so it
judges exactly what a reader sees:

* a **panel** is a rectangle framed by dark lines (matplotlib's spines: a dark horizontal run of at
  least 40 px at its top and bottom, with dark columns joining them); nested rectangles (a legend's
  frame, a line drawn across the axes) belong to the outermost one;
* a panel **draws data** when at least ``MIN_INK`` (10) pixels inside its frame (3 px in from it)
  differ from the panel's background colour by more than 0.1 in a channel: two small dots are
  enough.  On the book's figures the emptiest panel with data has 1.9% of its pixels drawn (hundreds
  of pixels); an empty panel has none;
* a figure without frames (a tree drawn with its axes off) draws data when ``MIN_INK`` of its pixels
  differ from its corner colour.

Every frame of each stored animation (``olkit.plots.animate``) is judged the same way.

    python -m tools.figures [NOTEBOOK ...]    # every blank figure of the chapters (or the notebooks given)
"""
from __future__ import annotations

import base64
import io
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MIN_INK = 10  # pixels
_FRAME = re.compile(r'frames\[\d+\] = "data:image/png;base64,(?P<data>[^"]*)"')


def _runs(row: np.ndarray, min_len: int, gap: int = 1) -> list[tuple[int, int]]:
    """The runs of True in ``row`` at least ``min_len`` long (gaps of ``gap`` pixels bridged)."""
    idx = np.flatnonzero(row)
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) > gap + 1)
    starts = np.r_[idx[0], idx[breaks + 1]]
    ends = np.r_[idx[breaks], idx[-1]] + 1
    return [(int(s), int(e)) for s, e in zip(starts, ends) if e - s >= min_len]


def panels(rgb: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The outermost dark frames of an image (floats in [0, 1], H x W x 3): (x0, y0, x1, y1)."""
    dark = rgb @ np.array([0.299, 0.587, 0.114]) < 0.6
    segs = [(y, s, e) for y in range(dark.shape[0]) for s, e in _runs(dark[y], 40)]
    boxes = []
    for i, (y0, s0, e0) in enumerate(segs):
        for y1, s1, e1 in reversed(segs[i + 1:]):
            if y1 - y0 < 20:
                break
            if abs(s1 - s0) > 2 or abs(e1 - e0) > 2:
                continue
            a, z = max(s0, s1), min(e0, e1)  # a tick mark may stick out of the spine's line
            left = [x for x in range(a, min(a + 10, z)) if dark[y0:y1 + 1, x].mean() > 0.85]
            right = [x for x in range(max(z - 10, a), z) if dark[y0:y1 + 1, x].mean() > 0.85]
            if left and right and right[-1] - left[0] >= 20:
                boxes.append((left[0], y0, right[-1] + 1, y1))
                break

    def inside(a, b) -> bool:
        return a != b and b[0] <= a[0] + 2 and b[1] <= a[1] + 2 and a[2] <= b[2] + 2 and a[3] <= b[3] + 2

    return [a for a in boxes if not any(inside(a, b) for b in boxes)]


def ink(png: bytes) -> list[int]:
    """The number of drawn pixels in each panel of a PNG (one number for a figure without frames)."""
    from PIL import Image

    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float) / 255
    shares = []
    for x0, y0, x1, y1 in panels(rgb):
        inner = rgb[y0 + 3:y1 - 2, x0 + 3:x1 - 3]
        if inner.size == 0:
            continue
        background = np.median(inner.reshape(-1, 3), axis=0)
        shares.append(int((np.abs(inner - background).max(axis=2) > 0.1).sum()))
    if not shares:
        shares.append(int((np.abs(rgb - rgb[0, 0]).max(axis=2) > 0.1).sum()))
    return shares


def is_blank(png: bytes) -> bool:
    """True if some panel of the image (or the frameless image) draws no data."""
    return min(ink(png)) < MIN_INK


@dataclass
class StoredImage:
    notebook: Path
    cell: int  # index in the notebook's cells
    what: str  # "figure" or "animation frame k"
    png: bytes

    def where(self) -> str:
        return f"{self.notebook.relative_to(ROOT) if self.notebook.is_relative_to(ROOT) else self.notebook}, cell {self.cell}, {self.what}"


def stored_images(nb_path: Path) -> list[StoredImage]:
    """Every PNG a notebook's stored outputs show: figures, and every frame of every animation."""
    nb = json.loads(Path(nb_path).read_text())
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code" or "remove-cell" in cell.get("metadata", {}).get("tags", []):
            continue
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if "image/png" in data:
                out.append(StoredImage(Path(nb_path), i, "figure", base64.b64decode("".join(data["image/png"]))))
            html = "".join(data.get("text/html", ""))
            for k, m in enumerate(_FRAME.finditer(html)):
                out.append(StoredImage(Path(nb_path), i, f"animation frame {k + 1}", base64.b64decode(m["data"])))
    return out


def notebooks(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def blank_figures(paths: list[Path]) -> list[str]:
    """Where a stored figure or animation frame of ``paths`` draws no data, with its panels' ink."""
    return [f"{img.where()}: no data drawn (drawn pixels per panel: {ink(img.png)})"
            for nb in paths for img in stored_images(nb) if is_blank(img.png)]


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or notebooks()
    bad = blank_figures(paths)
    print("\n".join(bad) or f"no blank figure in {len(paths)} notebooks")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
