import type { JSX } from 'preact';

/** Plain table look shared by the dashboard's health, saved-search and changes tables. */
export const TABLE: JSX.CSSProperties = { width: '100%', borderCollapse: 'collapse' };
export const CELL: JSX.CSSProperties = { textAlign: 'left', padding: '4px 8px', borderBottom: '1px solid #eee', verticalAlign: 'top' };
export const HEAD: JSX.CSSProperties = { ...CELL, fontSize: '12px', color: '#5f6368', fontWeight: 600 };
