/**
 * A link's social profile, normalised so the same profile written two ways is one value: https,
 * the network's canonical host whatever host the link used (`m.`, `www.`, a locale subdomain such
 * as `ko-kr.facebook.com`; `twitter.com` → `x.com`, `m.blog.naver.com` → `blog.naver.com`,
 * `instagram.com` → `www.instagram.com`, as each network writes its own profile URLs), the path's
 * case kept only where the network's ids are case-sensitive (YouTube, Kakao channels), no trailing
 * slash, no query or fragment except what names the profile (Facebook's `profile.php?id=`).
 *
 * Only a profile counts. A post, a video, a share button, a login page or a tracking pixel on the
 * same network is refused: a post is not a profile, and it may be someone else's. A profile's tab
 * (`/@cafe/videos`, `/cafe/about`) is the profile itself and is kept as the profile.
 */
import type { SocialNetwork, SocialProfile } from './types';

type Profile = Omit<SocialProfile, 'page'>;

interface Network {
  network: SocialNetwork;
  /** Hosts after `hostOf` (no www./m.). */
  hosts: readonly string[];
  /** The canonical URL for a path's segments and query, or null when it is not a profile. */
  profile(segments: string[], query: URLSearchParams): string | null;
}

/** Segments of a profile's URL: the profile, optionally one tab of it from `tabs`. */
function withTab(segments: string[], length: number, tabs: ReadonlySet<string>): string[] | null {
  if (segments.length === length) return segments;
  if (segments.length === length + 1 && tabs.has(segments[length]!.toLowerCase())) return segments.slice(0, length);
  return null;
}

const set = (words: string) => new Set(words.split(' '));

const INSTAGRAM_RESERVED = set(
  'p reel reels tv explore stories accounts about developer legal direct web challenge oauth api s privacy emails session tags locations',
);
const INSTAGRAM_TABS = set('reels tagged guides');
const FACEBOOK_RESERVED = set(
  'sharer sharer.php share share.php plugins tr dialog login login.php l.php events watch photo photo.php photos story.php permalink.php hashtag ads business help policies privacy legal marketplace gaming settings home.php search groups pages people profile.php recover reg signup r.php video.php videos media notes messages friends bookmarks fundraisers places public directory careers terms about',
);
const FACEBOOK_TABS = set('about photos videos reviews posts events community services shop menu mentions followers reels');
const X_RESERVED = set(
  'intent share home i search hashtag explore settings login signup tos privacy messages notifications compose download about jobs account oauth widgets',
);
const X_TABS = set('with_replies media likes highlights');
const YOUTUBE_TABS = set('videos featured about shorts streams playlists community');
const LINKEDIN_TABS = set('about posts jobs people life');
const KAKAO_TABS = set('chat friend posts');
const NAVER_BLOG_RESERVED = set('prologue myblog bloghome section');

const NETWORKS: readonly Network[] = [
  {
    network: 'instagram',
    hosts: ['instagram.com', 'instagr.am'],
    profile(segments) {
      // `/_u/name` is the app's deep link to the same profile.
      const path = withTab(segments[0] === '_u' ? segments.slice(1) : segments, 1, INSTAGRAM_TABS);
      const handle = path?.[0]?.toLowerCase();
      if (!handle || !/^[a-z0-9._]{1,30}$/.test(handle) || INSTAGRAM_RESERVED.has(handle)) return null;
      return `https://www.instagram.com/${handle}`;
    },
  },
  {
    network: 'facebook',
    hosts: ['facebook.com', 'fb.com'],
    profile(segments, query) {
      if (segments.length === 1 && segments[0] === 'profile.php') {
        const id = query.get('id');
        return id && /^\d{1,20}$/.test(id) ? `https://www.facebook.com/profile.php?id=${id}` : null;
      }
      // Old page URLs and new profile URLs carry a name and the numeric id that identifies them.
      if ((segments[0] === 'pages' || segments[0] === 'people') && segments.length === 3 && /^\d{1,20}$/.test(segments[2]!)) {
        return `https://www.facebook.com/${segments.join('/')}`;
      }
      const handle = withTab(segments, 1, FACEBOOK_TABS)?.[0]?.toLowerCase();
      if (!handle || !/^[a-z0-9.-]{2,80}$/.test(handle) || /\.php$/.test(handle) || FACEBOOK_RESERVED.has(handle)) return null;
      return `https://www.facebook.com/${handle}`;
    },
  },
  {
    network: 'x',
    hosts: ['x.com', 'twitter.com'],
    profile(segments) {
      const handle = withTab(segments, 1, X_TABS)?.[0]?.toLowerCase();
      // X issues handles of at most 15 characters, but a longer one on the business's page is still
      // the profile it links (the limit is X's rule for new names, not a sign of a wrong link).
      if (!handle || !/^[a-z0-9_]{1,50}$/.test(handle) || X_RESERVED.has(handle)) return null;
      return `https://x.com/${handle}`;
    },
  },
  {
    network: 'youtube',
    hosts: ['youtube.com'],
    // Channel ids are case-sensitive; handles and custom names are kept as written too.
    profile(segments) {
      const first = segments[0] ?? '';
      const path = first.startsWith('@')
        ? withTab(segments, 1, YOUTUBE_TABS)
        : ['channel', 'c', 'user'].includes(first)
          ? withTab(segments, 2, YOUTUBE_TABS)
          : null;
      if (!path?.every((segment) => /^@?[^@\s]{1,100}$/.test(segment))) return null;
      return `https://www.youtube.com/${path.join('/')}`;
    },
  },
  {
    network: 'tiktok',
    hosts: ['tiktok.com'],
    profile(segments) {
      const handle = segments.length === 1 ? segments[0]!.toLowerCase() : '';
      return /^@[a-z0-9._]{2,24}$/.test(handle) ? `https://www.tiktok.com/${handle}` : null;
    },
  },
  {
    network: 'linkedin',
    hosts: ['linkedin.com'],
    profile(segments) {
      const path = segments[0] === 'company' ? withTab(segments, 2, LINKEDIN_TABS) : segments[0] === 'in' && segments.length === 2 ? segments : null;
      const slug = path?.[1]?.toLowerCase();
      return path && slug && /^[^\s]{1,100}$/.test(slug) ? `https://www.linkedin.com/${path[0]}/${slug}` : null;
    },
  },
  {
    network: 'kakao_channel',
    hosts: ['pf.kakao.com'],
    // Channel ids (`_xkxaZxl`) are case-sensitive.
    profile(segments) {
      const id = withTab(segments, 1, KAKAO_TABS)?.[0];
      return id && /^_[A-Za-z0-9]{1,40}$/.test(id) ? `https://pf.kakao.com/${id}` : null;
    },
  },
  {
    network: 'naver_blog',
    hosts: ['blog.naver.com'],
    profile(segments, query) {
      // The blog's post list by query is the blog itself; a post (`logNo`, or `/id/223…`) is not.
      const listed = segments.length === 1 && /^PostList\.(?:naver|nhn)$/.test(segments[0]!) && !query.has('logNo') ? query.get('blogId') : null;
      const id = (listed ?? (segments.length === 1 ? segments[0] : null))?.toLowerCase();
      if (!id || !/^[a-z0-9_-]{1,30}$/.test(id) || NAVER_BLOG_RESERVED.has(id)) return null;
      return `https://blog.naver.com/${id}`;
    },
  },
  {
    network: 'naver_cafe',
    hosts: ['cafe.naver.com'],
    profile(segments) {
      // The mobile site's `/ca-fe/{id}` is the same cafe; `/ca-fe/web/…` are its articles.
      const id = (segments[0] === 'ca-fe' && segments.length === 2 ? segments[1] : segments.length === 1 ? segments[0] : null)?.toLowerCase();
      return id && /^[a-z0-9_-]{1,40}$/.test(id) && id !== 'ca-fe' && id !== 'web' ? `https://cafe.naver.com/${id}` : null;
    },
  },
  {
    network: 'naver_smartstore',
    hosts: ['smartstore.naver.com'],
    profile(segments) {
      const id = segments.length === 1 ? segments[0]!.toLowerCase() : '';
      return /^[a-z0-9_-]{1,40}$/.test(id) && id !== 'main' ? `https://smartstore.naver.com/${id}` : null;
    },
  },
  {
    network: 'band',
    hosts: ['band.us'],
    profile(segments) {
      if (segments.length === 2 && segments[0] === 'band' && /^\d{1,20}$/.test(segments[1]!)) return `https://band.us/band/${segments[1]}`;
      const name = segments.length === 1 ? segments[0]!.toLowerCase() : '';
      return /^@[a-z0-9._-]{1,50}$/.test(name) ? `https://band.us/${name}` : null;
    },
  },
];

/** A host as the networks are listed: lower-case, no `www.`, `m.`, or Facebook/LinkedIn locale prefix. */
function hostOf(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return host
    .replace(/^(?:www|m|mobile|web|touch|mbasic)\./, '')
    .replace(/^[a-z]{2}-[a-z]{2}\.(facebook\.com)$/, '$1')
    .replace(/^[a-z]{2}\.(linkedin\.com)$/, '$1');
}

function parse(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

function networkOf(url: URL): Network | null {
  const host = hostOf(url);
  return NETWORKS.find((network) => network.hosts.includes(host)) ?? null;
}

/** The network whose site a URL is on, profile or not (a post, a share page). */
export function socialNetworkOf(url: string): SocialNetwork | null {
  const parsed = parse(url);
  return parsed ? (networkOf(parsed)?.network ?? null) : null;
}

export function socialProfile(url: string): Profile | null {
  const parsed = parse(url);
  const network = parsed && networkOf(parsed);
  if (!parsed || !network) return null;
  const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
  const profileUrl = network.profile(segments, parsed.searchParams);
  return profileUrl ? { network: network.network, url: profileUrl } : null;
}
