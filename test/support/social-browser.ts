/**
 * A browser by hand for social sign-in tests: real fetch, redirects followed one at a time, a cookie jar
 * per host and port (cookies go back only to the server that set them), and the server's canonical --url
 * origin (http://127.0.0.1:8080 in tests) mapped onto the port the test server really listens on.
 * Redirects are followed while they stay on the server or a listed upstream; the first one that leaves
 * (the application's target) is returned unfollowed.
 */
export interface Hop {
  url: string;
  status: number;
  location?: string;
  body?: string;
}

export interface Landing {
  /** The last answer that was not followed (a page, or a redirect to the application). */
  status: number;
  location?: string;
  body: string;
  hops: Hop[];
}

export class TestBrowser {
  readonly jar = new Map<string, Map<string, string>>();
  readonly #canonical: string;
  readonly #actual: string;
  readonly #follow: Set<string>;

  constructor(serverBaseUrl: string, upstreamOrigins: string[], canonical = 'http://127.0.0.1:8080') {
    this.#canonical = canonical;
    this.#actual = serverBaseUrl;
    this.#follow = new Set([new URL(serverBaseUrl).origin, ...upstreamOrigins.map((u) => new URL(u).origin)]);
  }

  /** The URL the request really goes to (the canonical server origin replaced by the listening one). */
  resolve(url: string): string {
    return url.startsWith(this.#canonical) ? this.#actual + url.slice(this.#canonical.length) : url;
  }

  cookiesFor(url: string): Map<string, string> {
    const host = new URL(url).host;
    let cookies = this.jar.get(host);
    if (!cookies) {
      cookies = new Map();
      this.jar.set(host, cookies);
    }
    return cookies;
  }

  #store(url: string, setCookies: string[]): void {
    const cookies = this.cookiesFor(url);
    for (const header of setCookies) {
      const [pair, ...attributes] = header.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = decodeURIComponent(pair!.slice(eq + 1).trim());
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  async request(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Hop & { setCookies: string[] }> {
    const target = this.resolve(url);
    const cookie = [...this.cookiesFor(target)].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    const res = await fetch(target, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...init.headers },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    const setCookies = res.headers.getSetCookie();
    this.#store(target, setCookies);
    const location = res.headers.get('location') ?? undefined;
    return { url: target, status: res.status, location: location ? new URL(location, target).toString() : undefined, body: await res.text(), setCookies };
  }

  /** Follows redirects from `url` while they stay on the server or an upstream. */
  async navigate(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Landing> {
    const hops: Hop[] = [];
    let next: string | undefined = url;
    let first = true;
    for (let i = 0; i < 20 && next; i++) {
      const hop = await this.request(next, first ? init : {});
      first = false;
      hops.push(hop);
      const isRedirect = hop.status >= 300 && hop.status < 400 && hop.location;
      if (!isRedirect) return { status: hop.status, body: hop.body ?? '', hops };
      const resolved = this.resolve(hop.location!);
      if (!this.#follow.has(new URL(resolved).origin)) return { status: hop.status, location: hop.location, body: hop.body ?? '', hops };
      next = hop.location;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** The Cookie header this browser sends to the server (for REST calls such as /v1/session). */
  cookieHeader(): string {
    return [...this.cookiesFor(this.#actual)].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  }
}
