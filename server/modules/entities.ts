/**
 * Every MikroORM entity of the server, listed explicitly: the single executable cannot discover folders
 * (stack-notes.md "Single executable").
 */
import { AdminSession } from './admin/admin-session.entity.ts';
import { User } from './users/user.entity.ts';
import { Session } from './sessions/session.entity.ts';
import { TokenRecord } from './tokens/token-record.entity.ts';
import { IdentityClaim } from './users/identity-claim.entity.ts';
import { EventOutbox } from './events/event-outbox.entity.ts';
import { VerificationRequest } from './verification/verification-request.entity.ts';
import { Otp } from './verification/otp.entity.ts';
import { MessageJob } from './messages/message-job.entity.ts';
import { FgaModel } from './fga/store/fga-model.entity.ts';
import { FgaTuple } from './fga/store/fga-tuple.entity.ts';

export const ENTITIES = [AdminSession, User, IdentityClaim, Session, TokenRecord, EventOutbox, VerificationRequest, Otp, MessageJob, FgaModel, FgaTuple];
