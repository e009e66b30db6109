/**
 * What every layer may hand to the user: a failure with a code (the popup translates it) and
 * the reply of a command. At the bottom of the import graph, beside the sweep's records
 * (utils/domain/sweep.ts), so that planning, schedules and the store never import messaging.
 */
/** A user-facing failure: `code` picks the translated text, `message` is the English fallback. */
export interface UserError {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

export type Reply<T = object> = ({ ok: true } & T) | { ok: false; error: UserError };
