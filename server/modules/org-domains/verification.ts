/**
 * verify_org_domain's DNS step (docs/api-overview.md#states-and-transitions: "published TXT record satisfies challenge"): one TXT
 * lookup of `_service-challenge.<domain>`, spent from the organization's dns_lookup allowance first
 * (modules/limits/policies.ts), so that nobody can use this server to send a stream of DNS queries. Every
 * outcome other than a matching record is failed_precondition naming the record to publish; a resolver's
 * failure is never a 500 and never echoes the resolver's own error text.
 */
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { challengeRecordName, challengeRecordValue, describeFound, recordsSatisfy } from './challenge.ts';
import { lookupTxt } from './txt-lookup.ts';

/** Resolves when DNS shows the challenge of `token` for `domain`; throws the refusal otherwise. */
export async function proveDnsControl(deps: Pick<Deps, 'limits' | 'config'>, orgId: string, domain: string, token: string): Promise<void> {
  await deps.limits.consume('dns_lookup', orgId);
  const name = challengeRecordName(domain);
  const publish = `publish a TXT record at ${name} with the value "${challengeRecordValue(token)}"`;
  const lookup = await lookupTxt(name, deps.config.dnsServers);
  if (lookup.found && recordsSatisfy(lookup.records, token)) return;
  if (lookup.found) {
    throw AppError.precondition(`the TXT records at ${name} do not hold this organization's challenge (found ${describeFound(lookup.records)}): ${publish}`);
  }
  if (lookup.reason === 'no_records') {
    throw AppError.precondition(`no TXT record found at ${name}: ${publish}, then verify again (DNS changes can take a few minutes to appear)`);
  }
  throw AppError.precondition(`could not look up the TXT records at ${name}: the DNS servers did not answer in time or failed; try again later`);
}
