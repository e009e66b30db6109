/**
 * One manifest source, two browsers (wxt.config.ts): Chrome's and Firefox's builds ask for the
 * same hosts; only Chrome has the fixed key and `offscreen` (Firefox has no offscreen documents
 * and builds long exports in its background page); only Firefox has its add-on id, the lowest
 * version it is tested on and its data-collection statement.
 */
import { describe, expect, it } from 'vitest';
import config from '../../wxt.config';

type Manifest = {
  key?: string;
  permissions: string[];
  host_permissions: string[];
  optional_host_permissions: string[];
  browser_specific_settings?: { gecko?: { id?: string; strict_min_version?: string; data_collection_permissions?: { required?: string[] } } };
};
const manifestFor = (browser: string) => (config.manifest as (env: { browser: string }) => Manifest)({ browser });

describe('the manifest for each browser', () => {
  const chrome = manifestFor('chrome');
  const firefox = manifestFor('firefox');

  it('asks for the same map hosts, optional hosts and permissions but offscreen', () => {
    expect(firefox.host_permissions).toEqual(chrome.host_permissions);
    expect(firefox.optional_host_permissions).toEqual(chrome.optional_host_permissions);
    expect(chrome.permissions).toContain('offscreen');
    expect(firefox.permissions).not.toContain('offscreen');
    expect(chrome.permissions.filter((p) => p !== 'offscreen')).toEqual(firefox.permissions);
  });

  it("Chrome's has its fixed key; Firefox's its add-on id, lowest tested version and no data collected", () => {
    expect(chrome.key).toMatch(/^MIIB/);
    expect(chrome.browser_specific_settings).toBeUndefined();
    expect(firefox.key).toBeUndefined();
    expect(firefox.browser_specific_settings?.gecko).toEqual({
      id: 'mapsweep@mapsweep.app',
      strict_min_version: '153.0',
      data_collection_permissions: { required: ['none'] },
    });
  });
});
