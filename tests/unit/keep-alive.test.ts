/**
 * The background kept from being suspended while it waits on a page or builds a file
 * (utils/browser/keep-alive.ts): one API call per period while the work runs, none after, and
 * a browser without the call (or one that throws) never breaks the work.
 */
import { describe, expect, it } from 'vitest';
import { keptAlive } from '../../utils/browser/keep-alive';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('keptAlive', () => {
  it('pings while the work runs and stops with it', async () => {
    let pings = 0;
    const result = await keptAlive(
      async () => void pings++,
      async () => {
        await wait(60);
        return 'done';
      },
      10,
    );
    expect(result).toBe('done');
    const during = pings;
    expect(during).toBeGreaterThanOrEqual(3);
    await wait(50);
    expect(pings).toBe(during);
  });

  it('the work fails as it would have, and the pings stop too', async () => {
    let pings = 0;
    await expect(
      keptAlive(
        async () => void pings++,
        async () => {
          await wait(30);
          throw new Error('the page went away');
        },
        10,
      ),
    ).rejects.toThrow('the page went away');
    const after = pings;
    await wait(40);
    expect(pings).toBe(after);
  });

  it('a ping that throws, or none at all, never breaks the work', async () => {
    const throwing = () => {
      throw new Error('runtime.getPlatformInfo not implemented');
    };
    const slow = async () => {
      await wait(30);
      return 1;
    };
    expect(await keptAlive(throwing, slow, 5)).toBe(1);
    expect(await keptAlive(undefined, async () => 2, 5)).toBe(2);
  });
});
