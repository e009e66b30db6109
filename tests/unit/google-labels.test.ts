import { describe, expect, it } from 'vitest';
import { unwrapLink } from '../../utils/providers/google/fields';
import {
  cleanText,
  isPriceText,
  looksLikePhone,
  parseParenthesisedCount,
  parseRatingLabel,
  parseReviewCount,
  splitInfoLine,
} from '../../utils/providers/google/labels';

describe('cleanText', () => {
  it('drops private-use icon glyphs and collapses every kind of space', () => {
    expect(cleanText('\uE8B5 Open\u00a0⋅\u202fCloses 10\u2009pm \uF8FF ')).toBe('Open ⋅ Closes 10 pm');
    expect(cleanText('\n   Stasandrou 10, Nicosia 1060      ')).toBe('Stasandrou 10, Nicosia 1060');
    expect(cleanText(null)).toBe('');
  });

  it('keeps characters just outside the private-use area', () => {
    expect(cleanText('\uDFFF\uE000x\uF8FF\uF900')).toBe('\uDFFFx\uF900');
  });
});

describe('splitInfoLine', () => {
  it('splits on both separators and drops parts that were only an icon', () => {
    // The Amsterdam card line: category, a wheelchair glyph, the address.
    expect(splitInfoLine('Dutch · \uE934 · Leidsekruisstraat 21')).toEqual(['Dutch', 'Leidsekruisstraat 21']);
    expect(splitInfoLine('Open ⋅ Closes 10 pm · +1 305-440-0878')).toEqual(['Open', 'Closes 10 pm', '+1 305-440-0878']);
    expect(splitInfoLine('   ')).toEqual([]);
  });
});

describe('parseRatingLabel', () => {
  it.each([
    ['4.5 stars 1,234 Reviews', 4.5, 1234], // signed in
    ['4.9 stars', 4.9, null], // signed-out limited view
    [' 4.7 stars ', 4.7, null], // the place header's star image (Nicosia capture)
    ['4.7(8,713)', 4.7, 8713], // card / header text
    ['4,5 Sterne 1.234 Rezensionen', 4.5, 1234], // decimal comma, dot thousands
    ['4,2 étoiles 12 345 avis', 4.2, 12345], // space thousands
    ['5 stars, 6,921 reviews', 5, 6921],
    ['3.0 stars 1.2K Reviews', 3, 1200],
  ])('%s', (label, rating, reviews) => {
    expect(parseRatingLabel(label)).toEqual({ rating, reviews });
  });

  it.each(['No wheelchair accessible entrance', '8,713 reviews', '', '12 stars'])('refuses %j', (label) => {
    expect(parseRatingLabel(label)).toBeNull();
  });

  it('reads back any rating and count it is given (seeded property)', () => {
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 300; i++) {
      const rating = Math.round(next() * 50) / 10;
      const reviews = Math.floor(next() * 5_000_000);
      const label = `${rating.toFixed(1)} stars ${reviews.toLocaleString('en-US')} Reviews`;
      expect(parseRatingLabel(label)).toEqual({ rating, reviews });
      const german = `${rating.toFixed(1).replace('.', ',')} Sterne ${reviews.toLocaleString('de-DE')} Rezensionen`;
      expect(parseRatingLabel(german)).toEqual({ rating, reviews });
    }
  });
});

describe('review counts', () => {
  it.each([
    ['(1,234)', 1234],
    ['1.2K', 1200],
    ['3M', 3_000_000],
    ['516 αξιολογήσεις', 516],
    ['20 reviews', 20],
  ])('%s → %d', (text, n) => {
    expect(parseReviewCount(text)).toBe(n);
  });

  it('only takes parenthesised counts where a count must be in parentheses', () => {
    expect(parseParenthesisedCount('(8,713)')).toBe(8713);
    expect(parseParenthesisedCount('8,713')).toBeNull();
    expect(parseParenthesisedCount('Leidsekruisstraat (21)x')).toBeNull();
  });
});

describe('price and phone recognition', () => {
  it('tells prices, phones and addresses apart', () => {
    for (const price of ['$$', '€20–30', '€100+', '20–30 €']) expect(isPriceText(price)).toBe(true);
    for (const phone of ['+1 305-440-0878', '+31 20 620 0922', '22 783333']) expect(looksLikePhone(phone)).toBe(true);
    for (const text of ['Leidsekruisstraat 21', 'Spuistraat 210, 3HG', 'Open', '1017']) {
      expect(isPriceText(text)).toBe(false);
      expect(looksLikePhone(text)).toBe(false);
    }
  });
});

describe('unwrapLink', () => {
  it('unwraps Google redirects and keeps direct http(s) links', () => {
    expect(unwrapLink('/url?q=https://example.com/a%3Fb%3D1&sa=U')).toBe('https://example.com/a?b=1');
    expect(unwrapLink('https://www.google.com/aclk?sa=L&adurl=https%3A%2F%2Fshop.example%2F')).toBe('https://shop.example/');
    expect(unwrapLink('https://www.thepantry.nl/?redirect=yes')).toBe('https://www.thepantry.nl/?redirect=yes');
  });

  it('drops ad links without a target, nested redirects and non-web schemes', () => {
    expect(unwrapLink('/aclk?sa=L&ai=X&gclid=Y&adurl=&rct=j')).toBeNull();
    expect(unwrapLink('/url?q=https://www.google.com/url?q=https://evil.example')).toBeNull();
    expect(unwrapLink('javascript:alert(1)')).toBeNull();
    expect(unwrapLink('/url?q=javascript:alert(1)')).toBeNull();
    expect(unwrapLink(`https://example.com/${'a'.repeat(3000)}`)).toBeNull();
  });
});
