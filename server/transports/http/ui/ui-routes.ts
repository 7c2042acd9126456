/**
 * The two embedded frontends (build/ui.ts): the login UI at /app (only with --enable-login-page) and the
 * admin console at /dashboard, with GET / opening the console. Each app's index.html answers every path under its prefix that is not a built file (the SPA
 * fallback, only under the app's own prefix); a missing file under assets/ is a 404, never the page.
 *
 * Caching: content-hashed files under assets/ are immutable for a year, index.html is revalidated every
 * time (no-cache + ETag) so a new release is picked up at once. Content-Security-Policy (OWASP ASVS 4.0
 * 14.4.3): scripts only from this origin, no inline script, no framing; styles allow inline attributes
 * (the component library sets CSS variables in style attributes). The login page with a redirect_uri that
 * is not allowed is refused here, before any script runs (ASVS 5.1.5, no open redirect).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config/flags.ts';
import type { Deps } from '../../../kernel/deps.ts';
import { isAllowedRedirect } from '../../../modules/accounts/index.ts';
import { escapeHtml } from '../../../modules/email/index.ts';
import { openUiAssets, type UiAssets } from './ui-assets.ts';
import { sendHtmlErrorPage } from './html-error-page.ts';
import { returningClientName } from '../../../modules/oauth/index.ts';

const HEAD_PLACEHOLDER = '<!--portcullis:head-->';
const YEAR_SECONDS = 365 * 24 * 3600;

/** img-src: this origin, data: URLs, https images, and the logo's own origin when it is plain http. */
export function contentSecurityPolicy(config: Pick<Config, 'organizationLogo'>): string {
  const images = ["'self'", 'data:', 'https:'];
  try {
    const logo = config.organizationLogo ? new URL(config.organizationLogo) : undefined;
    if (logo?.protocol === 'http:') images.push(logo.origin);
  } catch {
    // Not a URL: the page shows no logo.
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(' ')}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The <meta> tags ui-shared/branding.ts reads (branding, and whether the console offers the GraphQL
 * playground); escaped, so a flag value cannot add markup.
 */
function brandingTags(config: Pick<Config, 'organizationName' | 'organizationLogo' | 'enablePlayground'>): string {
  return [
    `<meta name="portcullis:organization-name" content="${escapeHtml(config.organizationName)}">`,
    `<meta name="portcullis:organization-logo" content="${escapeHtml(config.organizationLogo)}">`,
    `<meta name="portcullis:playground" content="${config.enablePlayground ? 'on' : 'off'}">`,
  ].join('\n    ');
}

function acceptsBrotli(request: FastifyRequest): boolean {
  const accepted = request.headers['accept-encoding'];
  return typeof accepted === 'string' && /\bbr\b/.test(accepted);
}

interface App {
  prefix: 'app' | 'dashboard';
  /** Refusal before serving the page (the login UI's redirect_uri check), or undefined to serve. */
  refuse?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
}

export function registerUiRoutes(http: FastifyInstance, deps: Pick<Deps, 'config' | 'storage'>): void {
  const { config } = deps;
  const csp = contentSecurityPolicy(config);
  let assets: UiAssets | undefined | null = null; // null: not looked up yet
  const renderedIndex = new Map<string, Buffer>();

  const notBuilt = (reply: FastifyReply) =>
    sendHtmlErrorPage(reply, 503, {
      title: 'Not available',
      heading: 'The web interface is not built into this server',
      paragraphs: ['Build it with `npm run build` (the single executable built after that contains it).'],
    });

  function sendIndex(request: FastifyRequest, reply: FastifyReply, prefix: string, clientName?: string): FastifyReply {
    const key = `${prefix}/index.html`;
    const file = assets!.file(key);
    if (!file) return notBuilt(reply);
    if (clientName !== undefined) {
      // The page of one authorization request: made for this answer, never cached or revalidated as the shared page.
      const tags = `${brandingTags(config)}\n    <meta name="portcullis:client-name" content="${escapeHtml(clientName)}">`;
      const page = assets!.read(key).toString('utf8').replace(HEAD_PLACEHOLDER, tags);
      return reply.header('content-security-policy', csp).header('cache-control', 'no-store').type(file.type).send(page);
    }
    let body = renderedIndex.get(key);
    if (!body) {
      body = Buffer.from(assets!.read(key).toString('utf8').replace(HEAD_PLACEHOLDER, brandingTags(config)), 'utf8');
      renderedIndex.set(key, body);
    }
    reply.header('content-security-policy', csp).header('cache-control', 'no-cache').header('etag', file.etag);
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    return reply.type(file.type).send(body);
  }

  function sendFile(request: FastifyRequest, reply: FastifyReply, key: string): FastifyReply {
    const file = assets!.file(key)!;
    reply
      .header('cache-control', file.immutable ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache')
      .header('etag', file.etag)
      .header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    const brotli = file.br && acceptsBrotli(request);
    if (brotli) reply.header('content-encoding', 'br');
    return reply.type(file.type).send(assets!.read(key, brotli));
  }

  function serve(app: App) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (assets === null) assets = openUiAssets();
      if (!assets) return notBuilt(reply);
      const refusal = app.refuse?.(request, reply);
      if (refusal) return refusal;
      const path = request.url.split('?', 1)[0]!;
      const rest = path.slice(app.prefix.length + 2); // after "/<prefix>/"
      if (rest && rest !== 'index.html') {
        const key = `${app.prefix}/${rest}`;
        if (assets.file(key)) return sendFile(request, reply, key);
        if (rest.startsWith('assets/')) {
          return sendHtmlErrorPage(reply, 404, { title: 'Not found', heading: 'Not found', paragraphs: ['This file is not part of the application.'] });
        }
      }
      const clientName = app.prefix === 'app' ? await returningClientName(deps, (request.query as Record<string, unknown>).redirect_uri) : undefined;
      return sendIndex(request, reply, app.prefix, clientName);
    };
  }

  const apps: App[] = [{ prefix: 'dashboard' }];
  if (config.enableLoginPage) {
    apps.push({
      prefix: 'app',
      refuse(request, reply) {
        const redirectUri = (request.query as Record<string, unknown>).redirect_uri;
        if (redirectUri === undefined || (typeof redirectUri === 'string' && isAllowedRedirect(config, redirectUri))) return undefined;
        return sendHtmlErrorPage(reply, 400, {
          title: 'Sign-in link not valid',
          heading: 'This sign-in link cannot be used',
          paragraphs: ['The application asked to return to an address this server does not allow.', 'Contact the application’s administrator.'],
        });
      },
    });
  }
  for (const app of apps) {
    const handler = serve(app);
    http.get(`/${app.prefix}`, handler);
    http.get(`/${app.prefix}/*`, handler);
  }
  http.get('/', (_request, reply) => reply.redirect('/dashboard/', 302));
}
