import type { Page } from 'playwright-core';

export interface Pixels {
  /** how many different colours the picture has: a blank one has one or two */
  distinct: number;
  /** the share (0-1) of the picture's pixels that are each named colour, each channel within `tolerance` */
  shares: Record<string, number>;
}

/**
 * What a screenshot shows, in colours: decoded by the browser itself (an image drawn on a canvas in `page`, which
 * must allow data: images, as a host page without a policy does).
 */
export async function pixelsOf(
  page: Page,
  png: Buffer,
  colours: Record<string, string>,
  tolerance = 2,
): Promise<Pixels> {
  return page.evaluate(
    async ({ source, wanted, within }) => {
      const image = new Image();
      image.src = source;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const targets = Object.entries(wanted).map(([name, hex]) => ({
        name,
        rgb: [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)),
        count: 0,
      }));
      const seen = new Set<number>();
      for (let at = 0; at < data.length; at += 4) {
        const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
        seen.add((r << 16) | (g << 8) | b);
        for (const target of targets) {
          const [tr, tg, tb] = target.rgb as [number, number, number];
          if (Math.abs(r - tr) <= within && Math.abs(g - tg) <= within && Math.abs(b - tb) <= within) target.count++;
        }
      }
      const pixels = data.length / 4;
      return {
        distinct: seen.size,
        shares: Object.fromEntries(targets.map((target) => [target.name, target.count / pixels])),
      };
    },
    { source: `data:image/png;base64,${png.toString('base64')}`, wanted: colours, within: tolerance },
  );
}
