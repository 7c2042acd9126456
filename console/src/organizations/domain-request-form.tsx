/**
 * Claiming a domain: `_request_org_domain` answers the TXT record to publish, shown at once with copy
 * buttons; the super-admin may instead add it as verified without DNS (`_add_verified_org_domain`,
 * docs/api-overview.md#states-and-transitions), e.g. for a domain whose ownership was checked another way.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconWorldCheck, IconPlus, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../common/copyable-value.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { addVerifiedOrgDomain, domainKeys, requestOrgDomain, type DomainChallenge } from './domains-api.ts';

/** RFC 1035 section 2.3.4: at most 253 characters in text form; the server checks the rest (labels, suffixes). */
const MAX_DOMAIN = 253;

export function DomainRecord({ challenge, verified = false }: {
  challenge: Pick<DomainChallenge, 'domain' | 'record_name' | 'record_value'> & { record_type?: string };
  /** A verified domain's record is shown for reference, not as a step still to take. */
  verified?: boolean;
}) {
  const { t } = useTranslation('organizations');
  const type = challenge.record_type ?? 'TXT';
  return (
    <Stack gap="xs">
      <Text size="sm">{verified ? t('domains.recordHintVerified', { domain: challenge.domain, type }) : t('domains.recordHint', { type })}</Text>
      <CopyableValue label={t('domains.recordName')} value={challenge.record_name} testId="domain-record-name" />
      <CopyableValue label={t('domains.recordValue')} value={challenge.record_value} testId="domain-record-value" />
    </Stack>
  );
}

export function DomainRequestForm({ orgId }: { orgId: string }) {
  const { t } = useTranslation('organizations');
  const form = useForm<{ domain: string }>({ defaultValues: { domain: '' } });
  const [challenge, setChallenge] = useState<DomainChallenge | undefined>();
  const request = useAdminMutation({
    mutationFn: (domain: string) => requestOrgDomain(orgId, domain),
    invalidates: [domainKeys.list(orgId)],
    successMessage: () => undefined,
    onSuccess: (answer) => {
      setChallenge(answer);
      form.reset({ domain: '' });
    },
  });
  const addVerified = useAdminMutation({
    mutationFn: (domain: string) => addVerifiedOrgDomain(orgId, domain),
    invalidates: [domainKeys.list(orgId)],
    successMessage: (domain) => t('domains.addedVerified', { domain: domain.domain }),
    onSuccess: () => {
      setChallenge(undefined);
      form.reset({ domain: '' });
    },
  });
  const rules = {
    validate: (value: string) => {
      if (!value.trim()) return t('domains.required');
      return value.trim().length <= MAX_DOMAIN || t('fields.tooLong', { max: MAX_DOMAIN });
    },
  };

  return (
    <Stack gap="md">
      <form onSubmit={form.handleSubmit((values) => request.mutate(values.domain.trim()))} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('domains.domain')}
            description={t('domains.domainHint')}
            placeholder="example.com"
            spellCheck={false}
            autoCapitalize="none"
            style={{ flex: 1, minWidth: 260 }}
            error={form.formState.errors.domain?.message}
            {...form.register('domain', rules)}
          />
          <Group gap="sm" mt={44}>
            <Button type="submit" leftSection={<IconPlus size={16} />} loading={request.isPending}>
              {t('domains.request')}
            </Button>
            <Tooltip label={t('domains.addVerifiedHint')} withArrow multiline w={260}>
              <Button
                variant="default"
                leftSection={<IconRosetteDiscountCheck size={16} />}
                loading={addVerified.isPending}
                onClick={form.handleSubmit((values) => addVerified.mutate(values.domain.trim()))}
              >
                {t('domains.addVerified')}
              </Button>
            </Tooltip>
          </Group>
        </Group>
      </form>
      {challenge && (
        <Alert
          color="blue"
          variant="light"
          icon={<IconWorldCheck size={18} />}
          title={t('domains.publishTitle', { domain: challenge.domain })}
          withCloseButton
          closeButtonLabel={t('domains.hideRecord')}
          onClose={() => setChallenge(undefined)}
        >
          <DomainRecord challenge={challenge} />
        </Alert>
      )}
    </Stack>
  );
}
