/**
 * Spreadsheet formula injection: Excel, LibreOffice and Google Sheets run a cell that starts
 * with `=`, `+`, `-` or `@` as a formula, and tab / carriage return can smuggle one in after
 * a field break. Listing names, addresses and websites come from the page, so every text cell
 * is neutralised by prefixing a single quote, which spreadsheets show as text (OWASP advice).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
