import type { CollectionSummary } from '../../utils/dashboard/collections';
import { buildExport, type ExportFormat, type ExportProgress, type ExportScope } from '../../utils/export/build';
import { coverageReportCsv } from '../../utils/export/coverage-report';
import { loadIncompleteCoverage } from '../../utils/dashboard/incomplete';
import { exportFileName } from '../../utils/export/csv';
import type { Store } from '../../utils/store';
import type { Sweep } from '../../utils/domain/sweep';
import { t } from '../../utils/i18n/t';
import type { PlaceFilter } from '../../utils/config/settings';
import { downloadChunks, downloadParts } from '../download';

/**
 * What a failed export tells the user (popup and dashboard): it failed, nothing was
 * downloaded, and why. Never a silent click.
 */
export function exportFailureText(e: unknown): string {
  const reason = e instanceof Error ? e.message : String(e);
  return t('exportFailed', reason) || `The export failed, nothing was downloaded: ${reason}`;
}

/** An export that failed; its message is already the user's text (exportFailureText). */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  constructor(cause: unknown) {
    super(exportFailureText(cause), { cause });
  }
}

/** Run an export; any failure comes out as an ExportError with the user's message. */
async function exporting(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    throw e instanceof ExportError ? e : new ExportError(e);
  }
}

export {
  ALL_PLACES_WORDS,
  buildExport,
  EXPORT_BATCH,
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportProgress,
  type ExportScope,
} from '../../utils/export/build';

/** A collection's export scope; with `filter` (the options' filters now), only the places that pass. */
export function scopeOf(collection: CollectionSummary, filter?: PlaceFilter): ExportScope {
  return {
    collection: collection.id,
    fileWords: collection.kind === 'sweep' ? collection.sweep.keywords : collection.kind === 'list' ? [collection.list.name] : [collection.id],
    ...(filter ? { filter } : {}),
  };
}

/** Export a scope and hand it to the browser as a file; any failure is an ExportError with the user's text. */
export function exportScope(store: Store, scope: ExportScope, format: ExportFormat, now: Date, onProgress?: ExportProgress): Promise<void> {
  return exporting(async () => {
    const built = await buildExport(store, scope, format, now, onProgress);
    downloadParts(built.parts, built.fileName, built.type);
  });
}

/** Stream one collection out of the store in the chosen format and hand it to the browser as a file. */
export function exportCollection(
  store: Store,
  collection: CollectionSummary,
  format: ExportFormat,
  now: Date,
  onProgress?: ExportProgress,
  filter?: PlaceFilter,
): Promise<void> {
  return exportScope(store, scopeOf(collection, filter), format, now, onProgress);
}

/**
 * The sweep's coverage report (one row per cell: its verdict and what its search showed),
 * read from the store at the moment of the click: `mapsweep_cafe_2026-11-30.coverage.csv`.
 */
export function exportCoverageReport(store: Store, sweep: Sweep, now: Date): Promise<void> {
  return exporting(async () => {
    const cells = await store.listCells(sweep.id);
    const areas = (await loadIncompleteCoverage(store, sweep.id))?.areas ?? [];
    downloadChunks([coverageReportCsv(cells, areas)], exportFileName(sweep.keywords, now, 'coverage.csv'), 'text/csv;charset=utf-8');
  });
}
