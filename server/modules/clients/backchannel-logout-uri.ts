/**
 * The backchannel_logout_uri a client registers (OpenID Connect Back-Channel Logout 1.0 §2.2): an absolute
 * https URL without a fragment; plain http only to this machine (kernel/loopback-host.ts, as for
 * post-logout redirect URIs). The server's outbound address policy (kernel/outbound-address.ts, the one
 * webhooks use) refuses literal private and loopback addresses unless --webhook-allow-private-addresses=true;
 * a host name's addresses are checked again at every delivery (webhooks' postWebhook pins them). Kept with the
 * client registry, since both the admin operation (oauth/backchannel) and /oauth/register (RFC 7591 metadata)
 * check it. Answers why a URI is refused, or undefined; callers raise it in their protocol's error shape.
 */
import { isLoopbackHost } from '../../kernel/loopback-host.ts';
import { isLocalName, isRefusedAddress, literalAddress } from '../../kernel/outbound-address.ts';

export function backchannelUriProblem(uri: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'backchannel_logout_uri: not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return 'backchannel_logout_uri: must be https (plain http only to localhost or 127.0.0.1)';
  }
  if (url.hash || uri.includes('#')) return 'backchannel_logout_uri: must not have a fragment (OpenID Connect Back-Channel Logout 1.0 section 2.2)';
  if (url.username || url.password) return 'backchannel_logout_uri: must not carry credentials';
  if (/\s/.test(uri) || uri.length > 2048) return 'backchannel_logout_uri: whitespace or longer than 2048 characters';
  if (!allowPrivate) {
    const literal = literalAddress(url.hostname);
    if ((literal && isRefusedAddress(literal)) || isLocalName(url.hostname)) {
      return 'backchannel_logout_uri: resolves to a loopback, private or otherwise internal address; set --webhook-allow-private-addresses=true to allow it';
    }
  }
  return undefined;
}
