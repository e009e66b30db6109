import type { UserError } from '../utils/messaging/protocol';
import { t } from '../utils/i18n/t';

/** The translated text of an error code, with its parameters; the English message as fallback. */
export function userErrorText(error: UserError): string {
  const key = `error_${error.code.replace(/[^a-zA-Z0-9]/g, '_')}`;
  const params = Object.values(error.params ?? {}).map(String);
  const text = t(key, ...params);
  return text === key ? error.message : text;
}
