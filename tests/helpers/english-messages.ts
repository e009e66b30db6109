import { readFileSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/** Makes the fake browser's i18n answer from the English messages.json, with `$1`… filled in. Undo with `vi.restoreAllMocks()`. */
export function useEnglishMessages(): void {
  const messages = JSON.parse(readFileSync(path.resolve(__dirname, '../../public/_locales/en/messages.json'), 'utf8')) as Record<string, { message: string }>;
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(((key: string, subs?: string[]) =>
    (messages[key]?.message ?? '').replace(/\$(\d)/g, (_, n) => subs?.[Number(n) - 1] ?? '')) as never);
  vi.spyOn(fakeBrowser.i18n, 'getUILanguage').mockReturnValue('en-US');
}
