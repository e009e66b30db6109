/**
 * Business names as keys that survive the ways the three maps spell one business: spacing
 * (`스타벅스강남점` / `스타벅스 강남점`), branch suffixes (`강남점`, `강남지점`, `강남역점`,
 * `2호점`), parentheses (`스타벅스(강남점)`), and Hangul against Latin spellings of a brand
 * (`스타벅스` / `Starbucks`), which no spelling rule turns into each other: Korean writes a
 * loanword by sound, so both are reduced to a consonant skeleton of how they sound.
 */
import { romanize } from 'es-hangul';
import { distance } from 'fastest-levenshtein';

export interface NameKeys {
  /** Lower case, no spaces, punctuation or branch suffix: `스타벅스강남`, `starbucksgangnam`. */
  compact: string;
  /** The compact name with Hangul romanised syllable by syllable: `하루` is `haru`, as a Latin sign would spell it. */
  latin: string;
  /** The compact name as its consonants sound, Hangul romanised first: both of the above give `stpkskngnm`. */
  sound: string;
  /** Whether the name is written with Hangul (else Latin letters, digits and marks only). */
  hangul: boolean;
  /** The number the compact name ends with (`진미식당2`, `noodlehouse2`: its numbered branch), or '' for none. */
  branch: string;
  /** The compact name and its sound without that number: the brand a numbered branch belongs to. */
  brand: string;
  brandSound: string;
  /**
   * A name written as brand, then a branch word of its own (`스타벅스 코엑스몰점`): the brand's
   * words and the branch's, each compact; null for a name of one word or no branch word.
   */
  namedBranch: { brand: string; branch: string } | null;
}

const HANGUL = /[\uac00-\ud7a3]/;

/**
 * Branch words at the end of a name, after spaces are gone: `점` with what commonly precedes it
 * (`역점` station branch, `지점`, `본점`, `직영점`), and the Latin equivalents.
 */
const BRANCH_SUFFIX = /(?:역)?(?:직영|본|지)?점$|(?:branch|store|shop)$/u;
/**
 * A numbered branch keeps its number, written the way a Latin sign writes it: `2호점`, `2호`
 * and `2` are one branch (`진미식당 2호점`, `진미식당 2호`, `Noodle House 2`), and not the
 * first one, which has no number.
 */
const NUMBERED_BRANCH = /(\d+)호점?$/u;

/**
 * Names repeat (chains, and the same name on three sites): their keys are kept, up to a bound so
 * a long-lived page holds no more than this many whatever it links.
 */
const KEYS_KEPT = 20_000;
const KEYS = new Map<string, NameKeys>();

export function nameKeys(name: string): NameKeys {
  const kept = KEYS.get(name);
  if (kept) return kept;
  if (KEYS.size >= KEYS_KEPT) KEYS.clear();
  const keys = computeKeys(name);
  KEYS.set(name, keys);
  return keys;
}

function computeKeys(name: string): NameKeys {
  const words = name
    .normalize('NFKC')
    .toLowerCase()
    // Brackets say the branch or a note (`스타벅스(강남점)`): keep the words, drop the marks.
    .replace(/[()[\]{}<>]/g, ' ')
    .replace(/['’`.,·&\-_/\\|!?:;"“”+*#~]/g, '')
    .split(/\s+/)
    .filter(Boolean);
  const joined = words.join('');
  const compact = joined.replace(NUMBERED_BRANCH, '$1').replace(BRANCH_SUFFIX, '');
  const last = words.at(-1) ?? '';
  const namedBranch =
    words.length >= 2 && !NUMBERED_BRANCH.test(last) && BRANCH_SUFFIX.test(last) && last.replace(BRANCH_SUFFIX, '') !== ''
      ? { brand: words.slice(0, -1).join(''), branch: last.replace(BRANCH_SUFFIX, '') }
      : null;
  const latin = romanised(compact);
  const sound = soundOf(latin);
  const branch = /\d+$/.exec(compact)?.[0] ?? '';
  return {
    compact,
    latin,
    sound,
    hangul: HANGUL.test(compact),
    branch,
    brand: compact.slice(0, compact.length - branch.length),
    brandSound: sound.replace(/\d+$/, ''),
    namedBranch,
  };
}

/** Romanisation per syllable, kept: a city's names are made of a few thousand syllables, and es-hangul's romanize is slow. */
const SYLLABLES = new Map<string, string>();

/** `text` with each Hangul syllable romanised as a sign spells it (`하루` → `haru`), the rest as it is. */
export function romanised(compact: string): string {
  if (!HANGUL.test(compact)) return compact;
  let out = '';
  for (const ch of compact) {
    if (!HANGUL.test(ch)) {
      out += ch;
      continue;
    }
    let r = SYLLABLES.get(ch);
    if (r === undefined) {
      r = romanize(ch);
      SYLLABLES.set(ch, r);
    }
    out += r;
  }
  return out;
}

/**
 * The consonants of how a romanised name sounds, voicing folded (Korean romanisation writes one sound
 * `g` or `k` by position): `seutabeokseu` and `starbucks` both become `stpks`.
 * Latin spellings first lose what Korean does not write: `r` before a consonant, silent `h`,
 * `c`/`ck`/`q` for k, `ph`/`f` for p, `v` for b, `x` for ks, `w`/`y` glides.
 */
export function soundOf(latin: string): string {
  return latin
    .replace(/ck|q/g, 'k')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/c/g, 'k')
    .replace(/ph|f/g, 'p')
    .replace(/v/g, 'b')
    .replace(/x/g, 'ks')
    .replace(/z/g, 'j')
    .replace(/sh/g, 's')
    .replace(/r(?=[^aeiouy]|$)/g, '')
    .replace(/[aeiouwyh]/g, '')
    .replace(/g/g, 'k')
    .replace(/d/g, 't')
    .replace(/b/g, 'p')
    .replace(/l/g, 'r')
    .replace(/(.)\1+/g, '$1');
}

/** 1 for equal strings, 0 for nothing in common: one minus the edit distance over the longer length. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - distance(a, b) / longer;
}

/** Consonants a Latin and a Hangul name must share from their start to be read as one brand (`stpks`, Starbucks). */
const BRAND_SOUND = 4;

export interface NameAgreement {
  /** 0..1. */
  value: number;
  /** One is the other with words added (a brand against its branch), or, across scripts, both start with one brand. */
  contains: boolean;
  /**
   * One name is written in Hangul and the other in Latin letters only. A site may show a business's
   * English name (given by the owner or a translator: `Seoul Table`) where another shows its Korean
   * one (`할매국밥`): names that share no sound then say nothing against the pair.
   */
  crossScript: boolean;
  /**
   * One brand, another branch: `…타워점` and `…타워2호점` (a numbered branch is never the unnumbered
   * one), or `스타벅스 코엑스몰점` and `스타벅스 코엑스별마당점` (both name a branch, and the branch
   * words differ, neither inside the other). Evidence against, not a weak for (issue 36).
   */
  otherBranch: boolean;
}

/** How alike two names are. */
export function nameSimilarity(a: NameKeys, b: NameKeys): NameAgreement {
  // A name of nothing but marks or a branch word (``, `점`, `…`) says nothing, least of all that two agree.
  if (a.compact === '' || b.compact === '') return { value: 0, contains: false, crossScript: false, otherBranch: false };
  // `진미식당 2호점` against `진미식당` or `진미식당 3호점`: another branch of one name.
  if (a.branch !== b.branch) return { value: 0, contains: sameBrand(a, b), crossScript: a.hangul !== b.hangul, otherBranch: sameBrand(a, b) };
  const written = Math.max(similarity(a.compact, b.compact), similarity(a.latin, b.latin));
  // The sound skeleton is short: under 3 consonants it says little (`카페` and `coffee`).
  const spoken = Math.min(a.sound.length, b.sound.length) >= 3 ? similarity(a.sound, b.sound) : 0;
  const contains =
    (a.compact.length >= 2 && b.compact.length >= 2 && (a.compact.startsWith(b.compact) || b.compact.startsWith(a.compact))) ||
    (a.sound.length >= 3 && b.sound.length >= 3 && (a.sound.startsWith(b.sound) || b.sound.startsWith(a.sound)));
  const crossScript = a.hangul !== b.hangul;
  // Across scripts the branch is translated (`City Hall` / `시청`): the brand's sound is what can agree.
  const brand = crossScript && commonPrefix(a.sound, b.sound) >= BRAND_SOUND;
  return { value: Math.max(written, spoken), contains: contains || brand, crossScript, otherBranch: !crossScript && otherBranchOf(a, b) };
}

/**
 * Both are written as one brand and a branch word of their own, and the branch words differ:
 * neither inside the other, and not one sound spelt two ways (`코엑스몰` / `COEX몰`). A name
 * spelt otherwise (`맥도날드 강남점` / `맥도널드 강남점`) is no other branch: its brand differs.
 */
function otherBranchOf(a: NameKeys, b: NameKeys): boolean {
  const x = a.namedBranch;
  const y = b.namedBranch;
  if (!x || !y || x.brand !== y.brand || x.branch === y.branch) return false;
  if (x.branch.includes(y.branch) || y.branch.includes(x.branch)) return false;
  return similarity(soundOf(romanised(x.branch)), soundOf(romanised(y.branch))) < SAME_BRANCH_SOUND;
}

/** Branch words that sound this alike are one branch spelt two ways. */
const SAME_BRANCH_SOUND = 0.7;

/** Whether the names without their branch numbers are one brand: equal, or alike in how they sound. */
function sameBrand(a: NameKeys, b: NameKeys): boolean {
  return a.brand === b.brand || (a.brandSound.length >= 3 && a.brandSound === b.brandSound);
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
