/**
 * The frame of every screen: the organization's name and logo (readBranding: --organization-name,
 * --organization-logo), one card with the screen's h1, and the page title "<screen> · <organization>".
 * A single column that fits a 320 px phone (WCAG 1.4.10 reflow).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Box, Center, Group, Image, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { readBranding } from '../../../ui-shared/branding.ts';

const branding = readBranding();

export interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  /** Below the card: links to the other screens. */
  footer?: ReactNode;
}

function Brand() {
  const { t } = useTranslation();
  const organization = branding.organizationName;
  return (
    <Group gap="sm" justify="center" wrap="nowrap">
      {branding.organizationLogo ? (
        <Image src={branding.organizationLogo} alt={t('common.logoAlt', { organization })} h={40} w="auto" maw={160} fit="contain" />
      ) : (
        <ThemeIcon size={40} radius="md" variant="filled" aria-hidden>
          <IconShieldLock size={24} stroke={1.8} />
        </ThemeIcon>
      )}
      <Text fw={650} fz="lg" lineClamp={1}>
        {organization}
      </Text>
    </Group>
  );
}

export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  useDocumentTitle(`${title} · ${branding.organizationName}`);
  const heading = useRef<HTMLHeadingElement>(null);
  // A new screen without a field to type in announces its heading: focus would otherwise fall back to the
  // page body when the link that led here unmounts (WCAG 2.4.3 focus order).
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) heading.current?.focus();
  }, [title]);
  return (
    <Box component="main" mih="100dvh" bg="gray.0" px="md" py={{ base: 'xl', sm: 64 }}>
      <Center>
        <Stack w="100%" maw={420} gap="lg">
          <Brand />
          <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
            <Stack gap="lg">
              <Stack gap={6}>
                <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.25} ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
                  {title}
                </Title>
                {subtitle ? (
                  <Text c="dimmed" fz="sm">
                    {subtitle}
                  </Text>
                ) : null}
              </Stack>
              {children}
            </Stack>
          </Paper>
          {footer ? (
            <Stack gap={6} align="center">
              {footer}
            </Stack>
          ) : null}
        </Stack>
      </Center>
    </Box>
  );
}

export const organizationName = branding.organizationName;
