/**
 * Exports of more places than this leave the popup (a smaller one takes well under a second
 * there). Apart from long-export.ts so that Node code (the export bench) can read it without
 * loading the extension's messaging, which refuses to load outside a browser extension.
 */
export const LONG_EXPORT_PLACES = 20_000;
