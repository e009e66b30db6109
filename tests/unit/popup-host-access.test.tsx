// @vitest-environment happy-dom
/**
 * Firefox leaves the map hosts to the person: the popup asks for them with one button, asks for
 * exactly the manifest's hosts, and says so when they were refused. Granted (Chrome), it shows
 * nothing.
 */
import { h, render } from 'preact';
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { HostAccessNotice } from '../../components/HostAccessNotice';
import { useEnglishMessages } from '../helpers/english-messages';

const HOSTS = ['https://map.naver.com/*', 'https://map.kakao.com/*'];
const settle = () => new Promise((r) => setTimeout(r, 10));

function withheld(answer: boolean) {
  const asked: unknown[] = [];
  let granted = false;
  const b = fakeBrowser as unknown as {
    runtime: { getManifest: () => object };
    permissions: { contains: () => Promise<boolean>; request: (p: unknown) => Promise<boolean> };
  };
  b.runtime.getManifest = () => ({ manifest_version: 3, host_permissions: HOSTS });
  b.permissions.contains = async () => granted;
  b.permissions.request = async (p) => {
    asked.push(p);
    granted = answer;
    return answer;
  };
  return asked;
}

describe('the popup asks for the map hosts where the browser leaves them to the person', () => {
  it('withheld: one button asks for exactly the manifest hosts; granted, the notice goes', async () => {
    useEnglishMessages();
    const asked = withheld(true);
    const host = document.createElement('div');
    render(h(HostAccessNotice, {}), host);
    await settle();
    const button = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Allow access to the map sites');
    expect(button).toBeDefined();
    button!.click();
    await settle();
    expect(asked).toEqual([{ origins: HOSTS }]);
    expect(host.textContent).toBe('');
    render(null, host);
  });

  it('refused: the notice stays and says MapSweep still cannot read the sites', async () => {
    useEnglishMessages();
    withheld(false);
    const host = document.createElement('div');
    render(h(HostAccessNotice, {}), host);
    await settle();
    host.querySelector('button')!.click();
    await settle();
    expect(host.textContent).toContain('Not allowed: MapSweep still cannot read the map sites.');
    expect(host.querySelector('button')).not.toBeNull();
    render(null, host);
  });

  it('granted at install (Chrome): nothing is shown', async () => {
    useEnglishMessages();
    const host = document.createElement('div');
    render(h(HostAccessNotice, {}), host);
    await settle();
    expect(host.textContent).toBe('');
    render(null, host);
  });
});
