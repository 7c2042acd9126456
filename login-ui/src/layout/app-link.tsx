/**
 * A link to another screen of this app that keeps the application's redirect_uri and state in the URL, so
 * a reload or a new tab still finishes the round trip (the server vets it again at that page load).
 */
import type { ReactNode } from 'react';
import { Anchor, type AnchorProps } from '@mantine/core';
import { Link } from 'react-router';
import { initialRoundTrip, querySuffix } from '../round-trip/round-trip.ts';

export function withRoundTrip(path: string): string {
  return `${path}${querySuffix(initialRoundTrip)}`;
}

export function AppLink({ to, children, ...props }: AnchorProps & { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={withRoundTrip(to)} fz="sm" {...props}>
      {children}
    </Anchor>
  );
}
