/** A number field's text as a whole number, or NaN when it is not one (the server's rule then says why). */
export const asNumber = (value: string) => (/^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN);
