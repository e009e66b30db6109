/**
 * Start a replica from the command line:
 *   npx tsx tests/replica/cli.ts --places 20000 --seed 1 --port 8443 [--preset mixedMetro] [--switch consent=true]
 * then launch Chromium with the printed flags and open https://www.google.com/maps/search/cafe/@37.5665,126.978,15z.
 */
import { parseArgs } from 'node:util';
import { chromiumArgs, startReplica } from './server';
import type { Switches } from './switches';
import { createPresetWorld, createWorld, type PresetName, WORLD_PRESETS } from './world';

function parseSwitch(text: string): Partial<Switches> {
  const eq = text.indexOf('=');
  if (eq < 1) throw new Error(`--switch wants name=value, got "${text}"`);
  const name = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw === 'null') value = null;
  else if (raw !== '' && Number.isFinite(Number(raw))) value = Number(raw);
  else if (name === 'hangPaths') value = raw.split(',').filter(Boolean);
  return { [name]: value } as Partial<Switches>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      places: { type: 'string', default: '20000' },
      seed: { type: 'string', default: '1' },
      port: { type: 'string', default: '8443' },
      lat: { type: 'string', default: '37.5665' },
      lng: { type: 'string', default: '126.978' },
      radius: { type: 'string', default: '10' },
      preset: { type: 'string' },
      switch: { type: 'string', multiple: true, default: [] },
    },
  });
  const seed = Number(values.seed);
  const preset = values.preset as PresetName | undefined;
  if (preset !== undefined && !(preset in WORLD_PRESETS)) {
    throw new Error(`--preset must be one of ${Object.keys(WORLD_PRESETS).join(', ')}`);
  }
  const world = preset
    ? createPresetWorld(preset, seed)
    : createWorld({
        seed,
        places: Number(values.places),
        centre: { lat: Number(values.lat), lng: Number(values.lng) },
        radiusKm: Number(values.radius),
      });
  const switches = Object.assign({}, ...values.switch.map(parseSwitch)) as Partial<Switches>;
  const replica = await startReplica({ world, port: Number(values.port), switches });
  const flags = chromiumArgs(replica.port);
  console.log(`replica: ${world.places.length} places (seed ${seed}) on port ${replica.port}`);
  console.log(`chromium flags: ${flags.map((f) => (f.includes(' ') ? `"${f}"` : f)).join(' ')}`);
  console.log(`try: https://www.google.com/maps/search/cafe/@${world.centre.lat},${world.centre.lng},15z`);
  const stop = (): void => {
    void replica.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
