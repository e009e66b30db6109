/**
 * A tab MapSweep drives through links it did not make itself (a list's share links: naver.me and
 * kko.to shorten any address) may go to the map sites' own domains and nowhere else: a session
 * rule of the browser's declarativeNetRequest blocks any other top-level navigation of that tab
 * before a request leaves, so a hostile short link can never make the person's browser ask their
 * router, an intranet page or any other site. The rule is per tab (its id is the tab's) and lives
 * while the tab works for a list.
 */

/** The rule's shape (chrome.declarativeNetRequest.Rule, what this module sets). */
export interface GuardRule {
  id: number;
  priority: number;
  action: { type: 'block' };
  condition: { tabIds: number[]; resourceTypes: ['main_frame']; excludedRequestDomains: string[] };
}

export interface GuardApi {
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: GuardRule[] }): Promise<void>;
}

/** Chrome's rule ids are positive integers; a tab id is one. */
export function guardRule(tabId: number, domains: readonly string[]): GuardRule {
  return {
    id: tabId,
    priority: 1,
    action: { type: 'block' },
    condition: { tabIds: [tabId], resourceTypes: ['main_frame'], excludedRequestDomains: [...new Set(domains)] },
  };
}

/** Guard `tabId` (replacing a rule it had); false when the browser cannot (no API): the caller must not follow foreign links then. */
export async function guardTab(api: GuardApi | undefined, tabId: number, domains: readonly string[]): Promise<boolean> {
  if (!api || !Number.isInteger(tabId) || tabId <= 0) return false;
  try {
    await api.updateSessionRules({ removeRuleIds: [tabId], addRules: [guardRule(tabId, domains)] });
    return true;
  } catch (e) {
    console.warn('MapSweep: the tab guard could not be set', e);
    return false;
  }
}

export async function unguardTab(api: GuardApi | undefined, tabId: number): Promise<void> {
  await api?.updateSessionRules({ removeRuleIds: [tabId] }).catch(() => {});
}
