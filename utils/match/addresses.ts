/**
 * A road address as a key that the three maps' spellings share: the road's name and the
 * building number, nothing else. `서울특별시 중구 세종대로 12 3층`, `서울 중구 세종대로 12` and
 * Google's English `12 Sejong-daero, Jung District, Seoul` all give `sejongdaero 12`. The city,
 * district, floor and unit are left out on purpose: sites write them differently or not at
 * all, and a key is only compared between pins a few hundred metres apart, where one road and
 * number is one building.
 */
import { romanize } from 'es-hangul';
import { romanised, soundOf } from './names';

/**
 * `세종대로 12`, `테헤란로4길 5-1`, `종로 1` (the number may have a sub-number after a hyphen).
 * Not a lot address whose neighbourhood's name ends in 로 (`충무로1가 24-11`: the number is the
 * neighbourhood's `1가`, issue 36).
 */
const KOREAN_ROAD = /([\uac00-\ud7a3\d]+(?:대로|로|길))\s*(\d+(?:-\d+)?)(?![\d-]|\s*번지|가)/u;
/** `12 Sejong-daero`, `5-1 Teheran-ro 4-gil`. */
const LATIN_ROAD = /\b(\d+(?:-\d+)?)\s+([a-z]+(?:-[a-z]+)*-(?:daero|ro|gil)(?:\s+\d+(?:beon)?-gil)?)\b/i;

/** The road-and-number key of an address, or null when the text names no road (a lot number only). */
export function roadKey(address: string | null | undefined): string | null {
  if (!address) return null;
  const text = address.normalize('NFKC');
  const ko = KOREAN_ROAD.exec(text);
  if (ko) return `${roadName(ko[1]!)} ${ko[2]}`;
  const en = LATIN_ROAD.exec(text);
  if (en) return `${roadName(en[2]!)} ${en[1]}`;
  return null;
}

/**
 * The same key as Google's English names tend to write it: the name before `로`/`길`/`대로`
 * romanised as a word, with the sound changes the official romanisation writes (`독막로` →
 * `dongmakro`, as the sign's `Dongmak-ro`, where syllable by syllable gives `dokmakro`); the
 * suffix apart, as road signs keep it (`종로` stays `jongro`). Null when it is the same as
 * `roadKey`'s, or the address is not a Korean one (issue 36: English road names read as another
 * road cost half the pairs they touched).
 */
export function roadKeyAsSpoken(address: string | null | undefined): string | null {
  if (!address) return null;
  const ko = KOREAN_ROAD.exec(address.normalize('NFKC'));
  if (!ko) return null;
  const name = ko[1]!;
  const suffix = /(대로|로|길)$/u.exec(name)![1]!;
  const stem = name.slice(0, name.length - suffix.length);
  // A stem with digits is a numbered side road (`테헤란로4길`): its syllables are the key already.
  if (!stem || /\d/.test(stem)) return null;
  const spoken = `${romanize(stem)}${romanised(suffix)}`.replace(/[\s-]/g, '').toLowerCase();
  const key = `${spoken} ${ko[2]}`;
  return key === roadKey(address) ? null : key;
}

/**
 * A road's name in Latin letters, romanised syllable by syllable (not by pronunciation: `종로`
 * is `jongro`, as the road sign's `Jong-ro`, where pronunciation would give `jongno`).
 */
function roadName(name: string): string {
  return romanised(name.toLowerCase())
    .replace(/beon(?=-?gil)/g, '')
    .replace(/[\s-]/g, '');
}

/** Bounded like names.ts's keys: a run looks each key up many times, a long-lived page keeps no more than this. */
const SOUNDS_KEPT = 50_000;
const SOUNDS = new Map<string, string>();

/**
 * A road key as its road's name sounds, the number kept: Google writes a road's official English
 * name (`Olympic-ro`, not `Ollimpik-ro`) and its own spellings of others (`Seongsu-ileo-ro`), which
 * no syllable-by-syllable romanisation of `올림픽로` or `성수일로` gives; their consonants agree.
 * Kept per key: a run compares each key with many others.
 */
export function roadSound(key: string): string {
  let s = SOUNDS.get(key);
  if (s === undefined) {
    if (SOUNDS.size >= SOUNDS_KEPT) SOUNDS.clear();
    const cut = key.lastIndexOf(' ');
    s = `${soundOf(key.slice(0, cut))} ${key.slice(cut + 1)}`;
    SOUNDS.set(key, s);
  }
  return s;
}
