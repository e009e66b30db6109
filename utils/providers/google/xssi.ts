/**
 * Google prefixes its JSON with `)]}'` and a newline so that it cannot be run as a script
 * (anti-XSSI). Text that does not start with the prefix is not such a response.
 */
export const XSSI_PREFIX = ")]}'";

/** The JSON value after the prefix, or undefined when the prefix is missing or the JSON is bad. */
export function parseXssiJson(text: string): unknown {
  const s = text.trimStart();
  if (!s.startsWith(XSSI_PREFIX)) return undefined;
  try {
    return JSON.parse(s.slice(XSSI_PREFIX.length)) as unknown;
  } catch {
    return undefined;
  }
}

/** `value[i][j]…` without trusting any level to be an array. */
export function at(value: unknown, ...path: number[]): unknown {
  let v = value;
  for (const i of path) {
    if (!Array.isArray(v)) return undefined;
    v = v[i];
  }
  return v;
}
