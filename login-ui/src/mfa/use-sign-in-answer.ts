/**
 * One place that decides what a first factor's answer leads to (password, magic link, texted code, passkey,
 * signup): a session goes home (useFinishSignIn), a pending second factor goes to /mfa with its flags in the
 * history state (mfa-step.ts) and an offer's authenticator-app enrolment in memory (offer-enrolment.ts). Anything else is the caller's to explain.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { AuthAnswer, Identifier } from '../api/types.ts';
import { withRoundTrip } from '../layout/app-link.tsx';
import { useFinishSignIn } from '../round-trip/use-finish-sign-in.ts';
import { isMfaStep, stepOf } from './mfa-step.ts';
import { keepOfferEnrolment } from './offer-enrolment.ts';

/** Answers true when the answer was handled (signed in, or on to the second factor). */
export function useSignInAnswer(): (answer: AuthAnswer, who?: Identifier) => boolean {
  const navigate = useNavigate();
  const finishSignIn = useFinishSignIn();
  return useCallback(
    (answer: AuthAnswer, who?: Identifier) => {
      if (isMfaStep(answer)) {
        keepOfferEnrolment(answer);
        void navigate(withRoundTrip('/mfa'), { state: stepOf(answer, who) });
        return true;
      }
      if (answer.user) {
        finishSignIn(answer.user);
        return true;
      }
      return false;
    },
    [navigate, finishSignIn],
  );
}
