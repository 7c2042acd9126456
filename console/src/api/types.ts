/**
 * The console's names for the admin answers it reads, all generated from the operation registry
 * (ui-shared/contract/types.ts; timestamps are Unix seconds). A renamed or removed server field fails the
 * UI typecheck.
 */
import type { Input, Output } from '../../../ui-shared/contract/call.ts';

export type { Pagination } from '../../../ui-shared/contract/types.ts';

/** The page a table asks for (the server's PaginationRequest with both numbers set). */
export type PageRequest = Required<NonNullable<Input<'users'>['pagination']>>;

export type AdminUser = Output<'user'>;
export type UserSession = Output<'user_sessions'>['sessions'][number];
export type VerificationRequest = Output<'verification_requests'>['verification_requests'][number];

/** `_admin_meta`: meta plus the role configuration. */
export type AdminMeta = Output<'admin_meta'>;
/** The on/off settings of `_admin_meta`. */
export type AdminMetaFlag = Extract<keyof AdminMeta, `is_${string}`>;

export type MessageAnswer = Output<'admin_logout'>;
