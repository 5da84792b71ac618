// Accessibility repairs of the theme's markup (sphinx-book-theme / pydata-sphinx-theme) and of the
// bibliography (docutils), found by the axe-core scan of tests/test_browser.py. Each one only adds
// or corrects ARIA attributes; nothing visible changes.
(() => {
  const repair = () => {
    // Sidebar: the chevron that opens a chapter's sections is a <summary> with no text.
    document.querySelectorAll("nav details > summary:not([aria-label])").forEach((summary) => {
      if (summary.textContent.trim()) return;
      const link = summary.parentElement.parentElement.querySelector(":scope > a");
      summary.setAttribute("aria-label", `Sections of ${link ? link.textContent.trim() : "this chapter"}`);
    });
    // The colour-mode button is named "Color mode"; its icons (Font Awesome turns them into <svg>
    // with a <title>: "Light", "Dark", ...) are decoration, not part of that name.
    document.querySelectorAll(".theme-switch-button .theme-switch").forEach((icon) => {
      icon.removeAttribute("title");
      icon.removeAttribute("aria-labelledby");
      icon.removeAttribute("role");
      icon.setAttribute("aria-hidden", "true");
      icon.querySelectorAll("title").forEach((t) => t.remove());
    });
    // The search field shows "Search Ctrl+K": its accessible name must contain that visible text.
    document.querySelectorAll("button.search-button-field[aria-label]").forEach((button) => {
      button.setAttribute("aria-label", button.textContent.replace(/\s+/g, " ").trim());
    });
    // A folded code cell (myst-nb's hide-input) opens with a <summary> that shows "Show code cell
    // source" (or "Hide ..."), but is named "Toggle hidden content": drop that label, so that the
    // accessible name is the visible text (the hidden one of the two is display: none).
    document.querySelectorAll('details.hide > summary[aria-label="Toggle hidden content"]')
      .forEach((summary) => summary.removeAttribute("aria-label"));
    // Sidebar: the book's title (a link to the home page) sits outside every landmark (axe "region"):
    // it is navigation, named as such.
    document.querySelectorAll(".sidebar-primary-item:not([role])").forEach((item) => {
      if (item.querySelector(":scope > a.navbar-brand")) {
        item.setAttribute("role", "navigation");
        item.setAttribute("aria-label", "Book title");
      }
    });
    // Bibliography: role="list" needs list items (docutils writes the deprecated doc-biblioentry).
    document.querySelectorAll('[role="list"].citation-list > [role="doc-biblioentry"]')
      .forEach((entry) => entry.setAttribute("role", "listitem"));
  };
  // A code block that scrolls must be reachable with the keyboard. The theme gives a tab stop to
  // the blocks that scroll when the page loads; a block inside a closed solution dropdown has no
  // full width then (and a tab stop of -1) and scrolls only once the reader opens it, so watch every block's size.
  const tabStops = new ResizeObserver((entries) => {
    for (const { target } of entries) {
      const scrolls = target.scrollWidth > target.clientWidth || target.scrollHeight > target.clientHeight;
      // (the theme marks the blocks that did not scroll at load with tabindex="-1")
      if (scrolls && target.getAttribute("tabindex") !== "0") target.setAttribute("tabindex", "0");
    }
  });
  document.addEventListener("DOMContentLoaded", () => {
    repair();
    document.querySelectorAll("pre").forEach((pre) => tabStops.observe(pre));
    // Font Awesome replaces the <i> icons by <svg> after this point: repair again when it does.
    document.querySelectorAll(".theme-switch-button").forEach((button) =>
      new MutationObserver(repair).observe(button, { childList: true, subtree: true }));
  });
})();
