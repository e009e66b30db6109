import { describe, expect, it } from 'vitest';
import { idsFromPair } from '../../utils/providers/google/ids';
import { readPlaceArray } from '../../utils/providers/google/place-array';
import { parseTbmBody, type TbmParse } from '../../utils/providers/google/tbm';

/** A place array P with the §1.5 paths filled in; `patch` overrides single indices. */
function placeArray(lo: bigint, name: string, patch: Record<number, unknown> = {}): unknown[] {
  const ids = idsFromPair(0x14a1a32f316b15a1n, lo);
  const p: unknown[] = new Array(180).fill(null);
  p[4] = [null, null, '€', null, null, null, null, 4.5, 120];
  p[7] = [`/url?q=https://${name.toLowerCase()}.example/&opi=1`, `${name.toLowerCase()}.example`];
  p[9] = [null, null, 38.03, 23.7];
  p[10] = ids.featureId;
  p[11] = name;
  p[13] = ['Cafe'];
  p[39] = '1 Main St, Athens';
  p[78] = ids.placeId;
  p[178] = [['+30 21 0000 0000']];
  for (const [i, v] of Object.entries(patch)) p[Number(i)] = v;
  return p;
}

/** A response body: header element 0, then one item per place with P at [14]. */
function body(places: unknown[]): string {
  const items = places.map((p) => {
    const item: unknown[] = new Array(15).fill(null);
    item[14] = p;
    return item;
  });
  return `)]}'\n${JSON.stringify([['coffee', [[null, null, 'header'], ...items]]])}`;
}

function places(out: TbmParse) {
  if (out.blocked) throw new Error(`blocked: ${out.reason}`);
  return out;
}

describe('a well-formed hand-made response', () => {
  it('reads the fields of §1.5, unwrapping /url?q= websites', () => {
    const out = places(parseTbmBody(body([placeArray(5n, 'Alpha')])));
    expect(out.places).toHaveLength(1);
    expect(out.places[0]).toMatchObject({
      key: 'google:5',
      name: 'Alpha',
      website: 'https://alpha.example/',
      rating: 4.5,
      reviews: 120,
      category: 'Cafe',
      address: '1 Main St, Athens',
      phone: '+30 21 0000 0000',
      lat: 38.03,
      lng: 23.7,
    });
  });

  it('accepts a place known only by its feature id, or only by its place_id', () => {
    const onlyFeature = placeArray(6n, 'F', { 78: null });
    const onlyPlace = placeArray(7n, 'P', { 10: null });
    const out = places(parseTbmBody(body([onlyFeature, onlyPlace])));
    expect(out.places.map((p) => p.key)).toEqual(['google:6', 'google:7']);
  });
});

describe('forged or broken items are dropped and counted, never thrown', () => {
  const good = placeArray(1n, 'Good');
  const forged: Array<[string, unknown]> = [
    ['name is a number', placeArray(2n, 'x', { 11: 42 })],
    ['huge name', placeArray(3n, 'x', { 11: 'A'.repeat(100_000) })],
    ['huge address', placeArray(4n, 'x', { 39: 'B'.repeat(10_000) })],
    ['contradicting ids', placeArray(5n, 'x', { 78: idsFromPair(1n, 999n).placeId })],
    ['garbage feature id', placeArray(6n, 'x', { 10: 'not-an-id', 78: null })],
    ['no ids at all', placeArray(7n, 'x', { 10: null, 78: null })],
    ['latitude 500', placeArray(8n, 'x', { 9: [null, null, 500, 23.7] })],
    ['latitude a string', placeArray(9n, 'x', { 9: [null, null, '38.0', 23.7] })],
    ['rating 7', placeArray(10n, 'x', { 4: [null, null, null, null, null, null, null, 7, 1] })],
    ['fractional review count', placeArray(11n, 'x', { 4: [null, null, null, null, null, null, null, 4, 1.5] })],
    ['javascript: website', placeArray(12n, 'x', { 7: ['javascript:alert(1)'] })],
    ['website an object', placeArray(13n, 'x', { 7: [{ href: 'https://x.example' }] })],
    ['phone a list', placeArray(14n, 'x', { 178: [[['+1']]] })],
    ['category a number', placeArray(15n, 'x', { 13: [5] })],
    ['P is a string', 'P'],
    ['P is an object', { 11: 'x' }],
  ];

  it.each(forged)('%s', (_, p) => {
    const direct = readPlaceArray(p);
    expect(direct.ok).toBe(false);
  });

  it('keeps the good item among all the forged ones', () => {
    const arrays = forged.map(([, p]) => p).filter((p) => Array.isArray(p));
    const out = places(parseTbmBody(body([good, ...arrays])));
    expect(out.places.map((p) => p.name)).toEqual(['Good']);
    expect(out.dropped).toBe(arrays.length);
  });
});

describe('framing', () => {
  const ok = body([placeArray(1n, 'One')]);

  it('accepts the tch=1 wrapper with its /*""*/ trailer', () => {
    const wrapped = `${JSON.stringify({ c: 0, d: ok })}/*""*/`;
    expect(places(parseTbmBody(wrapped)).places).toHaveLength(1);
  });

  it.each([
    ['an HTML block page', '<!DOCTYPE html><html><form id="captcha-form"></form></html>'],
    ['empty', ''],
    ['JSON without the prefix', JSON.stringify([['coffee', []]])],
    ['prefix with broken JSON', ')]}\'\n[["coffee",'],
    ['wrapper whose d lacks the prefix', JSON.stringify({ c: 0, d: '[1,2]' })],
    ['wrapper whose d is not a string', JSON.stringify({ c: 0, d: [1, 2] })],
    ['wrapper that is not JSON', '{"c":0,"d":'],
  ])('calls %s blocked', (_, text) => {
    expect(parseTbmBody(text).blocked).toBe(true);
  });

  it('a response without places is not blocked, just empty', () => {
    const out = places(parseTbmBody(`)]}'\n[["coffee",[[null,"header"]]]]`));
    expect([out.places, out.dropped]).toEqual([[], 0]);
  });

  it('survives deeply nested junk in the tree walk', () => {
    let deep = '0';
    for (let i = 0; i < 5000; i++) deep = `[${deep}]`;
    expect(places(parseTbmBody(`)]}'\n${deep}`)).places).toEqual([]);
  });
});
