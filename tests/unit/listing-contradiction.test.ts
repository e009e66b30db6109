/**
 * Whether a second reading of a place (page data, a place page) describes the listing already
 * held (utils/listing/contradiction.ts): the details pass drops a place page's reading whole on
 * a contradiction, so text a page carries on one side only must not make one.
 */
import { describe, expect, it } from 'vitest';
import { contradiction } from '../../utils/listing/contradiction';
import { makeListing } from '../helpers/store-records';

describe('contradiction', () => {
  const held = (name: string) => makeListing('1', { key: 'kakao:1', provider: 'kakao', providerId: '1', cid: null, name, lat: 37.5, lng: 127 });

  it.each([
    ['a zero-width space on one side', '카페\u200b', '카페'],
    ['an icon glyph of a symbol font', '\ue5ca카페', '카페'],
    ['a zero-width space beside a space', '카페 \u200b모모', '카페 모모'],
    ['case, spacing and Unicode form', 'Cafe  Momo', 'cafe momo'],
  ])('%s is no contradiction', (_why, a, b) => {
    expect(contradiction(held(a), held(b))).toBeNull();
  });

  it('another name, another pin or another key is one', () => {
    expect(contradiction(held('카페 모모'), held('카페 노노'))).toBe('name');
    expect(contradiction(held('카페'), { ...held('카페'), lat: 37.51 })).toBe('coordinates');
    expect(contradiction(held('카페'), { ...held('카페'), key: 'kakao:2' })).toBe('id');
  });
});
