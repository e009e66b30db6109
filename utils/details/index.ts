export { detailsLaneUrl, filledFields, isMissing, missingFields, needsDetails, type DetailField } from './needs';
export { placePageUrl } from '../providers/registry';
export { estimateDetails, secondsPerPlace, SECONDS_PER_PLACE_WORK, type DetailsEstimate } from './estimate';
export {
  commitPlace,
  countPlaces,
  enqueueDetails,
  failPlace,
  getPlaceJob,
  isQueued,
  leasePlace,
  placeSettleCheck,
  releasePlace,
  releasePlaceLeases,
  type PlaceCommitResult,
  type PlaceFailResult,
  type PlaceQueueCounts,
} from './queue';
export { placeJobId, type PlaceJob, type PlaceJobStatus } from './records';
export {
  leaseMsFor,
  placeLeaseMs,
  runDetails,
  runPlaceQueue,
  PLACE_SETTLE_MS,
  type DetailsDeps,
  type DetailsExit,
  type PlacePageDriver,
  type PlaceQueueSource,
} from './runner';
export { createDetailsPass, placeDetailsOn, type DetailsPass, type DetailsPassDeps } from './wire';
export { createPlacePageDriver, sendCollectPlace } from './page';
export { sendDetailsMessage, onDetailsMessage, type CollectPlaceRequest, type DetailsProtocol } from '../messaging/details-protocol';
