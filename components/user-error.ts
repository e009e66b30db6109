import type { UserError } from '../utils/messaging/protocol';
import { t } from '../utils/i18n/t';

/**
 * Which named parameters fill a translated error's $1, $2… in order. Codes not listed take
 * none. The English `message` stays the fallback when a code has no translation at all.
 */
const PARAM_ORDER: Readonly<Record<string, readonly string[]>> = {
  'swapped-corners': ['suggestion'],
  'out-of-range': ['value'],
  'self-crossing': ['polygon', 'lat', 'lng'],
  'too-large': ['cells', 'max'],
  'too-many-keywords': ['max', 'count'],
  'keyword-too-long': ['max'],
  'bad-state': ['status'],
  'no-map-tab': ['site'],
  'no-map-site': ['sites'],
  'no-map-view': ['site'],
  'map-tab-busy': ['site'],
  'no-reviews': ['site'],
  'list-refused': ['reason'],
  'list-choose-column': ['reason'],
  'list-bad-state': ['status'],
};

/** The translated text of an error code, with its parameters; the English message as fallback. */
export function userErrorText(error: UserError): string {
  const key = `error_${error.code.replace(/[^a-zA-Z0-9]/g, '_')}`;
  const params = (PARAM_ORDER[error.code] ?? []).map((name) => {
    const value = error.params?.[name];
    return typeof value === 'number' ? value.toLocaleString() : String(value ?? '');
  });
  const text = t(key, ...params);
  return text === key ? error.message : text;
}
