import type { UserError } from '../domain/errors';

export const MAX_KEYWORDS = 20;
const MAX_KEYWORD_LENGTH = 100;

/**
 * Keywords typed one per line (commas are part of a keyword: "cafe, bakery" can be a real
 * search). Blank lines are ignored, repeats dropped case-insensitively, order kept.
 */
export function parseKeywords(text: string): { ok: true; keywords: string[] } | { ok: false; error: UserError } {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const keyword = line.trim().replace(/\s+/g, ' ');
    if (!keyword) continue;
    if (keyword.length > MAX_KEYWORD_LENGTH) {
      return {
        ok: false,
        error: {
          code: 'keyword-too-long',
          message: `A keyword is longer than ${MAX_KEYWORD_LENGTH} characters: "${keyword.slice(0, 30)}…".`,
          params: { max: MAX_KEYWORD_LENGTH },
        },
      };
    }
    const folded = keyword.toLocaleLowerCase();
    if (seen.has(folded)) continue;
    seen.add(folded);
    keywords.push(keyword);
  }
  if (keywords.length === 0) {
    return { ok: false, error: { code: 'no-keywords', message: 'Enter at least one keyword (one per line).' } };
  }
  if (keywords.length > MAX_KEYWORDS) {
    return {
      ok: false,
      error: {
        code: 'too-many-keywords',
        message: `At most ${MAX_KEYWORDS} keywords per sweep; you entered ${keywords.length}.`,
        params: { max: MAX_KEYWORDS, count: keywords.length },
      },
    };
  }
  return { ok: true, keywords };
}
