/**
 * The per-IP bucket counts an IPv6 client by its /64 (RFC 6177 section 3), so one host cannot take a fresh
 * allowance for each of its interface addresses; IPv4 and IPv4-mapped addresses count alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey } from '../../server/modules/limits/index.ts';

test('IPv4 addresses are their own key, IPv4-mapped IPv6 counts as the IPv4', () => {
  assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
  assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.notEqual(clientKey('203.0.113.7'), clientKey('203.0.113.8'));
});

test('IPv6 addresses of one /64 share a key; other /64s do not', () => {
  const one = clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
  assert.equal(one, '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8:1:2::1'), one);
  assert.equal(clientKey('2001:0DB8:0001:0002:ffff::9%eth0'), one);
  assert.notEqual(clientKey('2001:db8:1:3::1'), one);
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
});

test('anything unparsable is kept as given', () => {
  assert.equal(clientKey('unix-socket'), 'unix-socket');
});
