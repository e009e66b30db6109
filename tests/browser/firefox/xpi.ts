/**
 * The production build packed as an .xpi, the file a user's Firefox keeps in its profile. An
 * .xpi is a plain zip; this writes one with stored (uncompressed) entries, which Firefox reads
 * like any other, so the tests need no zip package and no `zip` binary.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';

interface Entry {
  name: string;
  data: Buffer;
}

/** Every file under `dir`, with its path inside the archive (forward slashes). */
function filesUnder(dir: string, prefix = ''): Entry[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const inArchive = prefix ? `${prefix}/${name}` : name;
    return statSync(full).isDirectory() ? filesUnder(full, inArchive) : [{ name: inArchive, data: readFileSync(full) }];
  });
}

/** A zip archive of `entries`, every entry stored (method 0). */
export function zipStored(entries: readonly Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time and date: 1980, none needed
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // version needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42); // the local header's offset (bytes 30–41: no extras, comment, disk, attributes)
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** The manifest's own files: what a build must hold before it is worth packing. */
function referencedFiles(manifest: {
  background?: { scripts?: string[] };
  action?: { default_popup?: string };
  content_scripts?: { js?: string[] }[];
}): string[] {
  return [
    ...(manifest.background?.scripts ?? []),
    manifest.action?.default_popup ?? 'popup.html',
    ...(manifest.content_scripts ?? []).flatMap((c) => c.js ?? []),
  ];
}

/**
 * Pack `buildDir` into `xpiPath`. A build the other side of the desk is rewriting (WXT empties
 * the folder first) is caught here, by a manifest that does not parse or a file it names that
 * is missing, and named as such instead of failing later as an add-on Firefox will not load.
 */
export function packXpi(buildDir: string, xpiPath: string): { files: number; bytes: number } {
  const manifestPath = path.join(buildDir, 'manifest.json');
  const rebuild = `run \`npm run build:firefox\` (again, if a build was running)`;
  if (!existsSync(manifestPath)) throw new Error(`No Firefox build at ${buildDir}: ${rebuild}`);
  let manifest: Parameters<typeof referencedFiles>[0];
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (e) {
    throw new Error(`The Firefox build's manifest.json does not parse (${String(e)}): ${rebuild}`);
  }
  const missing = referencedFiles(manifest).filter((f) => !existsSync(path.join(buildDir, f)));
  if (missing.length) throw new Error(`The Firefox build at ${buildDir} lacks ${missing.join(', ')}: ${rebuild}`);
  const entries = filesUnder(buildDir);
  const zip = zipStored(entries);
  writeFileSync(xpiPath, zip);
  return { files: entries.length, bytes: zip.length };
}
