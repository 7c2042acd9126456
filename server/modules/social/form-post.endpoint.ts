/**
 * POST /oauth_callback/<provider>: Apple's form_post answer (OAuth 2.0 Form Post Response Mode section 2). A
 * cross-site POST carries no SameSite=Lax cookie, so it is turned into a GET of the callback (a top-level
 * navigation, which does: callback.endpoint.ts), and nothing is done on the POST itself. Only a provider
 * that answers by form_post takes it; the others answer 405.
 */
import { defineEndpoint } from '../../ops/endpoint.ts';
import { signInPage, signInRefusalPage } from '../../ops/sign-in-pages.ts';
import { enabledProvider } from './providers.ts';
import { callbackUrl, unknownProvider } from './social-request.ts';

const MAX_FIELD = 4096;

/** A field as the OAuth body reading gives it: non-empty text, trimmed. */
function textField(body: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export const socialFormPostEndpoint = defineEndpoint({
  name: 'social_form_post',
  methods: ['POST'],
  path: '/oauth_callback/:provider',
  csrf: { exempt: 'Apple posts its answer from appleid.apple.com; the POST only re-issues the same parameters as a GET of the callback, which checks the state and the browser binding' },
  // JSON or form, and text of either without a Content-Type.
  body: 'oauth',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const { deps } = ctx;
    const provider = enabledProvider(deps.config, request.params.provider!);
    if (!provider) return unknownProvider();
    if (provider.spec.responseMode !== 'form_post') {
      return signInPage(405, 'Method not allowed', ['This provider returns to this address with GET.'], { allow: 'GET' });
    }
    const url = new URL(callbackUrl(deps, provider.spec.name));
    for (const name of ['code', 'state', 'error']) {
      const value = textField(request.body, name);
      if (value !== undefined && value.length <= MAX_FIELD) url.searchParams.set(name, value);
    }
    // Relative, so the browser stays on the host it posted to.
    return { kind: 'redirect', location: `${url.pathname}${url.search}`, status: 303, headers: { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' } };
  },
});
