export { commitListed, type ListCommitResult } from './commit';
export { createListCommands, type ListCommandDeps } from './commands';
export { createList, listRefusal, type CreateListRequest, type ReadList } from './create';
export { deleteList } from './delete';
export { createListDriver, type ListDriver, type ListDriverDeps } from './drive';
export { MAX_SHOWN_BAD_LINES, onListMessage, sendListMessage, type ListCheck, type ListInput, type ListMessages } from './protocol';
export { allLists, getList, listFailures, listProgress, type ListFailure, type ListProgress } from './read';
export {
  isListId,
  isShareKey,
  listQueueId,
  shareKey,
  type ListCounts,
  type ListProblem,
  type ListReviewLimits,
  type ListSettings,
  type ListStatus,
  type PlaceList,
} from './records';
export { runList, SHARE_SETTLE_MS } from './run';
export { listTransition, type ListEvent } from './status';
export { askListReviews, listReviewsSettings, type ListReviewsAsked } from './reviews';
