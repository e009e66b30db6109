/**
 * The text a page shows people, for notices such as "no results" or "unusual traffic". Never
 * `textContent`: app shells inline their whole UI dictionary in scripts (the real m.place capture
 * carries the no-results wording in one, ../shared/real-pages/naver), so a page that only loaded
 * its script would read as saying it. What a person cannot see is left out: scripts, styles,
 * templates, and elements hidden by the `hidden` attribute, `aria-hidden`, or an inline
 * `display: none` / `visibility: hidden` (a class that hides is the site's own; each site's
 * reader checks those it knows).
 */

const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i;

/** True when `el` is hidden by its own markup (not by a class or a style sheet). */
export function hiddenByMarkup(el: Element): boolean {
  if (SKIPPED_TAGS.has(el.tagName)) return true;
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  return HIDDEN_STYLE.test(el.getAttribute('style') ?? '');
}

/** At most this much text is read: a notice is short, a page may be huge. */
const MAX_TEXT = 200_000;

/** The shown text under `root`, text nodes joined by a space (not cleaned: each site cleans its own). */
export function visibleText(root: Node | null | undefined, max = MAX_TEXT): string {
  if (!root) return '';
  const parts: string[] = [];
  let length = 0;
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child && length < max; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const t = child.textContent ?? '';
        parts.push(t);
        length += t.length;
      } else if (child.nodeType === 1 && !hiddenByMarkup(child as Element)) {
        visit(child);
      }
    }
  };
  if (root.nodeType === 1 && hiddenByMarkup(root as Element)) return '';
  visit(root);
  return parts.join(' ');
}
