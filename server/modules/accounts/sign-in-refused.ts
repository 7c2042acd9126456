/**
 * A browser sign-in (social, organization SSO) refused with a page for the person: the status and the
 * sentences are safe to display. Operations answer AppError instead; the browser routes render both.
 */
export class SignInRefused extends Error {
  readonly status: number;
  readonly heading: string;
  readonly paragraphs: readonly string[];

  constructor(status: number, heading: string, paragraphs: readonly string[]) {
    super(heading);
    this.status = status;
    this.heading = heading;
    this.paragraphs = paragraphs;
  }
}
