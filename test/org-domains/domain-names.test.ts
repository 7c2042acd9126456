/**
 * Domain normalisation (modules/organizations/domain-name.ts: WHATWG domainToASCII, RFC 1035 section 2.3.4
 * lengths, RFC 5890 LDH labels), the email domain home-realm discovery reads, and the --dns-servers flag
 * (config/dns-servers.ts): IP addresses with optional ports only, anything else a startup refusal.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { emailDomain, normaliseDomain } from '../../server/modules/org-domains/index.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { baseFlags } from '../support/app.ts';

describe('domain names', () => {
  test('one spelling per domain: case, trailing dot, Unicode and Punycode', () => {
    assert.equal(normaliseDomain('Example.COM'), 'example.com');
    assert.equal(normaliseDomain(' example.com. '), 'example.com');
    assert.equal(normaliseDomain('Bücher.example'), 'xn--bcher-kva.example');
    assert.equal(normaliseDomain('xn--bcher-kva.example'), 'xn--bcher-kva.example');
    assert.equal(normaliseDomain('例え.テスト'), 'xn--r8jz45g.xn--zckzah');
    assert.equal(normaliseDomain('sub.example.co.uk'), 'sub.example.co.uk');
  });

  test('refuses what no organization can own or DNS cannot hold', () => {
    const label63 = 'a'.repeat(63);
    assert.equal(normaliseDomain(`${label63}.example`), `${label63}.example`);
    assert.equal(normaliseDomain(`${'a'.repeat(64)}.example`), undefined, 'a label over 63 octets');
    const long = `${[label63, label63, label63].join('.')}.${'b'.repeat(61)}.com`; // 257 octets
    assert.equal(normaliseDomain(long), undefined, 'over 253 octets');
    for (const bad of ['', '.', 'com', 'localhost', 'co.uk', 'com.au', '192.168.0.1', '::1', '[::1]', '1.2.3.4.', '*.example.com', 'a.*.com',
      'a..com', '.example.com', '-a.example', 'a-.example', 'a_b.example', 'exa mple.com', 'example.c0m1', 'example.123',
      'user@example.com', 'http://example.com', 'example.com/x', 'example.com:443']) {
      assert.equal(normaliseDomain(bad), undefined, JSON.stringify(bad));
    }
  });

  test('emailDomain reads the part after the last @, normalised', () => {
    assert.equal(emailDomain('Jane@ACME.example'), 'acme.example');
    assert.equal(emailDomain('"a@b"@Bücher.example'), 'xn--bcher-kva.example');
    assert.equal(emailDomain('jane@localhost'), undefined);
    assert.equal(emailDomain('jane@'), undefined);
    assert.equal(emailDomain('@acme.example'), undefined);
    assert.equal(emailDomain('no-at-sign'), undefined);
    assert.equal(emailDomain('jane@[127.0.0.1]'), undefined);
  });
});

describe('--dns-servers', () => {
  const flags = (...extra: string[]) => [...baseFlags('/tmp/portcullis-dns-flag'), ...extra];

  test('defaults to the system resolver (an empty list)', () => {
    assert.deepEqual(parseConfig(flags()).dnsServers, []);
  });

  test('takes IPv4 and IPv6 addresses with optional ports', () => {
    assert.deepEqual(parseConfig(flags('--dns-servers', '1.1.1.1,127.0.0.1:5353,[2606:4700::1111]:53,::1')).dnsServers,
      ['1.1.1.1', '127.0.0.1:5353', '[2606:4700::1111]:53', '::1']);
  });

  test('a host name, a bad port or a URL is a startup refusal naming the flag', () => {
    for (const bad of ['dns.google', '1.1.1.1:0', '1.1.1.1:65536', '1.1.1.1:', '[::1]', 'udp://1.1.1.1', '1.1.1', '[1.1.1.1]:53']) {
      assert.throws(() => parseConfig(flags('--dns-servers', bad)), /--dns-servers: .* is not an IP address with an optional port/, bad);
    }
  });
});
