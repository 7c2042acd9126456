/**
 * The QR image of an otpauth URI (totp-qr.ts) for the account flows that show one. qrcode loads with the
 * first enrolment, not at start: most servers draw few QR codes.
 */
export async function totpQrImage(uri: string): Promise<string> {
  const { totpQrDataUrl } = await import('./totp-qr.ts');
  return totpQrDataUrl(uri);
}
