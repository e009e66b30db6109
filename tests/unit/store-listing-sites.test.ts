/**
 * The store takes its list of sites from the registry (utils/providers/registry.ts), the one
 * list of them: a site added there has its listings stored, with no second list to forget.
 * The registry here has a fourth site, a copy of Naver under another id.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ProviderId } from '../../utils/domain/place';
import { listingProblem } from '../../utils/store/listing-merge';
import { makeListing } from './store-fixtures';

const FOURTH = 'daum' as ProviderId;

vi.mock('../../utils/providers/registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../utils/providers/registry')>();
  const naver = real.PROVIDERS.find((p) => p.id === 'naver')!;
  // A literal: vi.mock runs before this file's constants exist.
  return { ...real, PROVIDERS: [...real.PROVIDERS, { ...naver, id: 'daum' }] };
});

/** A listing of a site other than Google: its own digits for an id, no CID. */
const listingOf = (provider: ProviderId) => makeListing('1', { key: `${provider}:1234`, provider, providerId: '1234', cid: null });

describe('the sites whose listings the store takes', () => {
  it("are the registry's, a fourth site's too", () => {
    expect(listingProblem(listingOf(FOURTH))).toBeNull();
    expect(listingProblem(listingOf('kakao'))).toBeNull();
  });

  it('and no other', () => {
    expect(listingProblem(listingOf('bing' as ProviderId))).toBe('unknown provider "bing"');
  });
});
