/** A whole number from 1 to `max` written in an address (a path's id, `?page=`, `?version=`), or null. */
export function numberParam(value: string | null | undefined, max: number): number | null {
  if (!value || !/^\d{1,9}$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 && number <= max ? number : null;
}
