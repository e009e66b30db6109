/**
 * The map hosts MapSweep reads (the manifest's host_permissions). Chrome grants them at install;
 * Firefox's Manifest V3 leaves them to the person, who may withhold or withdraw them at any time
 * (about:addons → Permissions). A sweep never starts, nor begins a visit, without them, and a
 * visit that failed once they were gone is no fault of the cell: what the extension may not read
 * is unknown, never an empty map. (A visit under way when they go, its page already read, still
 * commits what it read.)
 */
export interface HostAccessApi {
  runtime: { getManifest(): object };
  permissions: { contains(p: { origins: string[] }): Promise<boolean> };
}

/** Every map host the manifest asks for: one click grants them all, and a sweep needs them all. */
export function mapHostOrigins(api: Pick<HostAccessApi, 'runtime'>): string[] {
  const hosts = (api.runtime.getManifest() as { host_permissions?: unknown }).host_permissions;
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

/**
 * Are these hosts granted now? A browser that cannot say is taken as "not granted" (unknown is
 * never proof), and so is an empty list.
 */
export async function hasHostAccess(api: Pick<HostAccessApi, 'permissions'>, origins: readonly string[]): Promise<boolean> {
  if (origins.length === 0) return false;
  try {
    return (await api.permissions.contains({ origins: [...origins] })) === true;
  } catch {
    return false;
  }
}

/** What a sweep or pass of one site asks before each page it loads (MapProvider.hostAccess). */
export type SiteAccess = (site: { hostAccess: readonly string[] }) => Promise<boolean>;

/** What the person is told when access is missing (the popup offers the button beside it). */
export const NO_HOST_ACCESS_MESSAGE = 'MapSweep may not read the map sites: press "Allow access to the map sites" in the popup, then try again.';
