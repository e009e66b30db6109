import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { filterOrder, nextSort, PROVIDER_NAMES, safeHttpUrl, sortOrder, type ListingRow, type SortKey, type SortSpec } from '../../utils/dashboard/rows';
import { rowWindow } from '../../utils/dashboard/virtual-window';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';

/** Fixed row height (CSS px): the virtual window's arithmetic depends on it, and style.css sets it. */
export const ROW_HEIGHT = 28;
/** The sticky header row's height (style.css). */
export const HEADER_HEIGHT = 32;
/** Rows rendered beyond each edge of the viewport. */
export const OVERSCAN = 10;
/** Used until the page has been laid out (and in a DOM without layout). */
const FALLBACK_VIEWPORT = 480;

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'name', label: 'columnName' },
  { key: 'category', label: 'columnCategory' },
  { key: 'address', label: 'columnAddress' },
  { key: 'phone', label: 'columnPhone' },
  { key: 'website', label: 'columnWebsite' },
  { key: 'rating', label: 'columnRating', numeric: true },
  { key: 'reviews', label: 'columnReviews', numeric: true },
  { key: 'lastSeen', label: 'columnLastSeen' },
];

export interface ListingsTableProps {
  rows: readonly ListingRow[];
  /** Rows loaded so far (the array grows in place during the first load). */
  loaded: number;
  loading: boolean;
  expected: number;
  /** The scroll area's height; measured from the page when not given. */
  viewportHeight?: number;
}

/**
 * The selected collection's places: searchable, sortable, and virtualised, so only the rows in
 * view (plus overscan) are in the DOM and 100,000 places scroll as smoothly as 100. Page text is
 * rendered as text nodes by Preact; links are built by us or checked to be http(s).
 */
export function ListingsTable(props: ListingsTableProps) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortSpec | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const measured = useElementHeight(scroller);
  const viewport = props.viewportHeight ?? (measured > 0 ? measured : FALLBACK_VIEWPORT);

  const { rows, loaded } = props;
  // `loaded` is the version of the growing array: recompute when it moves.
  const order = useMemo(() => sortOrder(rows.slice(0, loaded), sort), [rows, loaded, sort]);
  const visible = useMemo(() => filterOrder(rows, order, query), [rows, order, query]);
  const win = rowWindow({ scrollTop, viewportHeight: viewport - HEADER_HEIGHT, rowHeight: ROW_HEIGHT, count: visible.length, overscan: OVERSCAN });

  // A new search or order starts at the top: the old position means nothing in the new list.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  }, [query, sort]);

  const indices = visible.subarray(win.first, win.end);
  return (
    <section class="listings" aria-labelledby="listings-title">
      <h2 id="listings-title">{t('sectionListings')}</h2>
      <div class="table-tools">
        <input
          type="search"
          value={query}
          aria-label={t('searchLabel')}
          placeholder={t('searchPlaceholder')}
          onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
        />
        <p role="status" aria-live="polite" class="count">
          {props.loading
            ? t('loadingPlaces', formatNumber(loaded), formatNumber(props.expected))
            : t('listingsCount', formatNumber(visible.length), formatNumber(loaded))}
        </p>
      </div>
      <div
        class="table-scroll"
        ref={scroller}
        style={props.viewportHeight ? { height: `${props.viewportHeight}px` } : undefined}
        onScroll={(e) => setScrollTop((e.currentTarget as HTMLDivElement).scrollTop)}
      >
        <table aria-rowcount={visible.length + 1} aria-labelledby="listings-title">
          <colgroup>
            {COLUMNS.map((c) => (
              <col key={c.key} class={`col-${c.key}`} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {COLUMNS.map((c) => (
                <th key={c.key} scope="col" aria-sort={sort?.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                  <button type="button" onClick={() => setSort((s) => nextSort(s, c.key))}>
                    {t(c.label)}
                    <span class="sort-mark" aria-hidden="true">
                      {sort?.key === c.key ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {win.padTop > 0 && <Spacer height={win.padTop} />}
            {Array.from(indices, (index, i) => {
              const row = rows[index];
              return row ? <Row key={index} row={row} position={win.first + i} /> : null;
            })}
            {win.padBottom > 0 && <Spacer height={win.padBottom} />}
          </tbody>
        </table>
        {!props.loading && visible.length === 0 && <p class="empty">{query.trim() ? t('noMatches', query.trim()) : t('noPlaces')}</p>}
      </div>
    </section>
  );
}

function Row(props: { row: ListingRow; position: number }) {
  const { row, position } = props;
  const website = safeHttpUrl(row.website);
  return (
    <tr aria-rowindex={position + 2} class={position % 2 ? 'odd' : undefined}>
      <td title={row.name}>
        {/* Which site the place is from: one collection (Browsing) can mix providers. */}
        <span class={`provider provider-${row.provider}`}>{PROVIDER_NAMES[row.provider] ?? row.provider}</span>{' '}
        {row.url ? (
          <a class="name" href={row.url} target="_blank" rel="noopener noreferrer">
            {row.name}
          </a>
        ) : (
          <span class="name">{row.name}</span>
        )}
      </td>
      <td title={row.category ?? undefined}>{row.category ?? ''}</td>
      <td title={row.address ?? undefined}>{row.address ?? ''}</td>
      <td>{row.phone ?? ''}</td>
      <td title={row.website ?? undefined}>
        {website ? (
          <a href={website} target="_blank" rel="noopener noreferrer">
            {row.website}
          </a>
        ) : (
          (row.website ?? '')
        )}
      </td>
      <td class="number">{row.rating === null ? '' : formatNumber(row.rating)}</td>
      <td class="number">{row.reviews === null ? '' : formatNumber(row.reviews)}</td>
      <td>{formatDateTime(row.lastSeen)}</td>
    </tr>
  );
}

function Spacer(props: { height: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer row (the virtual window's height) holds nothing to focus or read.
    <tr aria-hidden="true" class="spacer">
      <td colSpan={COLUMNS.length} style={{ height: `${props.height}px` }} />
    </tr>
  );
}

/** The element's client height, following window resizes. */
function useElementHeight(ref: { current: HTMLElement | null }): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return height;
}
