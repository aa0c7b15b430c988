import { encode } from 'uqr';

/** A QR code drawn as one SVG path (no image fetched, nothing inline for the CSP to refuse). */
export function QrCode(props: { text: string; label: string }) {
  const { data, size } = encode(props.text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg class="qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={props.label} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
