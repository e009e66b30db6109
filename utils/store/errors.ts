/**
 * Why the store refused or failed. The code is what callers branch on (the driver pauses the
 * sweep on 'quota'; the popup explains 'newer-version'); the message is clear English.
 */
export type StoreErrorCode =
  | 'newer-version' // the database was written by a newer MapSweep (the extension was downgraded)
  | 'corrupt' // object stores or indexes this version needs are missing
  | 'blocked' // an older connection elsewhere will not let the schema upgrade run
  | 'upgrade-failed' // a migration step threw; the upgrade was rolled back
  | 'quota' // the disk is full; the transaction was rolled back
  | 'closed' // the connection was closed (another tab upgraded the schema)
  | 'not-found' // the sweep or cell does not exist
  | 'exists' // a sweep or cell with that id already exists
  | 'invalid' // the input was refused before anything was written
  | 'failed'; // any other IndexedDB failure; the transaction was rolled back

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError;
}

export const QUOTA_MESSAGE = 'The disk is full: this result could not be saved. Already committed data is safe; free some space and resume.';

/**
 * Map whatever a transaction threw to a StoreError. Browsers report a full disk either as a
 * QuotaExceededError from the request, or as an AbortError on the transaction whose `error`
 * is the QuotaExceededError, so the transaction's own error is looked at too.
 */
export function toStoreError(e: unknown, txError?: DOMException | null): StoreError {
  if (isStoreError(e)) return e;
  const name = errorName(e);
  if (name === 'QuotaExceededError' || txError?.name === 'QuotaExceededError') {
    return new StoreError('quota', QUOTA_MESSAGE, { cause: e });
  }
  if (name === 'InvalidStateError') {
    return new StoreError('closed', 'The database connection was closed (MapSweep was probably updated in another tab). Reload the extension page.', {
      cause: e,
    });
  }
  if (name === 'ConstraintError') {
    return new StoreError('exists', `A record with that id already exists: ${errorMessage(e)}`, { cause: e });
  }
  return new StoreError('failed', `The database refused the change (${name}: ${errorMessage(e)}); nothing of it was saved.`, {
    cause: e,
  });
}

function errorName(e: unknown): string {
  return typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' ? (e as { name: string }).name : 'Error';
}

function errorMessage(e: unknown): string {
  return e instanceof Error || (typeof e === 'object' && e !== null && 'message' in e) ? String((e as { message: unknown }).message) : String(e);
}
