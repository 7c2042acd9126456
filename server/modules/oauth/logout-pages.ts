/**
 * The two pages of /logout (logout.endpoint.ts): the question OpenID Connect RP-Initiated Logout 1.0 section 2
 * has the OP ask when no matching id_token_hint came, and the "signed out" page shown when there is nowhere
 * registered to return to. Every value is escaped; the pages load nothing, cannot be framed (a framed
 * confirmation button could be clicked by a hidden overlay) and send no Referer.
 */
import type { Deps } from '../../kernel/deps.ts';
import type { EndpointAnswer } from '../../ops/endpoint.ts';
import { escapeHtml } from '../email/index.ts';

export interface ConfirmationFields {
  /** The value bound to the session cookie that proves the form came from this page. */
  confirmation: string;
  clientId?: string;
  /** Already checked against the client's registered targets. */
  target?: string;
  state?: string;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;max-width:560px;margin:48px auto;padding:0 24px;color:#111827">
${body}
</body></html>
`;
}

function hidden(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

export function logoutConfirmation(deps: Pick<Deps, 'config'>, fields: ConfirmationFields): EndpointAnswer {
  const organization = deps.config.organizationName || 'this service';
  const form = [
    // Relative, so the form posts back to this endpoint under whatever path the server is mounted at.
    '<form method="post" action="logout">',
    hidden('confirmation', fields.confirmation),
    hidden('client_id', fields.clientId),
    hidden('post_logout_redirect_uri', fields.target),
    hidden('state', fields.state),
    '<button type="submit" style="font-size:16px;padding:8px 20px">Sign out</button>',
    '</form>',
  ].join('\n');
  const html = page('Sign out?', `<h1 style="font-size:20px">Sign out of ${escapeHtml(organization)}?</h1>
<p>An application asked to end your session. Sign out only if you meant to.</p>
${form}`);
  // A browser applies form-action to the redirect that follows the post too, so the target's origin is listed.
  const formAction = ["'self'", ...(fields.target ? [new URL(fields.target).origin] : [])].join(' ');
  return {
    kind: 'html',
    html,
    headers: {
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`,
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  };
}

/** The transport's plain page, which sends no Referer and is never cached. */
export function signedOutPage(options: { redirectRefused: boolean }): EndpointAnswer {
  return {
    kind: 'page',
    title: 'Signed out',
    heading: 'You are signed out',
    paragraphs: options.redirectRefused
      ? ['The application asked to return to an address this server does not allow, so you stay on this page.', 'You can close this window.']
      : ['You can close this window.'],
  };
}
