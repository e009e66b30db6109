/**
 * buildExport reads the next batch while the current one becomes text (utils/export/build.ts
 * readAhead): the read must already be under way when a batch is handed on, no more than one
 * batch ahead (memory must not grow with the collection), and a consumer that stops must
 * close the store's reader.
 */
import { describe, expect, it } from 'vitest';
import { readAhead } from '../../utils/export/build';

function source(batches: number, log: string[], failAt = -1) {
  return (async function* () {
    try {
      for (let i = 0; i < batches; i++) {
        log.push(`read ${i}`);
        await new Promise((r) => setTimeout(r, 1));
        if (i === failAt) throw new Error(`read ${i} failed`);
        yield i;
      }
    } finally {
      log.push('closed');
    }
  })();
}

describe('readAhead', () => {
  it('starts the next read before handing a batch on, one batch ahead at most, in order', async () => {
    const log: string[] = [];
    for await (const i of readAhead(source(4, log))) {
      log.push(`got ${i}`);
      // Work on the batch; the next read is already running meanwhile (even the one that finds the end).
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(log).toEqual(['read 0', 'read 1', 'got 0', 'read 2', 'got 1', 'read 3', 'got 2', 'closed', 'got 3']);
  });

  it('closes the source when the consumer stops early', async () => {
    const log: string[] = [];
    for await (const i of readAhead(source(10, log))) {
      log.push(`got ${i}`);
      if (i === 1) break;
    }
    expect(log.at(-1)).toBe('closed');
    expect(log.filter((l) => l.startsWith('read')).length).toBe(3);
  });

  it('passes a failed read on to the consumer', async () => {
    const log: string[] = [];
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const i of readAhead(source(5, log, 2))) got.push(i);
      })(),
    ).rejects.toThrow('read 2 failed');
    expect(got).toEqual([0, 1]);
  });
});
