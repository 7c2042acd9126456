/**
 * The fields a client is registered and edited with (react-hook-form), shared by the create dialog and the
 * client page: name, description, allowed scopes, redirect URIs, post-logout redirect URIs and resource
 * indicators (one per line), consent and pushed authorization requests. Each is checked
 * with the server's rules (client-rules.ts) as the form is submitted, so the error sits beside its field.
 */
import { Controller, type UseFormReturn } from 'react-hook-form';
import { Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SwitchField } from '../common/switch-field.tsx';
import type { ClientFields, OAuthClient } from './api.ts';
import {
  MAX_DESCRIPTION, MAX_NAME, MAX_REDIRECT_URIS, MAX_SCOPES, isScopeToken, postLogoutRedirectUriProblem, redirectUriLines,
  redirectUriProblem, type RedirectUriProblem,
} from './client-rules.ts';

export interface ClientFormValues {
  name: string;
  description: string;
  scopes: string[];
  /** One redirect URI per line. */
  redirectUris: string;
  /** One post-logout redirect URI per line. */
  postLogoutRedirectUris: string;
  consentRequired: boolean;
  /** RFC 9126 section 6: sign-in requests only through POST /oauth/par. */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 8707 resource indicators, one per line. */
  allowedResources: string;
}

/** The server's bound on allowed_resources (clients/allowed-resources.ts MAX_RESOURCES). */
const MAX_RESOURCES = 20;

/** RFC 8707 section 2: an absolute URI without a fragment; the key of its problem, or undefined. */
function resourceProblem(uri: string): string | undefined {
  if (uri.includes('#')) return 'fields.resourceFragment';
  try {
    new URL(uri);
    return undefined;
  } catch {
    return 'fields.resourceNotAbsolute';
  }
}

/**
 * A new client's starting values. The scopes are the server's default for a registration without any
 * (create_client: openid email profile), shown as real values rather than a placeholder that looked like a
 * default and was not one.
 */
export const DEFAULT_CLIENT_SCOPES = ['openid', 'email', 'profile'];

export const emptyClientForm: ClientFormValues = {
  name: '', description: '', scopes: DEFAULT_CLIENT_SCOPES, redirectUris: '', postLogoutRedirectUris: '', consentRequired: false,
  requirePushedAuthorizationRequests: false,
  allowedResources: '',
};

export function clientFormValues(client: OAuthClient): ClientFormValues {
  return {
    name: client.name,
    description: client.description,
    scopes: client.allowed_scopes,
    redirectUris: client.redirect_uris.join('\n'),
    postLogoutRedirectUris: client.post_logout_redirect_uris.join('\n'),
    consentRequired: client.consent_required,
    requirePushedAuthorizationRequests: client.require_pushed_authorization_requests,
    allowedResources: client.allowed_resources.join('\n'),
  };
}

export function clientFields(values: ClientFormValues): ClientFields {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    allowed_scopes: values.scopes,
    redirect_uris: redirectUriLines(values.redirectUris),
    post_logout_redirect_uris: redirectUriLines(values.postLogoutRedirectUris),
    consent_required: values.consentRequired,
    require_pushed_authorization_requests: values.requirePushedAuthorizationRequests,
    allowed_resources: redirectUriLines(values.allowedResources),
  };
}

export function ClientFormFields({ form, autoFocus }: { form: UseFormReturn<ClientFormValues>; autoFocus?: boolean }) {
  const { t } = useTranslation('clients');
  const { errors } = form.formState;

  /** The first line's problem by `problemOf`, or too many lines, or true. */
  const checkUriLines = (text: string, problemOf: (uri: string) => RedirectUriProblem | undefined, tooManyKey: string): true | string => {
    const lines = text.split('\n');
    let count = 0;
    for (const [index, raw] of lines.entries()) {
      const uri = raw.trim();
      if (!uri) continue;
      count += 1;
      const problem = problemOf(uri);
      if (problem) {
        return t('redirectUri.lineProblem', { line: index + 1, problem: t(`redirectUri.${problem.key}`, problem) });
      }
    }
    return count <= MAX_REDIRECT_URIS || t(tooManyKey, { max: MAX_REDIRECT_URIS });
  };
  const uriBoxProps = {
    autosize: true,
    minRows: 3,
    maxRows: 10,
    spellCheck: false,
    autoComplete: 'off',
    styles: { input: { fontFamily: 'var(--mantine-font-family-monospace)' } },
  } as const;

  return (
    <Stack gap="md">
      <TextInput
        label={t('fields.name')}
        description={t('fields.nameHint')}
        required
        data-autofocus={autoFocus || undefined}
        error={errors.name?.message}
        {...form.register('name', {
          validate: (name) => {
            if (!name.trim()) return t('fields.nameRequired');
            return name.trim().length <= MAX_NAME || t('fields.nameTooLong', { max: MAX_NAME });
          },
        })}
      />
      <Textarea
        label={t('fields.description')}
        autosize
        minRows={2}
        maxRows={5}
        error={errors.description?.message}
        {...form.register('description', {
          validate: (text) => text.trim().length <= MAX_DESCRIPTION || t('fields.descriptionTooLong', { max: MAX_DESCRIPTION }),
        })}
      />
      <Controller
        control={form.control}
        name="scopes"
        rules={{
          validate: (scopes) => {
            if (scopes.length > MAX_SCOPES) return t('fields.scopesTooMany', { max: MAX_SCOPES });
            const bad = scopes.find((scope) => !isScopeToken(scope));
            return bad === undefined || t('fields.badScope', { scope: bad });
          },
        }}
        render={({ field, fieldState }) => (
          <TagsInput
            label={t('fields.scopes')}
            description={t('fields.scopesHint')}
            value={field.value}
            onChange={(values) => field.onChange([...new Set(values.map((v) => v.trim()).filter(Boolean))])}
            onBlur={field.onBlur}
            ref={field.ref}
            // A space ends a scope (scope tokens hold none, RFC 6749 section 3.3); a comma is a valid character.
            splitChars={[' ']}
            acceptValueOnBlur
            clearable
            error={fieldState.error?.message}
          />
        )}
      />
      <Textarea
        label={t('fields.redirectUris')}
        description={t('fields.redirectUrisHint')}
        placeholder={'https://app.example.com/callback\nhttp://127.0.0.1:8000/callback'}
        {...uriBoxProps}
        error={errors.redirectUris?.message}
        {...form.register('redirectUris', { validate: (text) => checkUriLines(text, redirectUriProblem, 'fields.redirectUrisTooMany') })}
      />
      <Textarea
        label={t('fields.postLogoutRedirectUris')}
        description={t('fields.postLogoutRedirectUrisHint')}
        placeholder={'https://app.example.com/signed-out\nhttp://127.0.0.1:8000/signed-out'}
        {...uriBoxProps}
        error={errors.postLogoutRedirectUris?.message}
        {...form.register('postLogoutRedirectUris', {
          validate: (text) => checkUriLines(text, postLogoutRedirectUriProblem, 'fields.postLogoutRedirectUrisTooMany'),
        })}
      />
      <Textarea
        label={t('fields.allowedResources')}
        description={t('fields.allowedResourcesHint')}
        placeholder={'https://mcp.example.com/mcp'}
        {...uriBoxProps}
        error={errors.allowedResources?.message}
        {...form.register('allowedResources', {
          validate: (text) => {
            const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
            if (lines.length > MAX_RESOURCES) return t('fields.allowedResourcesTooMany', { max: MAX_RESOURCES });
            const bad = lines.find((line) => resourceProblem(line));
            return bad === undefined || t(resourceProblem(bad)!, { resource: bad });
          },
        })}
      />
      <SwitchField control={form.control} name="consentRequired" label={t('fields.consentRequired')} description={t('fields.consentRequiredHint')} />
      <SwitchField
        control={form.control}
        name="requirePushedAuthorizationRequests"
        label={t('fields.requirePushedAuthorizationRequests')}
        description={t('fields.requirePushedAuthorizationRequestsHint')}
      />
    </Stack>
  );
}
