/**
 * The two versions of this server, kept apart.
 * - PORTCULLIS_VERSION: this project's own release, package.json "version" (a test keeps them equal).
 *   `--version` prints it, outgoing requests name it in their User-Agent, and admin meta answers it as
 *   `server_version`.
 * - API_VERSION: the version of the released 2.x API line this server is compatible with, answered as meta
 *   `version` (what the SDK reads). A plain release: a SemVer pre-release suffix such as "-portcullis.0.1.0"
 *   would sort below it (SemVer 2.0.0 section 11) and fail a client's "at least 2.4.0" check.
 */
export const PORTCULLIS_VERSION = '0.1.0';
export const API_VERSION = '2.4.0';
