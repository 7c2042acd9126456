/**
 * One button per social provider the server has switched on, on the sign-in and sign-up screens. Each is a
 * plain link (a full page load to /oauth_login/<provider>, a server route outside this app) carrying the
 * application's round trip (social-providers.ts socialReturn). Nothing renders when none is enabled.
 */
import { Button, Divider, Stack } from '@mantine/core';
import {
  IconBrandApple, IconBrandDiscord, IconBrandFacebook, IconBrandGithub, IconBrandGoogle, IconBrandLinkedin,
  IconBrandTwitch, IconBrandWindows, IconBrandX, IconLogin2,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { initialRoundTrip } from '../round-trip/round-trip.ts';
import { enabledProviders, socialLoginHref, type SocialFlags, type SocialProvider } from './social-providers.ts';

const ICONS: Record<SocialProvider, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>> = {
  google: IconBrandGoogle,
  github: IconBrandGithub,
  microsoft: IconBrandWindows,
  apple: IconBrandApple,
  facebook: IconBrandFacebook,
  linkedin: IconBrandLinkedin,
  discord: IconBrandDiscord,
  twitter: IconBrandX,
  twitch: IconBrandTwitch,
  roblox: IconLogin2,
};

export function SocialButtons({ meta, showDivider }: { meta: SocialFlags; showDivider: boolean }) {
  const { t } = useTranslation();
  const providers = enabledProviders(meta);
  if (providers.length === 0) return null;
  const origin = window.location.origin;
  return (
    <Stack gap="md" data-testid="social-sign-in">
      {showDivider ? <Divider label={t('social.or')} labelPosition="center" /> : null}
      <Stack gap="sm">
        {providers.map((provider) => {
          const Icon = ICONS[provider];
          return (
            <Button
              key={provider}
              component="a"
              href={socialLoginHref(provider, initialRoundTrip, origin)}
              variant="default"
              fullWidth
              leftSection={<Icon size={18} aria-hidden />}
              data-provider={provider}
            >
              {t('social.continueWith', { provider: t(`social.providers.${provider}`) })}
            </Button>
          );
        })}
      </Stack>
    </Stack>
  );
}
