/**
 * The layers, as code: the source of docs/ARCHITECTURE.md's "Layers" (tests/unit/architecture-doc.test.ts
 * checks the two agree). Run by `npm test` (`npm run layers`).
 *
 * Every folder of `utils/` has a rank; a module imports only from its own folder and folders
 * ranked below it (imports point downward), so no two folders can import each other. The one
 * exception is the IndexedDB schema (`utils/store/schema.ts`), the only aggregator: it names
 * every pass's record types, type-only. Content scripts import nothing of the background.
 */

/** Bottom to top, one folder per rank: a folder imports only from those before it in this list. */
const LAYERS = [
  'geo', // areas, Web Mercator, polygons: pure maths
  'net', // addresses and hosts: pure
  'i18n', // the pages' words
  'domain', // the vocabulary everything shares: a place, Cell, Sweep, Observation, statuses, page audits
  'config', // settings, storage keys, keywords: what every context reads
  'hours', // opening hours: the sites' words read as a week (pure)
  'listing', // a place as stored: field bounds, merge rules, phones
  'filters', // which places count: category, name, rating, reviews, website, phone, status
  'grid', // tiling and splits
  'coverage', // the safe searched box, calibration, proof, audit
  'messaging', // who sends what to whom
  'content', // what every content script shares
  'providers', // one folder per map site
  'report', // the page check and the page report: what the readers see, and a redacted capture
  'input', // a list of places as input: links, share links and ids read and checked
  'store', // IndexedDB
  'queue', // the job machinery
  'browser', // the worker tab
  'match', // the same business across sites
  'contacts', // the contacts pass
  'details', // the place-details pass
  'reviews', // the reviews pass
  'lists', // a list of places collected as a collection: its record, queues, loop and commands
  'export', // files
  'schedule', // saved searches and their runs
  'sweep', // the sweep's driver and commands
  'team', // a sweep shared through CouchDB
  'dashboard', // the dashboard's model
  'health', // the health panel's model
  'app', // the service worker's composition root: every pass wired, listeners registered
];

const folder = (name) => `^utils/${name}/`;
const any = (names) => `^utils/(${names.join('|')})/`;

const layerRules = LAYERS.flatMap((name, rank) => {
  const above = LAYERS.slice(rank + 1);
  return above.length
    ? [
        {
          name: `layer-${name}`,
          comment: `utils/${name}/ imports only from folders below it: ${LAYERS.slice(0, rank).join(', ') || 'none'}`,
          severity: 'error',
          from: { path: folder(name), pathNot: '^utils/store/schema\\.ts$' },
          to: { path: any(above) },
        },
      ]
    : [];
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'schema-type-only',
      comment: "the IndexedDB schema names the passes' records by type only",
      severity: 'error',
      from: { path: '^utils/store/schema\\.ts$' },
      to: { path: any(LAYERS.slice(LAYERS.indexOf('store') + 1)), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'utils-below-the-pages',
      comment: 'utils/ never imports the entry points or the components',
      severity: 'error',
      from: { path: '^utils/' },
      to: { path: '^(entrypoints|components)/' },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'a module directly under utils/ has no rank: it belongs in one of the folders',
      severity: 'error',
      from: { path: '^utils/[^/]+$' },
      to: {},
    },
    {
      name: 'content-scripts-not-background',
      comment: "a content script reaches none of the background's folders, through any chain of imports",
      severity: 'error',
      from: { path: '^entrypoints/[^/]+\\.content(\\.tsx?$|/)' },
      to: {
        path: any(['store', 'queue', 'browser', 'match', 'contacts', 'details', 'export', 'schedule', 'sweep', 'team', 'dashboard', 'health', 'app']),
        reachable: true,
      },
    },
    {
      name: 'no-circular',
      comment: 'modules do not import each other round in a circle',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.wxt|\\.output|tests|scripts)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
