export { hashPassword, verifyPassword, verifyAgainstDummy, passwordNeedsRehash, ARGON2_PARAMS } from './argon2.ts';
export { checkPasswordPolicy, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from './policy.ts';
