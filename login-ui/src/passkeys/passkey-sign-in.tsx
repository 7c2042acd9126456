/**
 * Passkey sign-in on the login page (docs/operations.md#webauthn_login_options without email: the usernameless,
 * discoverable-credential ceremony): a "Sign in with a passkey" button, and the browser's autofill of the
 * email field (conditional mediation, WebAuthn Level 3), started once the page shows and cancelled when it
 * leaves. A passkey answers like a password would: a session, or a further step (useSignInAnswer).
 */
import { Button } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../layout/form-error.tsx';
import { useSignInAnswer } from '../mfa/use-sign-in-answer.ts';
import { initialRoundTrip } from '../round-trip/round-trip.ts';
import { loginVerify } from '../api/passkey-operations.ts';
import { authenticateWithPasskey, cancelCeremony, passkeyAssertion, wasDismissed } from './ceremonies.ts';

/**
 * The autofill ceremony: waits in the background for the person to choose a passkey in the email field.
 * The person did not ask for it, so nothing before their choice is reported (no passkey here, a browser
 * that refuses this origin, options the server would not give): only the server's verdict on a chosen one.
 */
export function usePasskeyAutofill(enabled: boolean): { error: unknown } {
  const onAnswer = useSignInAnswer();
  const autofill = useMutation({
    mutationFn: async () => {
      let assertion: string;
      try {
        assertion = await passkeyAssertion({ autofill: true });
      } catch {
        return null;
      }
      return loginVerify(assertion, initialRoundTrip.state);
    },
    onSuccess: (answer) => {
      if (answer) onAnswer(answer);
    },
  });
  const { mutate } = autofill;
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void browserSupportsWebAuthnAutofill().then((supported) => {
      if (supported && live) mutate();
    });
    return () => {
      live = false;
      cancelCeremony();
    };
  }, [enabled, mutate]);
  return { error: autofill.error && !wasDismissed(autofill.error) ? autofill.error : null };
}

export function PasskeySignInButton() {
  const { t } = useTranslation();
  const onAnswer = useSignInAnswer();
  const signIn = useMutation({
    mutationFn: () => authenticateWithPasskey({ state: initialRoundTrip.state }),
    onSuccess: (answer) => onAnswer(answer),
  });
  if (!browserSupportsWebAuthn()) return null;
  const error = signIn.error && !wasDismissed(signIn.error) ? signIn.error : null;
  return (
    <>
      <FormError title={t('passkeys.signInFailed')} error={error} />
      <Button variant="default" fullWidth leftSection={<IconFingerprint size={18} />} loading={signIn.isPending} onClick={() => signIn.mutate()}>
        {t('passkeys.signIn')}
      </Button>
    </>
  );
}
