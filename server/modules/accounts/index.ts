/** Account flows (specification part 4): the public account operations and the super-admin account operations. */
import { signupOp } from './signup.op.ts';
import { sessionOperations } from './session.ops.ts';
import { profileOperations } from './profile.ops.ts';
import { emailLinkOperations } from './email-link.ops.ts';
import { passwordResetOperations } from './password-reset.ops.ts';
import { tokenOperations } from './token.ops.ts';
import { otpOperations } from './otp.ops.ts';
import { adminAccessOperations } from './admin-access.ops.ts';

export const accountOperations = [
  signupOp,
  ...sessionOperations,
  ...profileOperations,
  ...emailLinkOperations,
  ...passwordResetOperations,
  ...tokenOperations,
  ...otpOperations,
];

export { adminAccessOperations };
export { LOGIN_STEPS, runLogin, type LoginStep, type LoginState } from './login-flow.ts';
