/**
 * Which addresses a webhook may reach (docs/events.md: outbound calls refuse private and loopback
 * addresses unless explicitly allowed; OWASP SSRF Prevention Cheat Sheet): the server's one outbound address
 * policy (kernel/outbound-address.ts), lifted by --webhook-allow-private-addresses=true.
 *
 * A host name is resolved once here; the caller connects to exactly the addresses checked (send.ts passes
 * them as the socket's `lookup`), so a second, rebinding DNS answer is never consulted.
 */
import { InternalAddressError, resolvePinned, type PinnedAddress } from '../../kernel/outbound-address.ts';

export { isLocalName, isRefusedAddress, literalAddress } from '../../kernel/outbound-address.ts';

export const PRIVATE_ADDRESS_MESSAGE =
  'endpoint resolves to a loopback, private, link-local or otherwise internal address; set --webhook-allow-private-addresses=true to allow it';

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  constructor() {
    super(PRIVATE_ADDRESS_MESSAGE);
  }
}

export type ResolvedAddress = PinnedAddress;

/**
 * Resolves `hostname` once and returns the addresses to connect to. When private addresses are refused,
 * a name with any refused address is refused whole (a mixed answer is how rebinding attacks start).
 */
export async function resolveEndpoint(hostname: string, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  try {
    return await resolvePinned(hostname, allowPrivate);
  } catch (err) {
    if (err instanceof InternalAddressError) throw new RefusedAddressError();
    throw err;
  }
}
