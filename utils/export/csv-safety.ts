/**
 * Spreadsheet formula injection: Excel, LibreOffice and Google Sheets run a cell that starts
 * with `=`, `+`, `-` or `@` as a formula, and tab / carriage return can smuggle one in after
 * a field break. Listing names, addresses and websites come from the page, so every text cell
 * is neutralised by prefixing a single quote, which spreadsheets show as text (OWASP advice).
 */
export function neutraliseCell(value: string): string {
  // The first character's code, not a regex: this runs for every text cell of a 100k export.
  // String() keeps the old regex test's coercion for a value that is not a string after all.
  const first = String(value).charCodeAt(0);
  return first === 61 /* = */ || first === 43 /* + */ || first === 45 /* - */ || first === 64 /* @ */ || first === 9 /* \t */ || first === 13 /* \r */
    ? `'${value}`
    : value;
}
