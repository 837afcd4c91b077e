import { screen, waitFor, within } from "@testing-library/react";

/** The visible toast whose title is `title` (Radix also copies the text into a live region; this skips that copy). */
export async function findToast(title: string): Promise<HTMLElement> {
  const region = await screen.findByRole("region", { name: /Notifications/ });
  const titleElement = await within(region).findByText(title);
  const toast = titleElement.closest("li");
  if (!toast) throw new Error(`The toast titled "${title}" is not inside a toast item`);
  return toast;
}

/**
 * The toast titled `title` while a modal is open: Radix hides everything outside the modal from the
 * accessibility tree (aria-hidden), the toast region included, so this looks past that.
 */
export async function findToastBehindModal(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const toast = screen
      .getAllByText(title, { ignore: "script, style" })
      .map((element) => element.closest("li"))
      .find((item): item is HTMLLIElement => item != null);
    if (!toast) throw new Error(`no toast titled ${title}`);
    return toast;
  });
}
