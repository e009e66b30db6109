/**
 * The team's database is read like page content (utils/team/couch.ts): a 200 whose body was cut
 * short or is not JSON (the server stopped mid-answer, a proxy's page) is a failed request — a
 * CouchError the gate retries after a backoff — never a TypeError that ends the worker loop. The
 * in-process team test met one under rehearsal load ("the database stopped mid-sweep and started
 * again": `Cannot read properties of null (reading 'rows')`).
 */
import { describe, expect, it } from 'vitest';
import { CouchError, createCouch } from '../../utils/team/couch';

const target = { url: 'https://couch.example.org', db: 'team', user: 'u', password: 'p' };
const answering = (status: number, body: string) => createCouch(target, async () => new Response(body, { status }));

describe('answers the team database cut short', () => {
  for (const body of ['', '{"rows":[{"key":"a"', '<html>proxy</html>', '{"total_rows":1}', '[]'])
    it(`reading documents from a 200 of ${JSON.stringify(body)} fails as the server's, to be retried`, async () => {
      const err = await answering(200, body)
        .getMany(['a'])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CouchError);
      expect((err as CouchError).kind).toBe('server');
    });

  it('every other read and write does the same', async () => {
    for (const call of [
      (c: ReturnType<typeof answering>) => c.get('a'),
      (c: ReturnType<typeof answering>) => c.info(),
      (c: ReturnType<typeof answering>) => c.byPrefix('a'),
    ])
      await expect(call(answering(200, ''))).rejects.toBeInstanceOf(CouchError);
    await expect(answering(201, '').put({ _id: 'a' })).rejects.toBeInstanceOf(CouchError);
    await expect(answering(201, '{"ok":true}').bulk([{ _id: 'a' }])).rejects.toBeInstanceOf(CouchError);
  });

  it('a whole answer is read as before', async () => {
    const c = answering(
      200,
      JSON.stringify({
        rows: [
          { key: 'a', doc: { _id: 'a', n: 1 } },
          { key: 'b', error: 'not_found' },
        ],
      }),
    );
    expect(await c.getMany(['a', 'b'])).toEqual([{ _id: 'a', n: 1 }, null]);
  });
});
