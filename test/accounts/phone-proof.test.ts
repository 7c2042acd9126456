/**
 * A texted code proves only the number it was texted to (users/address-proof.ts): a verify_otp code sent
 * while the account held one number must not mark verified another number the account moved to since, or
 * anyone could have a stranger's number stated verified (phone_number_verified in tokens, /userinfo and
 * SAML) with a code from their own phone. Over REST, GraphQL and gRPC.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { threeProtocols, CODES, type Protocol } from '../support/three-protocols.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { phoneProven } from '../../server/modules/users/address-proof.ts';

const PASSWORD = 'Ph0ne!proof-pass';

describe('a texted code proves only the number it was sent to', () => {
  let server: TestServer;
  let sms: SmsSink;
  let ops: ReturnType<typeof threeProtocols>;
  before(async () => {
    sms = await startSmsSink();
    server = await startServer(['--enable-phone-verification', ...sms.flags()]);
    ops = threeProtocols(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
    await sms?.close();
  });

  async function codeTextedTo(phone: string): Promise<string> {
    await server.app.outbox.idle();
    const texts = sms.requests.filter((r) => r.form.To === phone);
    assert.ok(texts.length > 0, `a code was texted to ${phone}`);
    return /\b(\d{6})\b/.exec(texts.at(-1)!.form.Body!)![1]!;
  }

  (['rest', 'graphql', 'grpc'] as Protocol[]).forEach((protocol, index) => {
    test(`${protocol}: a code texted to the old number does not verify the new one; a code texted to the new one does`, async () => {
      const own = `+1555010${index}001`;
      const stranger = `+1555010${index}002`;
      const email = `mover-${protocol}@example.com`;
      const signup = await ops.send(protocol, 'signup', { email, phone_number: own, password: PASSWORD, confirm_password: PASSWORD });
      assert.ok(signup.ok, JSON.stringify(signup.body));
      const bearer = { authorization: `Bearer ${signup.body.access_token}` };
      assert.ok((await ops.send(protocol, 'resend_otp', { phone_number: own })).ok);
      const oldCode = await codeTextedTo(own);

      const moved = await ops.send(protocol, 'update_profile', { phone_number: stranger, old_password: PASSWORD }, bearer);
      assert.ok(moved.ok, JSON.stringify(moved.body));
      const replayed = await ops.send(protocol, 'verify_otp', { phone_number: stranger, otp: oldCode });
      assert.equal(replayed.code, CODES.invalid[protocol], `the old number's code is refused: ${JSON.stringify(replayed.body)}`);
      const row = await server.app.deps.storage.fork().findOneOrFail(User, { email });
      assert.equal(row.phoneNumberVerifiedAt, null, 'the new number is not marked verified');
      assert.equal(phoneProven(row), false);

      assert.ok((await ops.send(protocol, 'resend_otp', { phone_number: stranger })).ok);
      const verified = await ops.send(protocol, 'verify_otp', { phone_number: stranger, otp: await codeTextedTo(stranger) });
      assert.ok(verified.ok, JSON.stringify(verified.body));
      assert.equal(phoneProven(await server.app.deps.storage.fork().findOneOrFail(User, { email })), true);
    });
  });
});
