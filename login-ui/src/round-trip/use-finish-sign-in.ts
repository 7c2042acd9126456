/**
 * After any successful sign-in (password, verified phone code): record the user as the session and go to
 * the home route, which either leaves for the application (round trip) or shows the signed-in page.
 * One place decides where a signed-in person goes (home-route.tsx).
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { setSignedIn } from '../api/queries.ts';
import type { SessionUser } from '../api/types.ts';
import { withRoundTrip } from '../layout/app-link.tsx';

export function useFinishSignIn(): (user: SessionUser) => void {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (user: SessionUser) => {
      setSignedIn(client, user);
      void navigate(withRoundTrip('/'), { replace: true });
    },
    [client, navigate],
  );
}
