/**
 * Adding a trusted issuer (`_add_trusted_issuer`) or editing one (`_update_trusted_issuer`). The issuer (iss)
 * and subject claim are fixed once added (the server's update does not take them), so editing shows them read
 * only. The server checks the JWKS URL (https, or http on a loopback host) and answers a clear refusal.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DialogButtons } from '../common/form-buttons.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { addTrustedIssuer, issuerKeys, updateTrustedIssuer, type TrustedIssuer } from './api.ts';

interface IssuerFormValues {
  name: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  subjectClaim: string;
  spiffeHint: string;
  active: boolean;
}

const EMPTY: IssuerFormValues = { name: '', issuer: '', jwksUrl: '', audience: '', subjectClaim: '', spiffeHint: '', active: true };

function valuesOf(issuer: TrustedIssuer | undefined): IssuerFormValues {
  if (!issuer) return EMPTY;
  return {
    name: issuer.name,
    issuer: issuer.issuer,
    jwksUrl: issuer.jwks_url,
    audience: issuer.audience,
    subjectClaim: issuer.subject_claim,
    spiffeHint: issuer.spiffe_hint ?? '',
    active: issuer.is_active,
  };
}

/** `editing` undefined: add an issuer to `clientId`. */
export function IssuerFormModal({ opened, clientId, editing, onClose }: {
  opened: boolean;
  clientId: string;
  editing?: TrustedIssuer;
  onClose: () => void;
}) {
  const { t } = useTranslation('issuers');
  const form = useForm<IssuerFormValues>({ defaultValues: valuesOf(editing) });
  const { errors } = form.formState;
  useEffect(() => {
    if (opened) form.reset(valuesOf(editing));
  }, [opened, editing, form]);
  const save = useAdminMutation({
    mutationFn: (v: IssuerFormValues) =>
      editing
        ? updateTrustedIssuer(editing.id, {
            name: v.name.trim(),
            jwks_url: v.jwksUrl.trim(),
            ...(v.audience.trim() ? { audience: v.audience.trim() } : {}),
            spiffe_hint: v.spiffeHint.trim(),
            is_active: v.active,
          })
        : addTrustedIssuer({
            client_id: clientId,
            name: v.name.trim(),
            issuer: v.issuer.trim(),
            jwks_url: v.jwksUrl.trim(),
            ...(v.audience.trim() ? { audience: v.audience.trim() } : {}),
            ...(v.subjectClaim.trim() ? { subject_claim: v.subjectClaim.trim() } : {}),
            ...(v.spiffeHint.trim() ? { spiffe_hint: v.spiffeHint.trim() } : {}),
            is_active: v.active,
          }),
    invalidates: [issuerKeys.ofClient(clientId)],
    successMessage: () => (editing ? t('saved') : t('added')),
    onSuccess: onClose,
  });
  const within = (max: number, required = false) => (value: string) => {
    if (required && !value.trim()) return t('fields.required');
    return value.trim().length <= max || t('fields.tooLong', { max });
  };
  const absoluteUrl = (value: string) => {
    if (!value.trim()) return t('fields.required');
    return /^https?:\/\/[^/\\\s]+/i.test(value.trim()) || t('fields.notUrl');
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? t('editTitle') : t('addTitle')} centered size="lg">
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput label={t('fields.name')} required data-autofocus error={errors.name?.message} {...form.register('name', { validate: within(255, true) })} />
          <TextInput
            label={t('fields.issuer')}
            description={t('fields.issuerHint')}
            required={!editing}
            readOnly={Boolean(editing)}
            placeholder="https://issuer.example.com"
            error={errors.issuer?.message}
            {...form.register('issuer', { validate: editing ? undefined : within(255, true) })}
          />
          <TextInput
            label={t('fields.jwksUrl')}
            description={t('fields.jwksUrlHint')}
            required
            type="url"
            placeholder="https://issuer.example.com/.well-known/jwks.json"
            error={errors.jwksUrl?.message}
            {...form.register('jwksUrl', { validate: absoluteUrl })}
          />
          <TextInput label={t('fields.audience')} description={t('fields.audienceHint')} error={errors.audience?.message} {...form.register('audience', { validate: within(2048) })} />
          <TextInput
            label={t('fields.subjectClaim')}
            description={t('fields.subjectClaimHint')}
            placeholder="sub"
            readOnly={Boolean(editing)}
            error={errors.subjectClaim?.message}
            {...form.register('subjectClaim', { validate: editing ? undefined : within(128) })}
          />
          <TextInput label={t('fields.spiffeHint')} description={t('fields.spiffeHintHint')} placeholder="spiffe://example.org" error={errors.spiffeHint?.message} {...form.register('spiffeHint', { validate: within(2048) })} />
          <Switch label={t('fields.active')} {...form.register('active')} />
          <DialogButtons onCancel={onClose} submitLabel={editing ? t('save') : t('add')} submitting={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
