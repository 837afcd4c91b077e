/** Zoom steps, as scales of a page's own size. */
export const zoomSteps = [0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;
export const minScale = 0.5;
export const maxScale = 3;

/** Fit width, or a chosen scale. */
export type Zoom = "fit" | number;

/** The scale at which a page of `pageWidth` fills `available` pixels, kept within the zoom steps' range. */
export function fitScale(available: number, pageWidth: number): number {
  if (available <= 0 || pageWidth <= 0) return 1;
  return Math.min(maxScale, Math.max(minScale, available / pageWidth));
}

/** The next step above (`direction` 1) or below (-1) the scale shown now. */
export function stepZoom(current: number, direction: 1 | -1): number {
  if (direction === 1) return zoomSteps.find((step) => step > current + 0.001) ?? maxScale;
  return [...zoomSteps].reverse().find((step) => step < current - 0.001) ?? minScale;
}
