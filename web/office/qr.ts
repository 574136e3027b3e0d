import { encode } from 'uqr';

const SVG_NS = 'http://www.w3.org/2000/svg';
// Scanners need four light modules around the code (the quiet zone of ISO/IEC 18004).
const QUIET_ZONE = 4;

/**
 * A QR code as an SVG element built with DOM calls: one path of unit squares, colours as SVG
 * presentation attributes, so the page needs no inline style or script (CSP) and scales sharply.
 */
export function qrCode(text: string, label: string): SVGSVGElement {
  const { data, size } = encode(text, { ecc: 'M', border: QUIET_ZONE });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.dataset.qrText = text;
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#ffffff');
  const modules = document.createElementNS(SVG_NS, 'path');
  modules.setAttribute('d', path);
  modules.setAttribute('fill', '#000000');
  svg.append(background, modules);
  return svg;
}
