/** What flows need of SMS delivery: one text to one number. Implementations live beside this file. */
export interface SmsProvider {
  send(to: string, body: string): Promise<void>;
}
