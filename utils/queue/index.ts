export { leaseNextCell, renewLease, releaseCell, deferCell } from './lease';
export type { LeaseRequest } from './lease';
export { failCell, retryQuarantined } from './fail';
export type { FailRequest, FailResult } from './fail';
export { backoffDelay, BACKOFF_BASE_MS, BACKOFF_CAP_MS } from './backoff';
