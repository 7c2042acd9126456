/**
 * Token lifetimes (reference.md "Tokens", "Lifetimes"): access and ID token 30 min, refresh token 30 days.
 * The session and its cookies live 24 h (kernel/cookies.ts SESSION_COOKIE_SECONDS).
 */
export const ACCESS_TOKEN_SECONDS = 30 * 60;
export const ID_TOKEN_SECONDS = 30 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
