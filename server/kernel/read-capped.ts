/**
 * Reads an outbound fetch's body with a size cap, so a hostile or broken remote (a social sign-in upstream,
 * a trusted issuer's JWKS) cannot fill memory: the read stops, and the stream is cancelled, at the first
 * chunk past the cap. A declared Content-Length past the cap is refused before reading.
 */
export async function readCappedText(response: Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
