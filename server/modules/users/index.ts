import { defineModule } from '../manifest.ts';
import { User } from './user.entity.ts';
import { IdentityClaim } from './identity-claim.entity.ts';
import { userAdminOperations } from './admin-users.ops.ts';

export { User, type UserRow } from './user.entity.ts';
export { UserSchema, toPublicUser, unixSeconds, type PublicUser } from './user.schema.ts';
export { IdentityClaim } from './identity-claim.entity.ts';
export { DUPLICATE_USER_MESSAGE, claimId, takeClaim, releaseClaim, releaseAllClaims, type ClaimKind } from './identity-claims.ts';
export { normaliseEmail, normalisePhoneNumber, isValidEmail, requireEmail, requirePhoneNumber } from './contact.ts';
export {
  createUser,
  findUserById,
  findUserByEmail,
  findUserByPhone,
  updateUserContact,
  purgeUser,
  type NewUserData,
  type LookupOptions,
  type ContactChange,
} from './users.service.ts';
export { findSignInAccount } from './sign-in-lookup.ts';
export {
  EMAIL_PROOFS,
  PHONE_PROOFS,
  markEmailVerified,
  clearEmailVerification,
  emailProven,
  emailProvenForLinking,
  markPhoneVerified,
  clearPhoneVerification,
  phoneProven,
  provenAddressClaims,
  type EmailProof,
  type PhoneProof,
} from './address-proof.ts';
export { rolesForSignup, rolesForLogin, assignableRoles, heldRoles } from './roles.ts';
export { userAdminOperations, onAdminMfaReset } from './admin-users.ops.ts';

export const usersModule = defineModule({ name: 'users', entities: [User, IdentityClaim], operations: userAdminOperations });
