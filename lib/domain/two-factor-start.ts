/**
 * Starting a two-factor set-up: a new secret kept as pending on the user item, answered with its
 * otpauth URI and QR code. The only answer that ever carries a secret; in its own module because
 * it alone bundles the QR encoder.
 */
import { qrSvg } from '../auth/qr';
import { newTotpSecret, otpauthUri } from '../auth/totp';
import { ConflictError } from '../errors';
import { savePendingSecret } from '../store/two-factor';
import type { SessionPrincipal } from './principal';

export async function startTwoFactor(p: SessionPrincipal): Promise<{ secret: string; otpauth_uri: string; qr_svg: string }> {
  const secret = newTotpSecret();
  // A second start replaces the first secret: only the latest one shown can be confirmed.
  if (!(await savePendingSecret(p.tenantId, p.userId, secret))) throw new ConflictError('two-factor sign-in is already on');
  const uri = otpauthUri(secret, p.email);
  return { secret, otpauth_uri: uri, qr_svg: qrSvg(uri) };
}
