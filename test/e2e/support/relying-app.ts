/**
 * A minimal relying application on its own loopback port, as an integrator would write one with no SDK:
 * GET / has a "Sign in" link to the server's login UI with redirect_uri=<origin>/callback and a state it
 * remembers; GET /callback checks the state and asks the server for the session over GraphQL with the
 * browser's cookies (CORS with credentials; --allowed-origins lists this origin), then shows the signed-in
 * email in #who (or the error in #error).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface RelyingApp {
  readonly origin: string;
  /** The state values it issued, in order. */
  readonly states: string[];
  setServerUrl(url: string): void;
  close(): Promise<void>;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

export async function startRelyingApp(): Promise<RelyingApp> {
  let serverUrl = '';
  const states: string[] = [];
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://app.invalid');
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/') {
      const state = randomBytes(12).toString('base64url');
      states.push(state);
      const target = `${serverUrl}/app?redirect_uri=${encodeURIComponent(`${origin}/callback`)}&state=${encodeURIComponent(state)}`;
      response.end(page('Example app', `<h1>Example app</h1><a id="sign-in" href="${target}">Sign in</a>`));
      return;
    }
    if (url.pathname === '/callback') {
      const state = url.searchParams.get('state') ?? '';
      const known = states.includes(state);
      const script = `
        const known = ${JSON.stringify(known)};
        const show = (id, text) => { const el = document.getElementById(id); el.textContent = text; };
        if (!known) show('error', 'unknown state');
        else fetch(${JSON.stringify(`${serverUrl}/graphql`)}, {
          method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ session { user { email } access_token } }' }),
        }).then((r) => r.json()).then((answer) => {
          if (answer.errors) show('error', answer.errors[0].message);
          else show('who', answer.data.session.user.email);
        }, (err) => show('error', String(err)));`;
      response.end(page('Example app: signed in', `<h1>Callback</h1><p>state: <span id="state">${known ? 'ok' : 'unknown'}</span></p><p id="who"></p><p id="error"></p><script>${script}</script>`));
      return;
    }
    response.statusCode = 404;
    response.end(page('Not found', 'not found'));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    states,
    setServerUrl(url) {
      serverUrl = url;
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
