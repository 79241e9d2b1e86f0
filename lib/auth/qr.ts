/**
 * The enrolment QR code, as an SVG document. Only the encoder and the SVG renderer of `qrcode`
 * are loaded: its package entry also brings a PNG encoder and a terminal renderer that a Lambda
 * bundle has no use for.
 */
// @ts-expect-error: the package's types describe its entry point, not these two modules.
import { create } from 'qrcode/lib/core/qrcode';
// @ts-expect-error: as above.
import { render } from 'qrcode/lib/renderer/svg-tag';

/** An SVG of `text` at error correction level M, with the standard quiet zone. */
export function qrSvg(text: string): string {
  return (render as (data: unknown, opts: object) => string)(
    (create as (t: string, o: object) => unknown)(text, { errorCorrectionLevel: 'M' }),
    {
      margin: 4,
      color: { dark: '#000000ff', light: '#ffffffff' },
    },
  );
}
