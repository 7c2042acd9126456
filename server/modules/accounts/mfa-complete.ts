/**
 * The end of a sign-in that waited at the MFA gate: the sign-in policy's finishSecondFactor
 * (sign-in-policy.ts), under the name the second-factor operations have always imported.
 */
export { finishSecondFactor as finishGatedLogin } from './sign-in-policy.ts';
