/**
 * Draws the extension icon (a map pin on a grid) as PNGs without any image library, so the
 * icons can be regenerated on a bare machine: `npx tsx scripts/make-icons.ts`.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), y * (size * 4 + 1) + 1 + x * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of [16, 32, 48, 128]) {
  const image = png(size, (x, y) => {
    const u = (x + 0.5) / size;
    const v = (y + 0.5) / size;
    const grid = Math.abs((u * 4) % 1) < 0.08 || Math.abs((v * 4) % 1) < 0.08;
    const dx = u - 0.5;
    const dy = v - 0.4;
    const head = dx * dx + dy * dy < 0.055;
    const tail = v > 0.4 && v < 0.9 && Math.abs(dx) < (0.9 - v) * 0.45;
    const hole = dx * dx + dy * dy < 0.012;
    if ((head || tail) && !hole) return [217, 48, 37, 255];
    if (hole) return [255, 255, 255, 255];
    return grid ? [26, 115, 232, 255] : [232, 240, 254, 255];
  });
  writeFileSync(`public/icon/${size}.png`, image);
}
