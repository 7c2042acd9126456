export { hashPassword, verifyPassword, verifyAgainstDummy, passwordNeedsRehash, ARGON2_PARAMS } from './argon2.ts';
export { checkPasswordPolicy, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from './policy.ts';
export { storedFormOf, firebaseStoredHash, ImportedHashError, HASH_BOUNDS, schemeOf, type ImportedHashScheme } from './imported-hash.ts';
export { checkFirebaseParams, firebaseScryptHash, type FirebaseScryptParams, type FirebaseKeyResolver } from './imported-verify.ts';
