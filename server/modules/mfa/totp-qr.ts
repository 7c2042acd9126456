/**
 * The QR image of an otpauth URI as a base64 PNG data URL (the AuthResponse of docs/api-overview.md#resources-and-fields
 * `authenticator_scanner_image`), drawn by the qrcode package. Error correction M (15% of the symbol may be
 * damaged) keeps the image small enough for a phone camera at arm's length.
 */
import QRCode from 'qrcode';

export async function totpQrDataUrl(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}
