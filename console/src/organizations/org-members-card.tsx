/**
 * The members of an organization (`_org_members`, paged on the server): each one's account (a link to the
 * user's page), org roles as tags with service:org_admin marked, editing the roles, removal after a
 * confirmation (`_remove_org_member`), and adding a member.
 */
import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, EmptyState, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconUserMinus, IconUserPlus, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmActionIcon } from '../common/confirm.tsx';
import { formatTimestamp, userLabel } from '../common/format.ts';
import { PagedTable } from '../common/paged-table.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { organizationKeys, removeOrgMember, useOrgMembers, type OrgMember, type Organization } from './api.ts';
import { MemberModal } from './member-modal.tsx';
import { ORG_ADMIN_ROLE } from './org-rules.ts';

const PAGE_SIZE = 10;

function memberLabel(member: OrgMember): string {
  return member.user ? userLabel(member.user) : member.user_id;
}

function MemberRow({ member, organization, onEdit }: { member: OrgMember; organization: Organization; onEdit: () => void }) {
  const { t } = useTranslation('organizations');
  const label = memberLabel(member);
  const fullName = [member.user?.given_name, member.user?.family_name].filter(Boolean).join(' ');
  const remove = useAdminMutation({
    mutationFn: () => removeOrgMember(organization.id, member.user_id),
    invalidates: [organizationKeys.members(organization.id)],
    successMessage: () => t('members.removed', { user: label }),
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/users/${encodeURIComponent(member.user_id)}`} fw={600} size="sm">
          {label}
        </Anchor>
        {fullName && (
          <Text size="xs" c="dimmed">
            {fullName}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {member.roles.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('members.noRoles')}
          </Text>
        ) : (
          <Group gap={4}>
            {member.roles.map((role) => (
              <Badge key={role} variant={role === ORG_ADMIN_ROLE ? 'filled' : 'outline'} size="sm" tt="none">
                {role}
              </Badge>
            ))}
          </Group>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatTimestamp(member.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('members.editRoles')} withArrow>
            <ActionIcon variant="subtle" onClick={onEdit} aria-label={t('members.editRolesOf', { user: label })}>
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <ConfirmActionIcon
            label={t('members.remove', { user: label })}
            loading={remove.isPending}
            confirmTitle={t('members.removeConfirmTitle', { user: label })}
            confirmBody={t('members.removeConfirmBody', { user: label, org: organization.display_name })}
            confirmLabel={t('members.removeConfirm')}
            onConfirm={() => remove.mutate(undefined)}
          >
            <IconUserMinus size={16} />
          </ConfirmActionIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function OrgMembersCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const [page, setPage] = useState(1);
  const members = useOrgMembers(organization.id, { page, limit: PAGE_SIZE });
  // undefined: closed; null: adding; a member: editing that member's roles.
  const [editing, setEditing] = useState<OrgMember | null | undefined>();

  return (
    <SectionCard
      title={t('members.title')}
      description={t('members.description')}
      actions={
        <Button leftSection={<IconUserPlus size={16} />} variant="light" onClick={() => setEditing(null)}>
          {t('members.add')}
        </Button>
      }
    >
      <Text size="xs" c="dimmed" mb="sm">
        {t('members.orgAdminHint')}
      </Text>
      <PagedTable
        query={members}
        rows={members.data?.members}
        columns={[t('members.columns.user'), t('members.columns.roles'), t('members.columns.added'), t('members.columns.actions')]}
        renderRow={(member) => <MemberRow member={member} organization={organization} onEdit={() => setEditing(member)} />}
        label={t('members.caption')}
        pagerLabel={t('members.pager')}
        onPage={setPage}
        empty={<EmptyState size="sm" icon={<IconUsersGroup size={28} />} withIndicatorBackground title={t('members.empty')} py="lg" />}
        minWidth={640}
        loadingRows={3}
      />
      <MemberModal opened={editing !== undefined} orgId={organization.id} member={editing ?? undefined} onClose={() => setEditing(undefined)} />
    </SectionCard>
  );
}
