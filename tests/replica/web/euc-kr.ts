/**
 * Real EUC-KR bytes for the replica web's Korean pages. Node's TextDecoder decodes euc-kr but
 * TextEncoder only writes UTF-8, so the encoder is the decoder inverted over the KS X 1001 plane
 * (0xA1–0xFE × 0xA1–0xFE), built once a process. Only that plane: a page that would need a
 * UHC-only syllable (CP949's extension) is a generator bug and throws rather than writing bytes
 * an EUC-KR reader could not decode.
 */

let table: Map<string, number> | null = null;

function encoderTable(): Map<string, number> {
  if (table) return table;
  const decoder = new TextDecoder('euc-kr', { fatal: true });
  const built = new Map<string, number>();
  const pair = new Uint8Array(2);
  for (let lead = 0xa1; lead <= 0xfe; lead++) {
    for (let trail = 0xa1; trail <= 0xfe; trail++) {
      pair[0] = lead;
      pair[1] = trail;
      let text: string;
      try {
        text = decoder.decode(pair);
      } catch {
        continue; // an unassigned code point
      }
      // The first code point wins: KS X 1001 has no duplicate mappings, but keep the encoder a function anyway.
      if (text.length === 1 && !built.has(text)) built.set(text, (lead << 8) | trail);
    }
  }
  table = built;
  return built;
}

/** `text` in EUC-KR; throws on a character outside ASCII and KS X 1001. */
export function encodeEucKr(text: string): Uint8Array<ArrayBuffer> {
  const codes = encoderTable();
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    const code = codes.get(ch);
    if (code === undefined) throw new Error(`not encodable in EUC-KR: U+${c.toString(16).toUpperCase().padStart(4, '0')} (${ch})`);
    out[n++] = code >> 8;
    out[n++] = code & 0xff;
  }
  return out.subarray(0, n);
}
