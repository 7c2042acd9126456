/**
 * The first step of the email-first sign-in (meta `is_org_discovery_enabled`): who is signing in. An email
 * address whose domain an organization verified, with an enabled SSO connection, is offered that
 * organization's SSO (org_discovery); anyone else, and a phone number, continues to the password step.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { IdentifierField } from '../identifier/identifier-field.tsx';
import { identifierRules, parseIdentifier, type IdentifierModes } from '../identifier/identifier.ts';
import { FormError } from '../layout/form-error.tsx';
import { initialRoundTrip } from '../round-trip/round-trip.ts';
import { discoverOrganization, ssoStartHref } from './org-discovery.ts';

interface Offer {
  displayName: string;
  email: string;
  href: string;
}

export function EmailFirstStep({ modes, passkeyAutofill, initialValue, onPassword }: {
  modes: IdentifierModes;
  passkeyAutofill: boolean;
  initialValue: string;
  /** Continue to the password step with what was typed. */
  onPassword: (identifier: string) => void;
}) {
  const { t } = useTranslation();
  const [offer, setOffer] = useState<Offer | undefined>();
  // The submit button that had focus is gone once the offer shows: focus the offer so a keyboard user is
  // not left on the page body (React's autoFocus does not reach a link).
  const offerLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (offer) offerLink.current?.focus();
  }, [offer]);
  const { register, handleSubmit, formState } = useForm<{ identifier: string }>({ defaultValues: { identifier: initialValue } });
  const discovery = useMutation({
    mutationFn: async (input: { email: string; typed: string }) => ({ ...input, answer: await discoverOrganization(input.email) }),
    onSuccess: ({ email, typed, answer }) => {
      const href = answer.sso && answer.sso_url ? ssoStartHref(answer.sso_url, email, initialRoundTrip) : undefined;
      if (href) setOffer({ displayName: answer.display_name || answer.organization || '', email, href });
      else onPassword(typed);
    },
  });
  const onSubmit = handleSubmit((values) => {
    const who = parseIdentifier(values.identifier, modes);
    if (!who) return;
    if (who.email) discovery.mutate({ email: who.email, typed: values.identifier });
    else onPassword(values.identifier);
  });

  if (offer) {
    return (
      <Stack gap="md">
        <Text fz="sm">{t('orgSso.offer', { organization: offer.displayName, email: offer.email })}</Text>
        <Button component="a" ref={offerLink} href={offer.href} fullWidth leftSection={<IconBuildingSkyscraper size={18} />}>
          {t('orgSso.continue', { organization: offer.displayName })}
        </Button>
        <Button variant="subtle" fullWidth onClick={() => setOffer(undefined)}>
          {t('orgSso.otherAccount')}
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('orgSso.identify')}>
      <Stack gap="md">
        {/* Discovery refused (rate limit, server trouble): the password step stays open to everyone. */}
        <FormError
          title={t('orgSso.failed')}
          error={discovery.error}
          action={
            discovery.variables ? (
              <Button size="xs" variant="white" color="red" onClick={() => onPassword(discovery.variables!.typed)}>
                {t('orgSso.usePassword')}
              </Button>
            ) : null
          }
        />
        <IdentifierField
          modes={modes}
          purpose="sign-in"
          passkeyAutofill={passkeyAutofill}
          autoFocus
          error={formState.errors.identifier?.message ? t(formState.errors.identifier.message) : undefined}
          {...register('identifier', identifierRules(modes))}
        />
        <Button type="submit" fullWidth loading={discovery.isPending}>
          {t('orgSso.next')}
        </Button>
      </Stack>
    </form>
  );
}
