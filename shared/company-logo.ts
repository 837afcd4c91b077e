// What a company logo may weigh, and what the forms say of one that does not do. Kept free of zod: the profile forms'
// logo field checks a chosen file on the first render, before the form's validation has loaded.

/** A logo is at most 2 MB of image; as base64 that is 4/3 larger, plus the "data:image/...;base64," prefix. */
export const maxLogoBytes = 2 * 1024 * 1024;
export const maxLogoUrlLength = Math.ceil(maxLogoBytes / 3) * 4 + 100;
export const logoTooLargeMessage = "The logo must be 2 MB or smaller";
export const logoNotImageMessage = "The logo must be an image file";
